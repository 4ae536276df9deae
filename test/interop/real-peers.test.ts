// Opt-in: the checks of scripts/interop.ts, the official SDK client and the Inspector CLI driving
// `node dist/server.js`, and the textbook edition, `node dist/textbook/demo.js`. They install pinned peers from the npm registry into a temp dir, so they
// run only with MCP_WIRE_INTEROP=1 (after `npm run build`); otherwise the test is skipped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runInterop } from "../../scripts/interop.js";

const EXPECTED = [
  "sdk: initialize",
  "sdk: tools/list",
  'sdk: tools/call echo {text:"hi"}',
  "sdk: tools/call add {a:3,b:4}",
  'sdk: tools/call add {a:"two",b:2} is an isError result',
  "sdk: tools/call no_such_tool is -32602",
  "sdk: tools/call get_time {}",
  "sdk: resources/list",
  "sdk: resources/read docs://demo/protocol-notes",
  "sdk: prompts/list",
  'sdk: prompts/get explain_topic {topic:"lifecycle"}',
  'sdk: prompts/get review_message {message:"{}"}',
  "sdk: ping",
  "sdk: server exits within 2 s of its stdin closing",
  "sdk: no errors reported by the client",
  "inspector-cli: tools/list",
  "inspector-cli: tools/call add",
  "inspector-cli: resources/read",
  "inspector-cli: prompts/get explain_topic topic=tools",
  "inspector-cli: prompts/get review_message message={}",
];
/** What the textbook edition leaves out: explain_topic (the notes by section are production only). */
const PRODUCTION_ONLY = ['sdk: prompts/get explain_topic {topic:"lifecycle"}', "inspector-cli: prompts/get explain_topic topic=tools"];

const EDITIONS = [["node dist/server.js", undefined], ["node dist/textbook/demo.js", fileURLToPath(new URL("../../dist/textbook/demo.js", import.meta.url))]] as const;

for (const [edition, server] of EDITIONS) {
test(`interop: the official SDK client and the Inspector CLI work with ${edition}`, { timeout: 600_000 }, async (t) => {
  if (process.env.MCP_WIRE_INTEROP !== "1") {
    t.skip("set MCP_WIRE_INTEROP=1 to run against the official SDK client and Inspector CLI (needs the npm registry)");
    return;
  }
  const checks = await runInterop({ server });
  for (const check of checks) {
    await t.test(check.name, () => assert.ok(check.ok, check.detail));
  }
  // A check that never ran (because an earlier step stopped the run) counts as a failure too.
  assert.deepEqual(
    EXPECTED.filter((name) => server === undefined || !PRODUCTION_ONLY.includes(name))
      .filter((name) => !checks.some((c) => c.name === name && c.ok)),
    [],
    "checks that did not pass",
  );
});
}
