// What the CLI prints of a server's text cannot drive the terminal (security review L5): control
// characters other than newline and tab, in an error on stderr or a result on stdout, come out as
// \uXXXX, and stdout stays the same JSON.
// Run `npm run build` first: the program tests need dist/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { terminalSafe } from "../../src/cli/output.js";
import { ExitCode } from "../../src/cli/output.js";
import { DEMO, runCli } from "./program.js";

const ESC = "\u001b";
/** What a hostile server sends: clear the screen, home the cursor, a C1 CSI, a carriage return, a bell, DEL. */
const HOSTILE = `${ESC}[2J${ESC}[H\u009b31m\rmcp-wire: all good\u0007\u007f`;
/** Every C0 but \n and \t, DEL, and C1: none may reach the terminal raw. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

test("terminalSafe: C0 (but newline and tab), DEL and C1 written out as \\uXXXX; the rest as it was", () => {
  assert.equal(terminalSafe(HOSTILE), "\\u001b[2J\\u001b[H\\u009b31m\\u000dmcp-wire: all good\\u0007\\u007f");
  assert.equal(terminalSafe("line one\n\tline two é ü 漢 \u00a0"), "line one\n\tline two é ü 漢 \u00a0");
  assert.equal(terminalSafe("\u0000\u001f\u0080\u009f"), "\\u0000\\u001f\\u0080\\u009f");
  // JSON stays the same JSON: JSON.stringify leaves DEL and C1 raw inside its strings.
  const json = JSON.stringify({ text: HOSTILE }, null, 2);
  assert.match(json, RAW_CONTROL);
  assert.deepEqual(JSON.parse(terminalSafe(json)), { text: HOSTILE });
});

test("cli program: a server's error with escape sequences reaches stderr escaped", async () => {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(403, { "content-type": "application/json" });
    response.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: HOSTILE } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
  try {
    for (const trace of [[], ["--trace"]]) {
      const result = await runCli([...trace, "--url", url, "--protocol-version", "2025-11-25", "ping"]);
      assert.equal(result.code, ExitCode.failed);
      assert.doesNotMatch(result.stderr, RAW_CONTROL, JSON.stringify(result.stderr));
      assert.match(result.stderr, /^mcp-wire: initialize failed: the server answered HTTP 403 Forbidden: \\u001b\[2J\\u001b\[H\\u009b31m\\u000dmcp-wire: all good\\u0007\\u007f$/m);
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("cli program: a tool result with control characters is printed as the same JSON, none of them raw", async () => {
  const result = await runCli(["call", "echo", `text=${HOSTILE}`, ...DEMO]);
  assert.equal(result.code, ExitCode.ok, result.stderr);
  assert.doesNotMatch(result.stdout, RAW_CONTROL, JSON.stringify(result.stdout));
  assert.ok(JSON.stringify(JSON.parse(result.stdout)).includes(JSON.stringify(HOSTILE).slice(1, -1)), "the text itself is unchanged");
});

test("cli program: a stdio server's stderr is passed on escaped", async () => {
  const result = await runCli(["ping", "--", process.execPath, "-e", `process.stderr.write(${JSON.stringify(HOSTILE)} + "\\n"); process.exit(1)`]);
  assert.equal(result.code, ExitCode.failed);
  assert.doesNotMatch(result.stderr, RAW_CONTROL, JSON.stringify(result.stderr));
  assert.match(result.stderr, /^\[server\] \\u001b\[2J/m);
});
