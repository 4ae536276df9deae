// `mcp-wire record`'s command line (src/recordings/record-cli.ts): the first word that is not one of
// record's options starts the server's command, as with `env` and `npx`, so a launcher that drops
// the first "--" (the MCP Inspector's does) still runs the server; a leading "--" still works, an
// option's value is never taken for the command, and what follows the command is the server's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { UsageError } from "../../src/cli/arguments.js";
import { parseRecordArguments, type RecordMode } from "../../src/recordings/record-cli.js";

function stdio(argv: string[]): { command: string; args: string[]; out: string } {
  const mode: RecordMode | undefined = parseRecordArguments(argv);
  assert.ok(mode?.transport === "stdio", `stdio mode for ${JSON.stringify(argv)}`);
  return { command: mode.options.command, args: mode.options.args, out: mode.options.out };
}

test("record: the first word that is not an option starts the server's command (no \"--\")", () => {
  assert.deepEqual(stdio(["--out", "f.rec", "node", "server.js"]), { command: "node", args: ["server.js"], out: "f.rec" });
});

test('record: a leading "--" still starts the server\'s command', () => {
  assert.deepEqual(stdio(["--out", "f.rec", "--", "node", "server.js"]), { command: "node", args: ["server.js"], out: "f.rec" });
});

test("record: options after the server's command are the server's, even ones that are record's too", () => {
  assert.deepEqual(stdio(["--out", "f.rec", "node", "x.js", "--flag", "--out", "other", "--", "y"]), { command: "node", args: ["x.js", "--flag", "--out", "other", "--", "y"], out: "f.rec" });
});

test("record: an option's value is never taken for the server's command, in either form", () => {
  const mode = parseRecordArguments(["--max-line-bytes", "100", "--out=f.rec", "--grace-ms", "50", "--check", "python", "-u", "s.py"]);
  assert.ok(mode?.transport === "stdio");
  assert.deepEqual([mode.options.command, mode.options.args, mode.options.maxLineBytes, mode.options.graceMs, mode.check], ["python", ["-u", "s.py"], 100, 50, true]);
});

test('record: a server command that starts with "-" still needs "--"; without it, it is an unknown option', () => {
  assert.throws(() => parseRecordArguments(["--out", "f.rec", "-x", "node"]), (error) => error instanceof UsageError && /unknown option "-x"/.test(error.message));
  assert.deepEqual(stdio(["--out", "f.rec", "--", "-x", "node"]), { command: "-x", args: ["node"], out: "f.rec" });
});

test("record --listen --target is unchanged; a server command with it is a usage error, with or without \"--\"", () => {
  const mode = parseRecordArguments(["--out", "f.rec", "--listen", "3001", "--target", "http://127.0.0.1:3000/mcp"]);
  assert.ok(mode?.transport === "http");
  assert.deepEqual([mode.options.host, mode.options.port, mode.options.target.href], ["127.0.0.1", 3001, "http://127.0.0.1:3000/mcp"]);
  for (const extra of [["node", "x.js"], ["--", "node", "x.js"]]) {
    assert.throws(() => parseRecordArguments(["--out", "f.rec", "--listen", "3001", "--target", "http://127.0.0.1:3000/mcp", ...extra]), (error) => error instanceof UsageError && /not both/.test(error.message));
  }
});

test("record: no server command at all is still a usage error that shows both forms", () => {
  assert.throws(() => parseRecordArguments(["--out", "f.rec"]), (error) => error instanceof UsageError && /missing server/.test(error.message));
  assert.throws(() => parseRecordArguments(["--out", "f.rec", "--"]), (error) => error instanceof UsageError && /missing server/.test(error.message));
});

test("record: --help before the server's command is ours; after it, the server's", () => {
  assert.equal(parseRecordArguments(["--out", "f.rec", "--help", "node"]), undefined);
  assert.deepEqual(stdio(["--out", "f.rec", "node", "--help"]), { command: "node", args: ["--help"], out: "f.rec" });
});

test("record --listen: --max-kept-bytes bounds what all open exchanges keep; by default one body at --max-line-bytes and the largest decoder", () => {
  const http = (extra: string[]) => {
    const mode = parseRecordArguments(["--out", "f.rec", ...extra, "--listen", "3001", "--target", "http://127.0.0.1:3000/mcp"]);
    assert.ok(mode?.transport === "http");
    return [mode.options.maxLineBytes, mode.options.maxKeptBytes];
  };
  assert.deepEqual(http(["--max-line-bytes", "1000"]), [1000, 1000 + 16 * 1024 * 1024 + 64 * 1024]);
  assert.deepEqual(http(["--max-line-bytes", "1000", "--max-kept-bytes", "5000"]), [1000, 5000]);
  assert.throws(() => http(["--max-kept-bytes", "0"]), (error) => error instanceof UsageError && /--max-kept-bytes: expected a positive whole number/.test(error.message));
});
