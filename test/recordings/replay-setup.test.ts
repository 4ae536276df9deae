// setUpReplay (src/recordings/replay-setup.ts), what `mcp-wire replay` and mcp-wire/testing read from
// a recording before starting anything: the command (the recording's own, split as record quoted it (a JSON string),
// "# args:" after a given one), the edition it must hold for and the pointers that edition differs
// in, and the header errors a user gets instead of a server that does not start.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ReplaySetupError, setUpReplay } from "../../src/recordings/replay-setup.js";

const PING = ['> {"jsonrpc":"2.0","id":1,"method":"ping"}', '< {"jsonrpc":"2.0","id":1,"result":{}}'];
const file = (...header: string[]) => [...header, "-- session --", ...PING, ""].join("\n");

test("the recording's command, split as record quoted it (a JSON string), with its args after; a given command gets the args too", () => {
  const text = file('# command: node "my server.js" --flag', "# args: --verbose");
  assert.deepEqual(setUpReplay(text, "/r/a.recording").command, ["node", "my server.js", "--flag", "--verbose"]);
  assert.equal(setUpReplay(text, "/r/a.recording").commandFromRecording, true);
  const given = setUpReplay(text, "/r/a.recording", { command: ["python", "s.py"] });
  assert.deepEqual(given.command, ["python", "s.py", "--verbose"]);
  assert.equal(given.commandFromRecording, false);
  assert.deepEqual(setUpReplay(file("# command: node s.js"), "/r/a.recording", { noCommand: true }).command, []);
});

test("a \"# command:\" header that cannot be split, or holds no word, is a setup error naming the file", () => {
  assert.throws(() => setUpReplay(file('# command: node "unclosed.js'), "/r/a.recording"), (error: unknown) =>
    error instanceof ReplaySetupError && /^\/r\/a\.recording: its "# command:" header: /.test(error.message));
  assert.throws(() => setUpReplay(file("# command:    "), "/r/b.recording"), (error: unknown) =>
    error instanceof ReplaySetupError && error.message === '/r/b.recording: its "# command:" header is empty');
  assert.throws(() => setUpReplay(file("# url: http://127.0.0.1:9/mcp"), "/r/c.recording"), /--url URL \(it was recorded at http:\/\/127\.0\.0\.1:9\/mcp\)/);
});

test("--edition: one the recording does not hold for is refused; one it does adds its differs-in pointers", () => {
  const text = file("# command: node s.js", "# editions: textbook production", "# differs in textbook: /result/serverInfo /result/instructions (its own)");
  assert.throws(() => setUpReplay(text, "/r/a.recording", { edition: "nightly" }), (error: unknown) =>
    error instanceof ReplaySetupError && error.message === '/r/a.recording holds for the editions textbook, production, not nightly (its "# editions:" line)');
  assert.deepEqual(setUpReplay(text, "/r/a.recording", { edition: "textbook" }).ignore, ["/result/serverInfo", "/result/instructions"]);
  assert.deepEqual(setUpReplay(text, "/r/a.recording", { edition: "production" }).ignore, []);
  assert.deepEqual(setUpReplay(file("# command: node s.js"), "/r/a.recording", { edition: "any" }).ignore, [], "no # editions: line, any edition");
});
