// Opt-in: the checks of scripts/interop-client.ts, our McpClient driving the official reference
// server @modelcontextprotocol/server-everything over stdio (directly with node, then through
// `npx -y`). They install the pinned server from the npm registry into a temp dir, so they run
// only with MCP_WIRE_INTEROP=1; otherwise the test is skipped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { EVERYTHING_VERSION, runClientInterop } from "../../scripts/interop-client.js";

const EXPECTED = [
  `install @modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`,
  "initialize, declaring roots, sampling and elicitation",
  "roots/list from the server, answered by our handler",
  "tools/list, every page, after list_changed",
  "tools/call echo",
  "tools/call get-sum",
  "tools/call get-structured-content, checked against outputSchema",
  "tools/call get-resource-links",
  "sampling/createMessage via trigger-sampling-request",
  "elicitation/create form mode via trigger-elicitation-request",
  "elicitation/create url mode via trigger-url-elicitation",
  "roots via get-roots-list, then rootsChanged()",
  "progress via trigger-long-running-operation",
  "resources/list page by page",
  "resources/read a static resource",
  "resources/read a templated resource",
  "resources/subscribe and unsubscribe",
  "prompts/list and prompts/get args-prompt",
  "completion/complete a prompt argument",
  "completion/complete a resource template variable",
  "logging/setLevel debug, then a log event",
  "ping",
  "no local problems reported by the client",
  "close leaves no process behind",
  "npx -y: initialize and echo",
  "npx -y: close leaves no process behind",
];

test("interop: our client works with @modelcontextprotocol/server-everything", { timeout: 600_000 }, async (t) => {
  if (process.env.MCP_WIRE_INTEROP !== "1") {
    t.skip("set MCP_WIRE_INTEROP=1 to run against @modelcontextprotocol/server-everything (needs the npm registry)");
    return;
  }
  const checks = await runClientInterop();
  for (const check of checks) {
    await t.test(check.name, () => assert.ok(check.ok, check.detail));
  }
  // A check that never ran (because an earlier step stopped the run) counts as a failure too.
  assert.deepEqual(
    EXPECTED.filter((name) => !checks.some((c) => c.name === name && c.ok)),
    [],
    "checks that did not pass",
  );
});
