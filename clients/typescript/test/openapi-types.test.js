// openapi-typescript with its default options, on the served document: every
// task's documented examples type-check as its request body under tsc --strict,
// and a wrong kind does not.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, writeFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { base, catalogue, getJSON } from "./stack.js";

const run = promisify(execFile);
const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

test("openapi-typescript's default types accept every task's examples as requests", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "tp-openapi-ts-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, "openapi.json"), JSON.stringify(await getJSON("/v1/openapi.json")));
  await run(bin("openapi-typescript"), [join(dir, "openapi.json"), "-o", join(dir, "api.d.ts")]);

  const tasks = await catalogue();
  const lines = [
    `import type { paths } from "./api.js";`,
    `type Body<P extends keyof paths> = paths[P] extends { post: { requestBody?: { content: { "application/json": infer B } } } } ? B : never;`,
  ];
  let checked = 0;
  for (const task of tasks) {
    const path = `/v1/tasks/${task.name}`;
    const examples = await getJSON(`/v1/tasks/${task.name}/examples`);
    for (const ex of examples.items) {
      lines.push(`export const e${checked++}: Body<${JSON.stringify(path)}> = ${JSON.stringify(ex.request.body)};`);
      lines.push(`export const s${checked}: Body<${JSON.stringify(path + "/estimate")}> = ${JSON.stringify(ex.request.body)};`);
    }
  }
  // The README's request, which leaves every defaulted field out, and a refused one.
  lines.push(`export const readme: Body<"/v1/tasks/pattern.generate"> = { kind: "chevron", colors: ["#203040", "#E0D0C0"] };`);
  lines.push(`// @ts-expect-error kind takes only the listed kinds`);
  lines.push(`export const wrong: Body<"/v1/tasks/pattern.generate"> = { kind: "not_a_kind" };`);
  await writeFile(join(dir, "check.ts"), lines.join("\n") + "\n");
  assert.ok(checked >= tasks.length, `every task has an example (${checked} for ${tasks.length} tasks)`);
  try {
    await run(bin("tsc"), ["--strict", "--noEmit", "--target", "es2022", "--module", "nodenext",
      "--moduleResolution", "nodenext", join(dir, "check.ts")], { maxBuffer: 64 << 20 });
  } catch (err) {
    assert.fail(`tsc --strict refused requests typed from ${base}/v1/openapi.json:\n${String(err.stdout).slice(0, 4000)}`);
  }
});
