"""The task platform API client: standard library only (urllib)."""

from __future__ import annotations

import json
import os
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from .errors import APIError, InternalError, UnreachableError, error_for

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
"""The address ``make run`` serves the API on."""

MAX_BACKOFF = 60.0
"""The longest wait between two tries of a call, in seconds (the spec's cap)."""

_RETRIED_WITHOUT_OBJECT = {429, 500, 502, 503, 504}


@dataclass
class Answer:
    """One HTTP answer: status, headers (lower-case names) and body."""

    status: int
    headers: dict[str, str]
    body: bytes


Transport = Callable[[str, str, Mapping[str, str], "bytes | None", float], Answer]
"""(method, url, headers, body, timeout) -> Answer; raises OSError on network failures."""


def urllib_transport(method: str, url: str, headers: Mapping[str, str], body: bytes | None, timeout: float) -> Answer:
    """The default transport: urllib, any status answered (not raised)."""
    req = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return Answer(res.status, {k.lower(): v for k, v in res.headers.items()}, res.read())
    except urllib.error.HTTPError as e:
        with e:
            return Answer(e.code, {k.lower(): v for k, v in e.headers.items()}, e.read())


def _unreachable(err: BaseException) -> bool:
    reason = err.reason if isinstance(err, urllib.error.URLError) else err
    return isinstance(reason, (ConnectionRefusedError, socket.gaierror))


@dataclass
class Submission:
    """The answer of a submit: the job's handle (202), or its result when the service waited (200)."""

    job_id: str
    idempotency_key: str
    job: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    credits: int | None = None
    credit_type: str | None = None


@dataclass
class RunResult:
    result: dict[str, Any]
    paths: list[str] = field(default_factory=list)


@dataclass
class ListenDelivery:
    """One delivery of the listen stream: the headers and raw body a webhook endpoint would receive."""

    id: str
    event: str
    headers: dict[str, str]
    body: bytes


def job_error(job: Mapping[str, Any]) -> APIError | None:
    """The error of an ended job that failed or was cancelled; None otherwise."""
    outcome = job.get("outcome")
    if outcome in (None, "succeeded"):
        return None
    raw = dict(job.get("error") or {"code": outcome, "type": "conflict", "message": f"The job ended {outcome}.",
                                     "retryable": False})
    raw.setdefault("job_id", job.get("job_id"))
    raw["job_id"] = raw["job_id"] or job.get("job_id")
    return error_for(raw, 0)


class Client:
    """A client of the task platform API with one key.

    The spec's retry rules are built in: an answer with an error object is
    retried only when it says retryable; 429, 500, 502, 503 and 504 without
    one and network errors are retried; exponential backoff with jitter
    capped at 60 s; Retry-After honoured; a POST is resent with the same
    Idempotency-Key. A refused connection fails at once (UnreachableError).
    """

    def __init__(
        self,
        api_key: str | None = None,
        base_url: str | None = None,
        *,
        max_attempts: int = 6,
        backoff: float = 0.5,
        max_backoff: float = MAX_BACKOFF,
        timeout: float = 90.0,
        service_version: str | None = None,
        transport: Transport | None = None,
    ):
        key = api_key or os.environ.get("TP_API_KEY")
        if not key:
            raise ValueError("no API key: pass api_key or set TP_API_KEY")
        self.api_key = key
        self.base_url = (base_url or os.environ.get("TP_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.max_attempts = max(1, max_attempts)
        self.backoff_first = backoff
        self.max_backoff = min(max_backoff, MAX_BACKOFF)
        self.timeout = timeout
        self.service_version = service_version
        self.transport: Transport = transport or urllib_transport
        self.sleep: Callable[[float], None] = time.sleep

    # -- the retry rules -------------------------------------------------

    def backoff(self, attempt: int) -> float:
        """The wait before try attempt+2: exponential, capped, between half and all of it."""
        d = min(self.backoff_first * 2 ** min(attempt, 20), self.max_backoff)
        return d / 2 + random.random() * d / 2

    def _headers(self, url: str, extra: Mapping[str, str] | None, has_body: bool) -> dict[str, str]:
        h = {"User-Agent": "taskplatform-python", **(extra or {})}
        if url.startswith(self.base_url + "/"):
            h["Authorization"] = f"Key {self.api_key}"
        if has_body:
            h["Content-Type"] = "application/json"
        if self.service_version:
            h["Service-Version"] = self.service_version
        return h

    @staticmethod
    def _error_of(a: Answer) -> tuple[APIError, bool]:
        obj = None
        try:
            parsed = json.loads(a.body)
            if isinstance(parsed, dict) and isinstance(parsed.get("error"), dict) and parsed["error"].get("code"):
                obj = parsed["error"]
        except ValueError:
            pass
        retry_after = None
        header = a.headers.get("retry-after", "").strip()
        if header.isdigit():
            retry_after = int(header)
        elif obj and isinstance((obj.get("ctx") or {}).get("retry_after"), int):
            retry_after = obj["ctx"]["retry_after"]
        if obj is not None:
            raw = dict(obj)
            raw["request_id"] = raw.get("request_id") or a.headers.get("x-request-id")
            return error_for(raw, a.status, retry_after), bool(obj.get("retryable"))
        text = a.body.decode("utf-8", "replace").strip()[:200] or f"HTTP {a.status}"
        raw = {"code": f"http_{a.status}", "type": "internal", "message": text,
               "retryable": a.status in _RETRIED_WITHOUT_OBJECT, "request_id": a.headers.get("x-request-id")}
        return InternalError(raw, a.status, retry_after), raw["retryable"]

    def _do(self, method: str, path_or_url: str, body: bytes | None = None,
            headers: Mapping[str, str] | None = None) -> Answer:
        url = path_or_url if "://" in path_or_url else self.base_url + path_or_url
        h = self._headers(url, headers, body is not None)
        attempt = 0
        while True:
            wait = 0.0
            try:
                a = self.transport(method, url, h, body, self.timeout)
            except OSError as err:
                if _unreachable(err):
                    raise UnreachableError(url, err) from err
                if attempt + 1 >= self.max_attempts:
                    raise
            else:
                if a.status < 400:
                    return a
                err, retry = self._error_of(a)
                if not retry or attempt + 1 >= self.max_attempts:
                    raise err
                wait = float(err.retry_after or 0)
            self.sleep(wait if wait > 0 else self.backoff(attempt))
            attempt += 1

    def _json(self, method: str, path: str, body: Any = None, headers: Mapping[str, str] | None = None) -> Any:
        raw = None if body is None else json.dumps(body).encode()
        return json.loads(self._do(method, path, raw, headers).body)

    # -- jobs --------------------------------------------------------------

    def submit(self, task: str, input: Mapping[str, Any], *, wait: int | None = None,
               idempotency_key: str | None = None, start_timeout: int | None = None,
               webhook_url: str | None = None, max_credits: int | None = None) -> Submission:
        """Submits task with input; with ``wait`` (seconds) the service may answer the result itself.

        A job that fails or is cancelled while the service waits raises its APIError.
        """
        key = idempotency_key or str(uuid.uuid4())
        h = {"Idempotency-Key": key}
        if wait:
            h["Prefer"] = f"wait={int(wait)}"
        if start_timeout:
            h["X-Service-Start-Timeout"] = str(int(start_timeout))
        if max_credits:
            h["X-Service-Max-Credits"] = str(int(max_credits))
        path = "/v1/tasks/" + urllib.parse.quote(task, safe="")
        if webhook_url:
            path += "?webhook_url=" + urllib.parse.quote(webhook_url, safe="")
        a = self._do("POST", path, json.dumps(dict(input)).encode(), h)
        parsed = json.loads(a.body)
        credits = a.headers.get("x-service-credits")
        return Submission(job_id=parsed["job_id"], idempotency_key=key,
                          job=None if a.status == 200 else parsed, result=parsed if a.status == 200 else None,
                          credits=int(credits) if credits else None, credit_type=a.headers.get("x-service-credit-type"))

    def estimate(self, task: str, input: Mapping[str, Any]) -> dict[str, Any]:
        """Validates input as a submit does and answers its cost ceiling; no job starts."""
        return self._json("POST", "/v1/tasks/" + urllib.parse.quote(task, safe="") + "/estimate", dict(input))

    def job(self, job_id: str) -> dict[str, Any]:
        """Reads a job: lifecycle, outcome, progress and error."""
        return self._json("GET", "/v1/jobs/" + urllib.parse.quote(job_id, safe=""))

    def jobs_page(self, limit: int | None = None, cursor: str | None = None) -> dict[str, Any]:
        """One page of the account's jobs, newest first."""
        q = {k: v for k, v in (("limit", limit), ("cursor", cursor)) if v}
        return self._json("GET", "/v1/jobs" + ("?" + urllib.parse.urlencode(q) if q else ""))

    def jobs(self, page_size: int | None = None) -> Iterator[dict[str, Any]]:
        """Every job of the account, newest first, fetching pages as the loop asks for them."""
        cursor = None
        while True:
            page = self.jobs_page(page_size, cursor)
            yield from page["items"]
            if not page.get("has_more") or not page.get("next_cursor"):
                return
            cursor = page["next_cursor"]

    def files(self, job_id: str, page_size: int = 100) -> Iterator[dict[str, Any]]:
        """The outputs a job delivered, in the task's order, whatever its outcome, page by page."""
        cursor = None
        while True:
            q = {"limit": page_size, **({"cursor": cursor} if cursor else {})}
            page = self._json("GET", f"/v1/jobs/{urllib.parse.quote(job_id, safe='')}/files?"
                              + urllib.parse.urlencode(q))
            yield from page["items"]
            if not page.get("has_more") or not page.get("next_cursor"):
                return
            cursor = page["next_cursor"]

    def result(self, job_id: str) -> dict[str, Any]:
        """A succeeded job's result, every page of files joined.

        A failed job raises ConflictError job_failed, a cancelled one
        cancelled, one still running result_not_ready.
        """
        out: dict[str, Any] | None = None
        cursor = None
        while True:
            q = {"limit": 100, **({"cursor": cursor} if cursor else {})}
            page = self._json("GET", f"/v1/jobs/{urllib.parse.quote(job_id, safe='')}/result?"
                              + urllib.parse.urlencode(q))
            if out is None:
                out = page
            else:
                out["files"].extend(page["files"])
            if not page.get("has_more") or not page.get("next_cursor"):
                out["has_more"] = False
                out.pop("next_cursor", None)
                return out
            cursor = page["next_cursor"]

    def cancel(self, job_id: str) -> dict[str, Any]:
        """Asks a job to stop; an ended job raises ConflictError job_already_ended."""
        return self._json("PUT", f"/v1/jobs/{urllib.parse.quote(job_id, safe='')}/cancel")

    def manifest(self, job_id: str) -> dict[str, str]:
        """The signed manifest (a JWS) of an ended job; check it with Verifier.verify_manifest."""
        return self._json("GET", f"/v1/jobs/{urllib.parse.quote(job_id, safe='')}/manifest")

    def wait(self, job_id: str, *, on_progress: Callable[[dict[str, Any]], None] | None = None,
             poll: float = 0.5, poll_max: float = 5.0, timeout: float | None = None) -> dict[str, Any]:
        """Follows a job until it ends and answers its final record.

        Reads the job at growing intervals (each read under the retry
        rules). A job that failed or was cancelled raises its APIError,
        carrying the job id; ``timeout`` (seconds) raises TimeoutError.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        seen = -1
        while True:
            job = self.job(job_id)
            done = (job.get("progress") or {}).get("done", 0)
            if on_progress and done != seen:
                seen = done
                on_progress(job)
            if job.get("lifecycle") == "terminal":
                err = job_error(job)
                if err:
                    raise err
                return job
            if deadline is not None and time.monotonic() + poll > deadline:
                raise TimeoutError(f"job {job_id} has not ended after {timeout} s")
            self.sleep(poll)
            poll = min(poll * 2, poll_max)

    def run(self, task: str, input: Mapping[str, Any], *, download_dir: str | None = None,
            on_progress: Callable[[dict[str, Any]], None] | None = None, **submit: Any) -> RunResult:
        """A submit, a wait and the result in one call; with download_dir it saves every file.

        The service is asked to wait up to a minute; files are saved as
        {job}_{index}.{ext}.
        """
        submit.setdefault("wait", 60)
        sub = self.submit(task, input, **submit)
        result = sub.result
        if result is None or result.get("has_more"):
            self.wait(sub.job_id, on_progress=on_progress)
            result = self.result(sub.job_id)
        paths: list[str] = []
        if download_dir:
            os.makedirs(download_dir, exist_ok=True)
            for i, f in enumerate(result["files"]):
                p = os.path.join(download_dir, f"{result['job_id']}_{i}{_extension(f)}")
                with open(p, "wb") as out:
                    out.write(self.download(f["url"]))
                paths.append(p)
        return RunResult(result, paths)

    def download(self, url: str) -> bytes:
        """The bytes of an output's url (the key is sent only to this service), under the retry rules."""
        return self._do("GET", urllib.parse.urljoin(self.base_url + "/", url)).body

    def listen(self) -> Iterator[ListenDelivery]:
        """The account's job events as signed webhook deliveries (GET /v1/events), from the moment it opens.

        Verify each with Verifier.verify(d.headers, d.body) as a webhook
        endpoint would. A stream the service ends is opened again at once
        (events in between are not sent again). Close the generator to stop.
        """
        while True:
            yield from self._listen_once()

    def _listen_once(self) -> Iterator[ListenDelivery]:
        url = self.base_url + "/v1/events"
        req = urllib.request.Request(url, headers=self._headers(url, {"Accept": "text/event-stream"}, False))
        try:
            res = urllib.request.urlopen(req, timeout=self.timeout)
        except urllib.error.HTTPError as e:
            with e:
                raise self._error_of(Answer(e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()))[0]
        with res:
            ident, event, data = "", "", []
            for raw in res:
                line = raw.decode("utf-8").rstrip("\r\n")
                if line == "":
                    if data:
                        frame = json.loads("\n".join(data))
                        yield ListenDelivery(ident, event, frame["headers"], frame["body"].encode())
                    ident, event, data = "", "", []
                    continue
                if line.startswith(":"):
                    continue
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "id":
                    ident = value
                elif name == "event":
                    event = value
                elif name == "data":
                    data.append(value)


_EXTENSIONS = {"image/png": ".png", "image/jpeg": ".jpg", "image/svg+xml": ".svg", "image/gif": ".gif",
               "image/webp": ".webp", "application/pdf": ".pdf", "application/json": ".json", "video/mp4": ".mp4"}


def _extension(f: Mapping[str, Any]) -> str:
    ext = os.path.splitext(urllib.parse.urlparse(f["url"]).path)[1]
    return ext if ext and len(ext) <= 9 else _EXTENSIONS.get(f.get("media_type", ""), "")
