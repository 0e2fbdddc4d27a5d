// The client against a real stack (TP_BASE_URL, TP_API_KEY).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  AuthenticationError,
  Client,
  InvalidRequestError,
  NotFoundError,
  Verifier,
  isCode,
} from "../dist/index.js";
import { base, key } from "./stack.js";

const client = new Client({ baseURL: base, apiKey: key });
const input = { kind: "stripes", colors: ["#1D3557", "#F1FAEE"], resolution: "512" };
const PNG = [0x89, 0x50, 0x4e, 0x47];

test("run submits, waits and downloads every file", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "tp-run-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const { result, paths } = await client.run("pattern.generate", input, { downloadDir: dir });
  assert.ok(result.files.length >= 1);
  assert.equal(paths.length, result.files.length);
  for (const [i, p] of paths.entries()) {
    const bytes = await readFile(p);
    assert.equal(bytes.length, result.files[i].bytes, p);
    if (result.files[i].media_type === "image/png") assert.deepEqual([...bytes.subarray(0, 4)], PNG);
  }
});

test("submit, wait, result and the paging iterators", async () => {
  const a = await client.submit("pattern.generate", input);
  const b = await client.submit("pattern.generate", { ...input, kind: "dots" });
  assert.match(a.idempotencyKey, /^[0-9a-f-]{36}$/);
  const job = await client.wait(b.jobId);
  assert.equal(job.outcome, "succeeded");
  await client.wait(a.jobId);
  const result = await client.result(b.jobId);
  const files = [];
  for await (const f of client.files(b.jobId, { pageSize: 1 })) files.push(f);
  assert.deepEqual(files.map((f) => f.url), result.files.map((f) => f.url));
  const ids = [];
  for await (const j of client.jobs({ pageSize: 1 })) {
    ids.push(j.job_id);
    if (ids.length === 2) break;
  }
  assert.deepEqual(ids, [b.jobId, a.jobId], "newest first, across pages of one");
});

test("a resubmit with the same idempotency key lands on the same job", async () => {
  const first = await client.submit("pattern.generate", input);
  const again = await client.submit("pattern.generate", input, { idempotencyKey: first.idempotencyKey });
  assert.equal(again.jobId, first.jobId);
});

test("a lost answer is retried with the same key: one job, not two", async () => {
  let tries = 0;
  const keys = [];
  const lossy = async (url, init) => {
    const res = await fetch(url, init);
    if (init?.method === "POST") {
      keys.push(init.headers["Idempotency-Key"]);
      if (tries++ === 0) return new Response("upstream timeout", { status: 504 }); // the proxy lost it
    }
    return res;
  };
  const c = new Client({ baseURL: base, apiKey: key, backoffMs: 10, fetch: lossy });
  const before = (await client.jobsPage(1)).items[0]?.job_id;
  const sub = await c.submit("pattern.generate", input);
  assert.equal(keys.length, 2);
  assert.equal(keys[0], keys[1]);
  const newest = (await client.jobsPage(2)).items;
  assert.equal(newest[0].job_id, sub.jobId);
  assert.equal(newest[1].job_id, before, "the retry made no second job");
});

test("errors are typed and carry their code", async () => {
  await assert.rejects(client.submit("pattern.generate", { kind: "stripes", count: 99 }), (e) =>
    e instanceof InvalidRequestError && e.status >= 400 && e.status < 500 && e.field !== null && e.requestId !== null);
  await assert.rejects(client.job("job_does_not_exist"), (e) => e instanceof NotFoundError && isCode(e, e.code));
  const bad = new Client({ baseURL: base, apiKey: "tpk_not_a_key" });
  await assert.rejects(bad.job("job_x"), (e) => e instanceof AuthenticationError && e.code === "invalid_api_key");
});

test("a job's manifest verifies against the published keys", async () => {
  const { result } = await client.run("pattern.generate", input);
  const verifier = new Verifier({ baseURL: base });
  const manifest = await verifier.verifyManifest(await client.manifest(result.job_id));
  assert.equal(manifest.job_id, result.job_id);
  assert.equal(manifest.outcome, "succeeded");
  assert.equal(manifest.outputs.length, result.files.length);
  assert.equal(manifest.outputs[0].sha256, result.files[0].sha256);
});

test("a signed delivery of the listen stream verifies as a webhook, with the window of /v1/meta", async () => {
  const verifier = new Verifier({ baseURL: base });
  const stop = new AbortController();
  const stream = client.listen(stop.signal);
  const first = stream.next(); // opens the stream
  try {
    await new Promise((r) => setTimeout(r, 500));
    const sub = await client.submit("pattern.generate", input);
    let next = first;
    for (;;) {
      const { value: d, done } = await next;
      assert.ok(!done, "the stream ended before the job's terminal event");
      const delivery = await verifier.verify(d.headers, d.body);
      assert.equal(delivery.id, d.headers["X-Service-Request-Id"] ?? d.headers["x-service-request-id"]);
      if (delivery.event.job_id === sub.jobId && delivery.event.event === "job.succeeded") break;
      next = stream.next();
    }
  } finally {
    stop.abort();
    await stream.return(undefined).catch(() => undefined);
  }
});

test("the examples compile and run: the first job and its manifest", async (t) => {
  const run = promisify(execFile);
  const dir = await mkdtemp(join(tmpdir(), "tp-example-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const examples = new URL("../dist-examples/", import.meta.url).pathname;
  const env = { ...process.env, TP_BASE_URL: base, TP_API_KEY: key };
  const first = await run("node", [join(examples, "first-job.js")], { cwd: dir, env });
  const m = /^job (\S+): (\d+) file\(s\) saved as (\S+)/m.exec(first.stdout);
  assert.ok(m, first.stdout);
  assert.deepEqual([...(await readFile(join(dir, m[3].replace(/,$/, "")))).subarray(0, 4)], PNG);
  const manifest = await run("node", [join(examples, "manifest.js"), m[1]], { cwd: dir, env });
  assert.match(manifest.stdout, new RegExp(`^${m[1]} succeeded: ${m[2]} output\\(s\\)`));
});
