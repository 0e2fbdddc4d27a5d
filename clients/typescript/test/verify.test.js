// Offline checks of webhook and manifest verification against
// clients/testdata/signed.json, which the Go signer writes with fixed keys.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { Verifier, VerificationError } from "../dist/index.js";

const fixture = JSON.parse(await readFile(new URL("../../testdata/signed.json", import.meta.url), "utf8"));
const signedAt = Number(fixture.headers["X-Service-Timestamp"]) * 1000;

function verifier(options = {}) {
  return new Verifier({
    baseURL: "http://offline.invalid",
    jwks: fixture.jwks,
    windowSeconds: fixture.window_seconds,
    now: () => signedAt + 30_000,
    ...options,
  });
}

async function refused(promise, reason) {
  await assert.rejects(promise, (err) => err instanceof VerificationError && err.reason === reason);
}

test("a delivery signed by the service verifies, and its event is read", async () => {
  const d = await verifier().verify(fixture.headers, fixture.body);
  assert.equal(d.id, "whd_fixture");
  assert.equal(d.userId, "42");
  assert.equal(d.event.event, "job.succeeded");
  assert.equal(d.event.job_id, "job_fixture");
});

test("the headers are read from a Headers, a lower-case object and a Uint8Array body alike", async () => {
  const lower = Object.fromEntries(Object.entries(fixture.headers).map(([k, v]) => [k.toLowerCase(), v]));
  await verifier().verify(new Headers(fixture.headers), new TextEncoder().encode(fixture.body));
  await verifier().verify(lower, fixture.body);
});

test("a changed body, user id or timestamp does not verify", async () => {
  await refused(verifier().verify(fixture.headers, fixture.body.replace("succeeded", "failed")), "bad_signature");
  await refused(verifier().verify({ ...fixture.headers, "X-Service-User-Id": "43" }, fixture.body), "bad_signature");
  const ts = String(Number(fixture.headers["X-Service-Timestamp"]) + 1);
  await refused(verifier().verify({ ...fixture.headers, "X-Service-Timestamp": ts }, fixture.body), "bad_signature");
});

test("a key the service does not publish does not verify", async () => {
  await refused(verifier({ jwks: fixture.other_jwks }).verify(fixture.headers, fixture.body), "bad_signature");
});

test("a delivery outside the clock window is stale, inside it is accepted", async () => {
  const w = fixture.window_seconds * 1000;
  await refused(verifier({ now: () => signedAt + w + 1000 }).verify(fixture.headers, fixture.body), "stale");
  await refused(verifier({ now: () => signedAt - w - 1000 }).verify(fixture.headers, fixture.body), "stale");
  await verifier({ now: () => signedAt - w + 1000 }).verify(fixture.headers, fixture.body);
});

test("a delivery without its headers is refused", async () => {
  const { ["X-Service-Signature"]: _, ...rest } = fixture.headers;
  await refused(verifier().verify(rest, fixture.body), "missing_headers");
});

test("a manifest verifies in its JSON and compact forms and answers what it signs", async () => {
  assert.deepEqual(await verifier().verifyManifest(fixture.manifest), fixture.manifest_payload);
  assert.deepEqual(await verifier().verifyManifest(fixture.manifest_compact), fixture.manifest_payload);
});

test("a changed manifest, or one under another key, does not verify", async () => {
  const payload = JSON.parse(Buffer.from(fixture.manifest.payload, "base64url").toString());
  payload.credits.charged = 0;
  const altered = { ...fixture.manifest, payload: Buffer.from(JSON.stringify(payload)).toString("base64url") };
  await refused(verifier().verifyManifest(altered), "bad_signature");
  await refused(verifier({ jwks: fixture.other_jwks }).verifyManifest(fixture.manifest), "bad_signature");
  await refused(verifier().verifyManifest("a.b"), "malformed");
});

test("keys are fetched from the JWKS and refetched once when a key is unknown", async () => {
  const served = [fixture.other_jwks, fixture.jwks];
  const asked = [];
  const fake = async (url) => {
    asked.push(new URL(url).pathname);
    return new Response(JSON.stringify(served.shift() ?? fixture.other_jwks), { status: 200 });
  };
  const v = verifier({ jwks: undefined, fetch: fake });
  await refused(v.verify(fixture.headers, fixture.body), "bad_signature");
  assert.deepEqual(asked, ["/.well-known/jwks.json"], "keys fetched by this call are not fetched again");
  await v.verify(fixture.headers, fixture.body);
  assert.deepEqual(asked, ["/.well-known/jwks.json", "/.well-known/jwks.json"], "cached keys that fail: refetched once");
  await v.verify(fixture.headers, fixture.body);
  assert.equal(asked.length, 2, "the keys that verified are cached");
});
