"""Errors of the task platform client: the spec's error object, typed by its type."""

from __future__ import annotations

from typing import Any


class APIError(Exception):
    """An error the service answered, or an ended job's error.

    Branch on ``code`` (stable) or on the subclass, which follows ``type``;
    ``message`` is free text. ``status`` is the HTTP status (0 for a job's
    error read from the job).
    """

    def __init__(self, raw: dict[str, Any], status: int, retry_after: int | None = None):
        self.raw = raw
        self.status = status
        self.code: str = raw.get("code", "")
        self.type: str = raw.get("type", "")
        self.message: str = raw.get("message", "")
        self.field: str | None = raw.get("field") or None
        self.retryable: bool = bool(raw.get("retryable", False))
        self.docs: str | None = raw.get("docs") or None
        self.request_id: str | None = raw.get("request_id") or None
        self.job_id: str | None = raw.get("job_id") or None
        self.retry_after = retry_after
        field = f" (field {self.field})" if self.field else ""
        super().__init__(f"{self.code}{field}: {self.message}")


class InvalidRequestError(APIError):
    """type invalid_request: the request is wrong; ``field`` names the input."""


class AuthenticationError(APIError):
    """type authentication: no key, or a malformed, revoked or expired one."""


class PermissionDeniedError(APIError):
    """type permission: the key or the plan may not do this."""


class NotFoundError(APIError):
    """type not_found."""


class ConflictError(APIError):
    """type conflict: key reused, job already ended, result not ready, cancelled."""


class CreditsError(APIError):
    """type credits: insufficient_credits (``required``, ``balance``), spend limits."""

    @property
    def required(self) -> int | None:
        return self.raw.get("required", (self.raw.get("ctx") or {}).get("required"))

    @property
    def balance(self) -> int | None:
        return self.raw.get("balance", (self.raw.get("ctx") or {}).get("balance"))


class RateLimitError(APIError):
    """type rate_limited: wait ``retry_after`` seconds."""


class InternalError(APIError):
    """type internal, and an answer without an error object (a proxy's)."""


_BY_TYPE: dict[str, type[APIError]] = {
    "invalid_request": InvalidRequestError,
    "authentication": AuthenticationError,
    "permission": PermissionDeniedError,
    "not_found": NotFoundError,
    "conflict": ConflictError,
    "credits": CreditsError,
    "rate_limited": RateLimitError,
    "internal": InternalError,
}


def error_for(raw: dict[str, Any], status: int, retry_after: int | None = None) -> APIError:
    """The error class of an error object, by its type (APIError for a type this client does not know)."""
    return _BY_TYPE.get(raw.get("type", ""), APIError)(raw, status, retry_after)


class UnreachableError(Exception):
    """A connection refused or a host name that does not resolve: not retried."""

    def __init__(self, url: str, cause: BaseException):
        super().__init__(f"cannot reach {url}: is the service running there? ({cause})")
        self.url = url


class VerificationError(Exception):
    """A webhook delivery or a manifest that does not verify.

    ``reason`` is stale (timestamp outside the window), bad_signature,
    missing_headers or malformed.
    """

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
