// The running stack the stack tests call: TP_BASE_URL and TP_API_KEY (make test's
// TestOfficialClients starts `taskplatform dev` and sets them).
import assert from "node:assert/strict";

export const base = process.env.TP_BASE_URL;
export const key = process.env.TP_API_KEY;
assert.ok(base && key, "the stack tests need a running stack: set TP_BASE_URL and TP_API_KEY");

/** GET path of the stack with the key, as JSON. */
export async function getJSON(path) {
  const res = await fetch(base + path, { headers: { Authorization: `Key ${key}` } });
  assert.equal(res.status, 200, `GET ${path}`);
  return res.json();
}

/** Every task of the catalogue. */
export async function catalogue() {
  const out = [];
  let cursor = "";
  for (;;) {
    const page = await getJSON(`/v1/tasks?limit=100${cursor ? "&cursor=" + encodeURIComponent(cursor) : ""}`);
    out.push(...page.items);
    if (!page.has_more) return out;
    cursor = page.next_cursor;
  }
}
