"""The client against a real stack (TP_BASE_URL, TP_API_KEY; make test's TestOfficialClients starts one)."""

import os
import pathlib
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from taskplatform import (APIError, AuthenticationError, Client, InvalidRequestError, NotFoundError, Answer,
                          Verifier, urllib_transport)

BASE, KEY = os.environ.get("TP_BASE_URL"), os.environ.get("TP_API_KEY")
assert BASE and KEY, "the stack tests need a running stack: set TP_BASE_URL and TP_API_KEY"
INPUT = {"kind": "stripes", "colors": ["#1D3557", "#F1FAEE"], "resolution": "512"}
PNG = b"\x89PNG"


class StackTest(unittest.TestCase):
    client = Client(KEY, BASE)

    def test_run_submits_waits_and_downloads(self):
        with tempfile.TemporaryDirectory() as d:
            run = self.client.run("pattern.generate", INPUT, download_dir=d)
            self.assertGreaterEqual(len(run.result["files"]), 1)
            self.assertEqual(len(run.paths), len(run.result["files"]))
            for p, f in zip(run.paths, run.result["files"]):
                data = pathlib.Path(p).read_bytes()
                self.assertEqual(len(data), f["bytes"])
                if f["media_type"] == "image/png":
                    self.assertEqual(data[:4], PNG)

    def test_submit_wait_result_and_the_paging_iterators(self):
        a = self.client.submit("pattern.generate", INPUT)
        b = self.client.submit("pattern.generate", {**INPUT, "kind": "dots"})
        seen = []
        self.assertEqual(self.client.wait(b.job_id, on_progress=seen.append)["outcome"], "succeeded")
        self.assertTrue(seen)
        self.client.wait(a.job_id)
        result = self.client.result(b.job_id)
        files = list(self.client.files(b.job_id, page_size=1))
        self.assertEqual([f["url"] for f in files], [f["url"] for f in result["files"]])
        ids = []
        for j in self.client.jobs(page_size=1):
            ids.append(j["job_id"])
            if len(ids) == 2:
                break
        self.assertEqual(ids, [b.job_id, a.job_id], "newest first, across pages of one")

    def test_the_same_idempotency_key_lands_on_the_same_job(self):
        first = self.client.submit("pattern.generate", INPUT)
        again = self.client.submit("pattern.generate", INPUT, idempotency_key=first.idempotency_key)
        self.assertEqual(again.job_id, first.job_id)

    def test_a_lost_answer_is_retried_with_the_same_key(self):
        keys = []

        def lossy(method, url, headers, body, timeout):
            a = urllib_transport(method, url, headers, body, timeout)
            if method == "POST":
                keys.append(headers["Idempotency-Key"])
                if len(keys) == 1:
                    return Answer(504, {}, b"upstream timeout")  # the proxy lost it
            return a

        c = Client(KEY, BASE, transport=lossy, backoff=0.01)
        before = self.client.jobs_page(1)["items"][0]["job_id"]
        sub = c.submit("pattern.generate", INPUT)
        self.assertEqual(len(keys), 2)
        self.assertEqual(keys[0], keys[1])
        newest = self.client.jobs_page(2)["items"]
        self.assertEqual([newest[0]["job_id"], newest[1]["job_id"]], [sub.job_id, before], "one job, not two")

    def test_errors_are_typed(self):
        with self.assertRaises(InvalidRequestError) as cm:
            self.client.submit("pattern.generate", {"kind": "stripes", "count": 99})
        self.assertTrue(400 <= cm.exception.status < 500 and cm.exception.field and cm.exception.request_id)
        with self.assertRaises(NotFoundError):
            self.client.job("job_does_not_exist")
        with self.assertRaises(AuthenticationError) as cm:
            Client("tpk_not_a_key", BASE).job("job_x")
        self.assertEqual(cm.exception.code, "invalid_api_key")
        self.assertIsInstance(cm.exception, APIError)

    def test_a_manifest_verifies_against_the_published_keys(self):
        result = self.client.run("pattern.generate", INPUT).result
        manifest = Verifier(BASE).verify_manifest(self.client.manifest(result["job_id"]))
        self.assertEqual((manifest["job_id"], manifest["outcome"]), (result["job_id"], "succeeded"))
        self.assertEqual(len(manifest["outputs"]), len(result["files"]))
        self.assertEqual(manifest["outputs"][0]["sha256"], result["files"][0]["sha256"])

    def test_a_listen_delivery_verifies_as_a_webhook(self):
        verifier = Verifier(BASE)
        stream = self.client.listen()
        got = []

        def read():
            for d in stream:
                delivery = verifier.verify(d.headers, d.body)
                got.append(delivery)
                if delivery.event.get("event") == "job.succeeded" and delivery.event.get("job_id") == job[0]:
                    return

        job = [None]
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        time.sleep(0.5)
        job[0] = self.client.submit("pattern.generate", INPUT).job_id
        reader.join(60)
        self.assertFalse(reader.is_alive(), "the job's verified job.succeeded delivery arrived")
        self.assertEqual(got[-1].event["job_id"], job[0])

    def test_the_examples_run(self):
        examples = pathlib.Path(__file__).parents[1] / "examples"
        env = {**os.environ, "PYTHONPATH": str(examples.parent)}
        with tempfile.TemporaryDirectory() as d:
            out = subprocess.run([sys.executable, str(examples / "first_job.py")], cwd=d, env=env, check=True,
                                 capture_output=True, text=True, timeout=120).stdout
            job_id = out.split()[1].rstrip(":")
            self.assertRegex(out, r"^job \S+: \d+ file\(s\) saved as ")
            self.assertEqual(pathlib.Path(d, out.split("saved as ")[1].split(",")[0].strip()).read_bytes()[:4], PNG)
            out = subprocess.run([sys.executable, str(examples / "manifest.py"), job_id], cwd=d, env=env, check=True,
                                 capture_output=True, text=True, timeout=60).stdout
            self.assertRegex(out, rf"^{job_id} succeeded: \d+ output\(s\)")


if __name__ == "__main__":
    unittest.main()
