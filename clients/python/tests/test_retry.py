"""The spec's retry rules, against a fake transport that records each try."""

import json
import re
import socket
import unittest

from taskplatform import (Answer, Client, ConflictError, CreditsError, InternalError, InvalidRequestError,
                          RateLimitError, UnreachableError)


def error(status, code, type_, retryable, headers=None, **extra):
    body = json.dumps({"error": {"code": code, "type": type_, "message": code, "retryable": retryable, **extra}})
    return Answer(status, headers or {}, body.encode())


JOB = Answer(202, {}, json.dumps({"job_id": "job_1", "lifecycle": "queued", "outcome": None}).encode())


def scripted(*answers):
    tries, waits = [], []
    queue = list(answers)

    def transport(method, url, headers, body, timeout):
        tries.append((method, url, dict(headers)))
        a = queue.pop(0)
        if isinstance(a, Exception):
            raise a
        return a

    c = Client("tpk_test", "http://svc.test", transport=transport)
    c.sleep = waits.append
    return c, tries, waits


class RetryTest(unittest.TestCase):
    def test_an_error_object_that_is_not_retryable_is_not_retried_even_a_503(self):
        c, tries, _ = scripted(error(503, "maintenance", "internal", False))
        with self.assertRaises(InternalError):
            c.job("job_1")
        self.assertEqual(len(tries), 1)

    def test_a_retryable_error_is_retried_and_the_post_keeps_its_key(self):
        c, tries, waits = scripted(error(500, "capacity_busy", "internal", True), Answer(502, {}, b""), JOB)
        sub = c.submit("pattern.generate", {"kind": "stripes"})
        self.assertEqual(sub.job_id, "job_1")
        keys = [h["Idempotency-Key"] for _, _, h in tries]
        self.assertRegex(keys[0], r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        self.assertEqual(keys, [keys[0]] * 3)
        self.assertEqual(sub.idempotency_key, keys[0])
        self.assertEqual(len(waits), 2)
        self.assertTrue(0.25 <= waits[0] <= 0.5 and 0.5 <= waits[1] <= 1.0, waits)

    def test_proxy_answers_are_retried_and_a_plain_4xx_is_not(self):
        for status in (429, 500, 502, 503, 504):
            c, tries, _ = scripted(Answer(status, {}, b"busy"), JOB)
            c.job("job_1")
            self.assertEqual(len(tries), 2, status)
        c, tries, _ = scripted(Answer(404, {}, b"gone"))
        with self.assertRaises(InternalError) as cm:
            c.job("job_1")
        self.assertEqual((cm.exception.code, len(tries)), ("http_404", 1))

    def test_retry_after_is_honoured_and_the_last_error_is_raised(self):
        busy = error(429, "rate_limited", "rate_limited", True, {"retry-after": "7"})
        c, tries, waits = scripted(*[busy] * 6)
        with self.assertRaises(RateLimitError) as cm:
            c.job("job_1")
        self.assertEqual((len(tries), waits, cm.exception.retry_after), (6, [7.0] * 5, 7))

    def test_errors_are_typed_with_code_field_and_amounts(self):
        c, _, _ = scripted(error(422, "invalid_input", "invalid_request", False, field="count"),
                           error(402, "insufficient_credits", "credits", False, required=8, balance=2),
                           error(409, "result_not_ready", "conflict", False))
        with self.assertRaises(InvalidRequestError) as cm:
            c.submit("t", {})
        self.assertEqual(cm.exception.field, "count")
        with self.assertRaises(CreditsError) as cm:
            c.submit("t", {})
        self.assertEqual((cm.exception.required, cm.exception.balance), (8, 2))
        with self.assertRaises(ConflictError) as cm:
            c.result("j")
        self.assertEqual(cm.exception.code, "result_not_ready")

    def test_network_errors_are_retried_and_a_refused_connection_fails_at_once(self):
        c, tries, _ = scripted(ConnectionResetError(), JOB)
        c.job("job_1")
        self.assertEqual(len(tries), 2)
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        with self.assertRaises(UnreachableError) as cm:
            Client("tpk_test", f"http://127.0.0.1:{port}").job("j")
        self.assertTrue(re.match(rf"http://127\.0\.0\.1:{port}/", cm.exception.url))

    def test_backoff_doubles_with_jitter_up_to_the_cap(self):
        c = Client("k", "http://svc.test")
        for _ in range(50):
            self.assertTrue(0.25 <= c.backoff(0) <= 0.5)
            self.assertTrue(30 <= c.backoff(30) <= 60)


if __name__ == "__main__":
    unittest.main()
