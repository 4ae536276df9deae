// A 2026-07-28 listen still open when the recording ended (replay-open-listens.ts): once the replay
// has ended the server's input, the listen's result or the server's notifications/cancelled for it,
// or nothing, is no difference; the same message before the input ended, for a listen the client
// cancelled or answered in the recording, an error, or a second end, still is.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseRecording } from "../../src/recordings/recording.js";
import { replay, type ReplayReport } from "../../src/recordings/replay.js";
import type { PeerExit, ReplayPeer } from "../../src/recordings/replay-peer.js";
import { openListens } from "../../src/recordings/replay-open-listens.js";

const LISTEN = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true } } });
const ACK = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": id } } });
const RESULT = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result: { _meta: { "io.modelcontextprotocol/subscriptionId": id }, resultType: "complete" } });
const CANCELLED = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } });
const PING = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" });
const PONG = JSON.stringify({ jsonrpc: "2.0", id: 9, result: {} });

/**
 * A server in process: `answers` maps a client line to the lines it writes back; `atEnd`, what it
 * writes once its input ends, before it closes.
 */
function scripted(answers: { [line: string]: string[] }, atEnd: string[]): ReplayPeer {
  let hear: (line: string) => void = () => {};
  let close: (exit: PeerExit) => void = () => {};
  const closed = new Promise<PeerExit>((resolve) => (close = resolve));
  const later = (lines: string[]) => setImmediate(() => lines.forEach((line) => hear(line)));
  return {
    write: (line) => later(answers[line] ?? []),
    end: () => setImmediate(() => {
      atEnd.forEach((line) => hear(line));
      close({ code: 0, signal: null });
    }),
    onLine: (listener) => void (hear = listener),
    closed,
    stop: () => close({ code: null, signal: "SIGTERM" }),
  };
}

const session = (lines: string[]) => parseRecording(`-- session --\n${lines.join("\n")}\n`);
const unexpected = (report: ReplayReport) => report.differences.filter((d) => d.expectedAt === undefined).map((d) => d.actual);

test("an open listen ended by its result, by notifications/cancelled, or not at all once the input ends: no difference", async () => {
  const recording = session([`> ${LISTEN("l1")}`, `< ${ACK("l1")}`, `> ${LISTEN(2)}`, `< ${ACK(2)}`]);
  const answers = { [LISTEN("l1")]: [ACK("l1")], [LISTEN(2)]: [ACK(2)] };
  for (const atEnd of [[RESULT("l1"), RESULT(2)], [CANCELLED("l1"), CANCELLED(2)], [RESULT(2)], []]) {
    const report = await replay(recording, scripted(answers, atEnd), { timeoutMs: 1000 });
    assert.deepEqual(report.differences, [], JSON.stringify(atEnd));
    assert.equal(report.failure, undefined);
    assert.deepEqual(report.transcript.slice(4).map((entry) => entry.text), atEnd, "what --update would write keeps it");
  }
});

test("what still differs: a second end, an error, an end for another id, or an end before the input ended", async () => {
  const recording = session([`> ${LISTEN("l1")}`, `< ${ACK("l1")}`]);
  const answers = { [LISTEN("l1")]: [ACK("l1")] };
  const error = JSON.stringify({ jsonrpc: "2.0", id: "l1", error: { code: -32603, message: "gone" } });
  for (const [atEnd, left] of [
    [[RESULT("l1"), CANCELLED("l1")], [CANCELLED("l1")]],
    [[error], [error]],
    [[RESULT("l2"), CANCELLED(1)], [RESULT("l2"), CANCELLED(1)]],
  ]) {
    assert.deepEqual(unexpected(await replay(recording, scripted(answers, atEnd), { timeoutMs: 1000 })), left);
  }
  // The listen answered while the session still ran, which the recording does not have.
  const early = session([`> ${LISTEN("l1")}`, `< ${ACK("l1")}`, `> ${PING}`, `< ${PONG}`]);
  const report = await replay(early, scripted({ [LISTEN("l1")]: [ACK("l1")], [PING]: [RESULT("l1"), PONG] }, []), { timeoutMs: 1000 });
  assert.deepEqual(unexpected(report), [RESULT("l1")]);
});

test("a listen the client cancelled, or the server answered, in the recording is not open: its result after the end differs", async () => {
  const cancel = JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "l1" } });
  const cancelled = session([`> ${LISTEN("l1")}`, `< ${ACK("l1")}`, `> ${cancel}`]);
  assert.deepEqual(unexpected(await replay(cancelled, scripted({ [LISTEN("l1")]: [ACK("l1")] }, [RESULT("l1")]), { timeoutMs: 1000 })), [RESULT("l1")]);
  const answered = session([`> ${LISTEN("l1")}`, `< ${ACK("l1")}`, `< ${RESULT("l1")}`]);
  assert.equal(openListens(answered.entries).size, 0);
  assert.deepEqual([...openListens(session([`> ${LISTEN("l1")}`, `> ${LISTEN(1)}`, `< ${RESULT(1)}`]).entries)], ['"l1"']);
  // A server's notifications/cancelled in the recording closes it too.
  assert.equal(openListens(session([`> ${LISTEN("l1")}`, `< ${CANCELLED("l1")}`]).entries).size, 0);
});
