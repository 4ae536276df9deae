// mcp-wire replay --update of a golden transcript (the "-- client --" / "-- server --" form): the
// client's side and the header stay as they were, the server's side becomes what came, still in that
// form, and the next replay passes; and two recordings at once are a usage error (exit 2).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../cli/program.js";
import { scriptedServer } from "../helpers/scripted-stdio.js";

const INITIALIZE = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const CLIENT = [INITIALIZE, '{"jsonrpc":"2.0","method":"notifications/initialized"}', '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}'];
const server = (prefix: string) => [
  '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"scripted","version":"1"}}}',
  '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"echoing"}}',
  `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"${prefix}hi"}]}}`,
];
const HEADER = "# The scripted test server (test/helpers/scripted-stdio.ts): initialize, then echo.";

test("replay --update: a golden transcript keeps its header and client side; its server side becomes what came", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "mcp-wire-replay-")), "echo.transcript");
  writeFileSync(path, [HEADER, "-- client --", ...CLIENT, "-- server --", ...server("echo: "), ""].join("\n"));
  const upper = ["--", ...scriptedServer({ prefix: "ECHO: " })];
  assert.equal((await runCli(["replay", path, ...upper])).code, 1, "the server now says ECHO");
  const updated = await runCli(["replay", path, "--update", ...upper]);
  assert.equal(updated.code, 0, updated.stdout + updated.stderr);
  assert.equal(readFileSync(path, "utf8"), [HEADER, "-- client --", ...CLIENT, "-- server --", ...server("ECHO: "), ""].join("\n"));
  assert.equal((await runCli(["replay", path, ...upper])).code, 0);
});

test("replay: two recordings at once are a usage error naming both (exit 2)", async () => {
  const { code, stderr } = await runCli(["replay", "a.recording", "b.recording", "--", "node", "server.js"]);
  assert.equal(code, 2);
  assert.match(stderr, /one recording at a time \(found "a\.recording" and "b\.recording"\)/);
});
