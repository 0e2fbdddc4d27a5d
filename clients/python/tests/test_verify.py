"""Offline checks of webhook and manifest verification against clients/testdata/signed.json,
which the Go signer writes with fixed keys."""

import base64
import json
import pathlib
import unittest

from taskplatform import VerificationError, Verifier

FIXTURE = json.loads((pathlib.Path(__file__).parents[2] / "testdata" / "signed.json").read_text())
SIGNED_AT = int(FIXTURE["headers"]["X-Service-Timestamp"])


def verifier(**kw):
    opts = {"jwks": FIXTURE["jwks"], "window_seconds": FIXTURE["window_seconds"], "now": lambda: SIGNED_AT + 30}
    opts.update(kw)
    return Verifier("http://offline.invalid", **opts)


class WebhookTest(unittest.TestCase):
    def refused(self, reason, fn, *args):
        with self.assertRaises(VerificationError) as cm:
            fn(*args)
        self.assertEqual(cm.exception.reason, reason)

    def test_a_signed_delivery_verifies_and_its_event_is_read(self):
        d = verifier().verify(FIXTURE["headers"], FIXTURE["body"].encode())
        self.assertEqual((d.id, d.user_id, d.timestamp), ("whd_fixture", "42", SIGNED_AT))
        self.assertEqual(d.event["event"], "job.succeeded")
        lower = {k.lower(): v for k, v in FIXTURE["headers"].items()}
        verifier().verify(lower, FIXTURE["body"])

    def test_a_changed_body_user_or_timestamp_does_not_verify(self):
        v = verifier()
        self.refused("bad_signature", v.verify, FIXTURE["headers"], FIXTURE["body"].replace("succeeded", "failed"))
        self.refused("bad_signature", v.verify, {**FIXTURE["headers"], "X-Service-User-Id": "43"}, FIXTURE["body"])
        later = {**FIXTURE["headers"], "X-Service-Timestamp": str(SIGNED_AT + 1)}
        self.refused("bad_signature", v.verify, later, FIXTURE["body"])

    def test_a_key_the_service_does_not_publish_does_not_verify(self):
        self.refused("bad_signature", verifier(jwks=FIXTURE["other_jwks"]).verify, FIXTURE["headers"], FIXTURE["body"])

    def test_the_clock_window(self):
        w = FIXTURE["window_seconds"]
        self.refused("stale", verifier(now=lambda: SIGNED_AT + w + 1).verify, FIXTURE["headers"], FIXTURE["body"])
        self.refused("stale", verifier(now=lambda: SIGNED_AT - w - 1).verify, FIXTURE["headers"], FIXTURE["body"])
        verifier(now=lambda: SIGNED_AT - w + 1).verify(FIXTURE["headers"], FIXTURE["body"])

    def test_missing_headers(self):
        rest = {k: v for k, v in FIXTURE["headers"].items() if k != "X-Service-Signature"}
        self.refused("missing_headers", verifier().verify, rest, FIXTURE["body"])

    def test_keys_are_fetched_and_refetched_once_when_they_fail(self):
        served = [FIXTURE["other_jwks"], FIXTURE["jwks"]]
        asked = []

        def fetch(url):
            asked.append(url)
            return served.pop(0) if served else FIXTURE["other_jwks"]

        v = verifier(jwks=None, fetch_json=fetch)
        self.refused("bad_signature", v.verify, FIXTURE["headers"], FIXTURE["body"])
        self.assertEqual(len(asked), 1, "keys fetched by this call are not fetched again")
        v.verify(FIXTURE["headers"], FIXTURE["body"])
        self.assertEqual(asked, ["http://offline.invalid/.well-known/jwks.json"] * 2)
        v.verify(FIXTURE["headers"], FIXTURE["body"])
        self.assertEqual(len(asked), 2, "the keys that verified are cached")


class ManifestTest(unittest.TestCase):
    def test_a_manifest_verifies_in_both_forms(self):
        self.assertEqual(verifier().verify_manifest(FIXTURE["manifest"]), FIXTURE["manifest_payload"])
        self.assertEqual(verifier().verify_manifest(FIXTURE["manifest_compact"]), FIXTURE["manifest_payload"])

    def test_a_changed_manifest_or_another_key_does_not_verify(self):
        payload = dict(FIXTURE["manifest_payload"], credits={**FIXTURE["manifest_payload"]["credits"], "charged": 0})
        altered = dict(FIXTURE["manifest"],
                       payload=base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("="))
        for v, jws, reason in [(verifier(), altered, "bad_signature"),
                               (verifier(jwks=FIXTURE["other_jwks"]), FIXTURE["manifest"], "bad_signature"),
                               (verifier(), "a.b", "malformed")]:
            with self.assertRaises(VerificationError) as cm:
                v.verify_manifest(jws)
            self.assertEqual(cm.exception.reason, reason)


if __name__ == "__main__":
    unittest.main()
