// The spec's retry rules, against a fake fetch that records each try.
import { test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:net";
import {
  Client,
  ConflictError,
  CreditsError,
  InternalError,
  InvalidRequestError,
  RateLimitError,
  UnreachableError,
  isCode,
} from "../dist/index.js";

const errorBody = (code, type, retryable, extra = {}) =>
  JSON.stringify({ error: { code, type, message: code, retryable, ...extra } });

/** A client whose fetch answers from answers in turn and records each request. */
function scripted(answers) {
  const tries = [];
  const fetch = async (url, init) => {
    tries.push({ url, init });
    const next = answers.shift();
    if (next instanceof Error) throw next;
    return next;
  };
  const client = new Client({ baseURL: "http://svc.test", apiKey: "tpk_test", backoffMs: 1, maxBackoffMs: 5, fetch });
  return { client, tries };
}

const job = (id) => JSON.stringify({ job_id: id, lifecycle: "queued", outcome: null });

test("an error object is obeyed: not retried when it says not retryable, even a 503", async () => {
  const { client, tries } = scripted([new Response(errorBody("maintenance", "internal", false), { status: 503 })]);
  await assert.rejects(client.job("job_1"), (e) => e instanceof InternalError && e.code === "maintenance");
  assert.equal(tries.length, 1);
});

test("an error object that says retryable is retried, and the POST keeps its Idempotency-Key", async () => {
  const { client, tries } = scripted([
    new Response(errorBody("capacity_busy", "internal", true), { status: 500 }),
    new Response(null, { status: 502 }),
    new Response(job("job_2"), { status: 202 }),
  ]);
  const sub = await client.submit("pattern.generate", { kind: "stripes" });
  assert.equal(sub.jobId, "job_2");
  assert.equal(tries.length, 3);
  const keys = tries.map((t) => t.init.headers["Idempotency-Key"]);
  assert.match(keys[0], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual(keys, [keys[0], keys[0], keys[0]]);
  assert.equal(sub.idempotencyKey, keys[0]);
});

test("429 and 5xx without an error object (a proxy's) are retried, a 4xx is not", async () => {
  for (const status of [429, 500, 502, 503, 504]) {
    const { client, tries } = scripted([new Response("busy", { status }), new Response(job("j"), { status: 200 })]);
    await client.job("j");
    assert.equal(tries.length, 2, `status ${status}`);
  }
  const { client, tries } = scripted([new Response("gone", { status: 404 })]);
  await assert.rejects(client.job("j"), (e) => isCode(e, "http_404"));
  assert.equal(tries.length, 1);
});

test("Retry-After is honoured", async () => {
  const { client } = scripted([
    new Response(errorBody("rate_limited", "rate_limited", true), { status: 429, headers: { "Retry-After": "1" } }),
    new Response(job("j"), { status: 200 }),
  ]);
  const start = Date.now();
  await client.job("j");
  assert.ok(Date.now() - start >= 950, "waited the second Retry-After asked for");
});

test("the last try's error is thrown typed, with its retry-after", async () => {
  const busy = () =>
    new Response(errorBody("rate_limited", "rate_limited", true), { status: 429, headers: { "Retry-After": "0" } });
  const { client, tries } = scripted([busy(), busy(), busy(), busy(), busy(), busy()]);
  await assert.rejects(client.job("j"), (e) => e instanceof RateLimitError && e.status === 429 && e.retryAfter === 0);
  assert.equal(tries.length, 6);
});

test("errors are typed by type and carry code, field and amounts", async () => {
  const { client } = scripted([
    new Response(errorBody("invalid_input", "invalid_request", false, { field: "count" }), { status: 422 }),
    new Response(errorBody("insufficient_credits", "credits", false, { required: 8, balance: 2 }), { status: 402 }),
    new Response(errorBody("result_not_ready", "conflict", false), { status: 409 }),
  ]);
  await assert.rejects(client.submit("t", {}), (e) => e instanceof InvalidRequestError && e.field === "count");
  await assert.rejects(client.submit("t", {}), (e) => e instanceof CreditsError && e.required === 8 && e.balance === 2);
  await assert.rejects(client.result("j"), (e) => e instanceof ConflictError && isCode(e, "result_not_ready"));
});

test("network errors are retried; a refused connection fails at once, naming the address", async () => {
  const reset = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } });
  const { client, tries } = scripted([reset, new Response(job("j"), { status: 200 })]);
  await client.job("j");
  assert.equal(tries.length, 2);
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const closed = `http://127.0.0.1:${server.address().port}`;
  server.close();
  await once(server, "close");
  const refusedClient = new Client({ baseURL: closed, apiKey: "tpk_test", backoffMs: 1 });
  await assert.rejects(refusedClient.job("j"), (e) => e instanceof UnreachableError && e.url.startsWith(closed));
});

test("the backoff doubles with jitter and stops at the cap", () => {
  const c = new Client({ baseURL: "http://svc.test", apiKey: "k", backoffMs: 500 });
  for (let i = 0; i < 50; i++) {
    const first = c.backoff(0);
    assert.ok(first >= 250 && first <= 500);
    const late = c.backoff(30);
    assert.ok(late >= 30_000 && late <= 60_000);
  }
});
