// What `mcp-wire inspect` keeps and shows of a hostile server's messages: bounded, whatever comes.

import assert from "node:assert/strict";
import { test } from "node:test";
import { INSPECT_LIMITS, InspectSession, type PageEvent } from "../../src/cli/inspect-session.js";
import { parseRecording } from "../../src/recordings/recording.js";

const session = () => new InspectSession({ transport: "stdio", command: "server" }, () => "2025-11-25");

test("a message over the bound is shown cut, with its whole size", () => {
  const shown: PageEvent[] = [];
  const inspect = session();
  inspect.listen((event) => shown.push(event));
  const text = JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "é".repeat(INSPECT_LIMITS.shownBytes) } });
  inspect.record("s2c", text, JSON.parse(text));
  const [event] = shown;
  assert.equal(event.type, "message");
  assert.equal(event.truncated, true);
  assert.equal(event.size, Buffer.byteLength(text));
  assert.ok(Buffer.byteLength(String(event.text)) <= INSPECT_LIMITS.shownBytes);
  assert.equal(event.label, "notifications/message");
});

test("a flood keeps the latest messages only, and the recording says what it lost", () => {
  const inspect = session();
  const flood = INSPECT_LIMITS.keptMessages + 10;
  for (let i = 0; i < flood; i++) inspect.record("s2c", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${i}}}`, undefined);
  const recording = parseRecording(inspect.recordingText());
  assert.equal(recording.entries.length, INSPECT_LIMITS.keptMessages);
  assert.match(recording.entries[0].text, /"progress":10\}/);
  assert.match(recording.header.lines.join("\n"), /The first 10 messages of the session are not here/);
  // A page that connects late is sent the latest events only.
  let replayed = 0;
  inspect.listen(() => replayed++);
  assert.equal(replayed, INSPECT_LIMITS.replayedEvents);
});

test("a line that is not JSON is shown as such", () => {
  const shown: PageEvent[] = [];
  const inspect = session();
  inspect.listen((event) => shown.push(event));
  inspect.record("s2c", "<script>alert(1)</script>", undefined);
  assert.equal(shown[0].kind, "not-json");
  assert.equal(shown[0].text, "<script>alert(1)</script>");
});
