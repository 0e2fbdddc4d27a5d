"""Webhook and manifest verification: Ed25519 against the service's JWKS.

The standard library has no Ed25519; the signatures are checked with the
``cryptography`` package (PyCA; Debian ``python3-cryptography``), imported
only here, so the rest of the client is standard library only.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import threading
import time
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .errors import VerificationError

KEYS_MAX_AGE = 24 * 60 * 60
"""The longest the key document is cached, in seconds (the spec's 24 hours)."""


def signed_message(delivery_id: str, user_id: str, timestamp: str, body: bytes) -> bytes:
    """The spec's message: the delivery id, the user id, the timestamp and the
    lowercase hex SHA-256 of the raw body, joined by line feeds with no trailing one."""
    return f"{delivery_id}\n{user_id}\n{timestamp}\n{hashlib.sha256(body).hexdigest()}".encode()


def _b64(s: str, url: bool) -> bytes:
    s = s.strip().rstrip("=")
    s += "=" * (-len(s) % 4)
    return base64.b64decode(s, altchars=b"-_" if url else None, validate=True)


def _any_key_verifies(jwks: Mapping[str, Any], sig: bytes, data: bytes, kid: str | None = None) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    for k in jwks.get("keys", []):
        if k.get("kty") != "OKP" or k.get("crv") != "Ed25519" or (kid and k.get("kid") != kid):
            continue
        try:
            pub = Ed25519PublicKey.from_public_bytes(_b64(k.get("x", ""), True))
        except (ValueError, binascii.Error):
            continue
        try:
            pub.verify(sig, data)
            return True
        except InvalidSignature:
            continue
    return False


@dataclass
class Delivery:
    """A verified webhook delivery; dedupe by ``event["id"]``."""

    id: str
    user_id: str
    timestamp: int
    body: bytes
    event: dict[str, Any]


def _header(headers: Mapping[str, str], name: str) -> str:
    lower = name.lower()
    for k, v in headers.items():
        if k.lower() == lower:
            return v
    return ""


class Verifier:
    """Checks webhook deliveries as the spec's five steps say, and job manifests.

    Ed25519 against the keys at {base_url}/.well-known/jwks.json, cached at
    most 24 hours and refetched once on a failure (at most once per
    cooldown); a delivery's timestamp within
    webhook.signature.timestamp_window_seconds of GET /v1/meta. Thread-safe.
    """

    def __init__(self, base_url: str, *, window_seconds: int | None = None, jwks: Mapping[str, Any] | None = None,
                 refetch_cooldown: float = 60.0, now: Callable[[], float] = time.time,
                 fetch_json: Callable[[str], Any] | None = None):
        self.base_url = base_url.rstrip("/")
        self._window = window_seconds
        self._fixed = jwks
        self._cooldown = refetch_cooldown
        self._now = now
        self._fetch_json = fetch_json or self._get
        self._lock = threading.Lock()
        self._jwks: Mapping[str, Any] | None = None
        self._fetched_at = 0.0
        self._last_try = 0.0

    @staticmethod
    def _get(url: str) -> Any:
        with urllib.request.urlopen(url, timeout=10) as res:
            return json.loads(res.read(1 << 20))

    def _keys(self, force: bool) -> tuple[Mapping[str, Any], bool]:
        if self._fixed is not None:
            return self._fixed, True
        with self._lock:
            now = self._now()
            stale = self._jwks is None or now - self._fetched_at >= KEYS_MAX_AGE
            if not stale and not (force and now - self._last_try >= self._cooldown):
                return self._jwks, False  # type: ignore[return-value]
            if not stale:
                self._last_try = now
            try:
                self._jwks = self._fetch_json(self.base_url + "/.well-known/jwks.json")
            except OSError:
                if not stale:
                    return self._jwks, False  # type: ignore[return-value]
                raise
            self._fetched_at = now
            return self._jwks, True  # type: ignore[return-value]

    def _window_seconds(self) -> int:
        if self._window:
            return self._window
        meta = self._fetch_json(self.base_url + "/v1/meta")
        w = ((meta.get("webhook") or {}).get("signature") or {}).get("timestamp_window_seconds")
        if not w or w <= 0:
            raise ValueError("GET /v1/meta has no webhook.signature.timestamp_window_seconds")
        self._window = int(w)
        return self._window

    def _with_keys(self, check: Callable[[Mapping[str, Any]], bool]) -> bool:
        jwks, fresh = self._keys(False)
        if check(jwks):
            return True
        if fresh:
            return False
        again, refetched = self._keys(True)
        return refetched and check(again)

    def verify(self, headers: Mapping[str, str], body: bytes | str) -> Delivery:
        """Verifies one delivery: its headers and raw body exactly as received.

        Raises VerificationError (reason missing_headers, stale or bad_signature).
        """
        raw = body.encode() if isinstance(body, str) else bytes(body)
        ident = _header(headers, "X-Service-Request-Id")
        user = _header(headers, "X-Service-User-Id")
        ts = _header(headers, "X-Service-Timestamp")
        sig = _header(headers, "X-Service-Signature")
        if not (ident and user and ts and sig):
            raise VerificationError("missing_headers", "webhook delivery lacks X-Service-* headers")
        window = self._window_seconds()
        try:
            stamp = int(ts)
        except ValueError:
            raise VerificationError("stale", f"timestamp {ts!r} is not Unix seconds") from None
        skew = abs(self._now() - stamp)
        if skew > window:
            raise VerificationError("stale", f"webhook timestamp {skew:.0f} s from the clock (window {window} s)")
        try:
            signature = _b64(sig, False)
        except (ValueError, binascii.Error):
            signature = b""
        if len(signature) != 64:
            raise VerificationError("bad_signature", "signature is not Base64 of an Ed25519 signature")
        message = signed_message(ident, user, ts, raw)
        if not self._with_keys(lambda jwks: _any_key_verifies(jwks, signature, message)):
            raise VerificationError("bad_signature", "webhook signature does not verify")
        return Delivery(ident, user, stamp, raw, json.loads(raw))

    def verify_manifest(self, jws: Mapping[str, str] | str) -> dict[str, Any]:
        """Verifies a job manifest (the JWS of GET /v1/jobs/{id}/manifest, or its compact form).

        Answers the manifest it signs; raises VerificationError (malformed, bad_signature).
        """
        if isinstance(jws, str):
            parts = jws.strip().split(".")
            if len(parts) != 3:
                raise VerificationError("malformed", f"{len(parts)} parts, want 3")
            jws = {"protected": parts[0], "payload": parts[1], "signature": parts[2]}
        try:
            head = json.loads(_b64(jws["protected"], True))
            payload = _b64(jws["payload"], True)
            sig = _b64(jws["signature"], True)
        except (KeyError, ValueError, binascii.Error):
            raise VerificationError("malformed", "manifest is not a JWS of three Base64url parts") from None
        if not isinstance(head, dict) or head.get("alg") != "EdDSA":
            raise VerificationError("malformed", "manifest header must say alg EdDSA")
        if len(sig) != 64:
            raise VerificationError("bad_signature", "not an Ed25519 signature")
        data = f"{jws['protected']}.{jws['payload']}".encode()
        if not self._with_keys(lambda jwks: _any_key_verifies(jwks, sig, data, head.get("kid"))):
            raise VerificationError("bad_signature", "manifest signature does not verify")
        return json.loads(payload)
