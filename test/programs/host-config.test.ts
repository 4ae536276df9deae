// README's host configuration (scripts/host-config.ts reads it): each host's format is checked as
// that host documents it, the `claude mcp add` lines start what they name (the JSON entries are
// started by doc-examples.test.ts), and every host has an entry for the demo, the textbook, a
// user's own server, the installed bin and an HTTP URL, but where README says why not.

import { test } from "node:test";
import assert from "node:assert/strict";
import { claudeCodeEntry, entriesOf, readmeHostBlocks, type Host, type HostEntry } from "../../scripts/host-config.js";
import { answersInitialize } from "../helpers/host-servers.js";

const blocks = readmeHostBlocks();

/** What an entry is, of the five kinds README promises. */
function kindOf(entry: HostEntry): string {
  if (entry.transport === "http") return "http";
  if (entry.command === "mcp-wire-server") return "bin";
  const script = entry.args.find((arg) => arg.endsWith(".js")) ?? "";
  if (script.endsWith("/dist/server.js")) return "demo";
  if (script.endsWith("/dist/textbook/demo.js")) return "textbook";
  return "own";
}

test("host config: every host has an entry of each kind, but those README explains", () => {
  const missing: Record<Host, string[]> = { "claude-desktop": ["http"], "claude-code": [], vscode: [], cursor: [], gemini: ["textbook"] };
  for (const host of Object.keys(missing) as Host[]) {
    const kinds = new Set(blocks.flatMap((block) => block.entries).filter((entry) => entry.host === host).map(kindOf));
    const expected = ["demo", "textbook", "own", "bin", "http"].filter((kind) => !missing[host].includes(kind));
    assert.deepEqual([...kinds].sort(), expected.sort(), host);
  }
});

test("host config: each host's own format, and what it refuses", () => {
  const stdio = { command: "node", args: ["server.js"] };
  assert.throws(() => entriesOf(["vscode"], { servers: { a: stdio } }), /VS Code needs "type": "stdio" or "http"/);
  assert.throws(() => entriesOf(["vscode"], { mcpServers: { a: { type: "stdio", ...stdio } } }), /vscode wants one key, "servers"/);
  assert.throws(() => entriesOf(["claude-desktop"], { mcpServers: { a: { url: "http://127.0.0.1:3000/mcp" } } }), /stdio servers only/);
  assert.throws(() => entriesOf(["gemini"], { mcpServers: { a: { url: "http://127.0.0.1:3000/mcp" } } }), /"httpUrl"/);
  assert.throws(() => entriesOf(["claude-code"], { mcpServers: { a: { url: "http://127.0.0.1:3000/mcp" } } }), /needs "type": "http"/);
  assert.throws(() => entriesOf(["cursor"], { mcpServers: { a: { ...stdio, arguments: [] } } }), /unexpected field "arguments"/);
  assert.deepEqual(entriesOf(["cursor"], { mcpServers: { a: { url: "http://127.0.0.1:3000/mcp" } } }), [{ host: "cursor", name: "a", transport: "http", url: "http://127.0.0.1:3000/mcp" }]);
  assert.deepEqual(claudeCodeEntry("claude mcp add --scope user a -- node server.js --flag"), { host: "claude-code", name: "a", transport: "stdio", command: "node", args: ["server.js", "--flag"] });
  assert.deepEqual(claudeCodeEntry("claude mcp add --transport http a http://127.0.0.1:3000/mcp"), { host: "claude-code", name: "a", transport: "http", url: "http://127.0.0.1:3000/mcp" });
  assert.throws(() => claudeCodeEntry("claude mcp add a node server.js"), /wants NAME -- COMMAND ARGS/);
});

for (const block of blocks.filter((b) => b.hosts.includes("claude-code") && b.entries.every((entry) => entry.host === "claude-code"))) {
  for (const entry of block.entries) {
    test(`${block.where}: claude mcp add ${entry.name} starts a server that answers initialize`, { timeout: 20_000 }, () => answersInitialize(entry));
  }
}
