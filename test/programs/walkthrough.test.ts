// `npm start`: the walkthrough plays a whole session against the real demo server and explains
// every message. This checks that it does, in order, and that each wire message gets its note.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const WALKTHROUGH = fileURLToPath(new URL("../../dist/walkthrough.js", import.meta.url));

test("walkthrough: plays every step against dist/server.js and explains each message", () => {
  const run = spawnSync(process.execPath, [WALKTHROUGH], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  const out = run.stdout;
  const steps = [...out.matchAll(/^(\d+)\. (.+)$/gm)].map((m) => m[2]);
  assert.deepEqual(steps, [
    "The handshake", "Tools", "Progress", "Cancellation", "Log level", "Resources", "Prompts and completion",
    "Elicitation: the server asks the user", "Sampling: the server asks the client's model", "A list change", "Utilities", "Shutdown",
  ]);
  const lines = out.split("\n");
  const wire = lines.flatMap((line, i) => (/^[→←] /.test(line) ? [i] : []));
  assert.ok(wire.length >= 30, `only ${wire.length} wire messages shown`);
  for (const i of wire) assert.match(lines[i + 1]!, /^ {3}\S/, `no note after: ${lines[i]!.slice(0, 80)}`);
  for (const method of ["initialize", "notifications/initialized", "tools/list", "tools/call", "notifications/progress", "resources/read", "resources/templates/list", "prompts/get", "completion/complete", "ping", "notifications/message"]) {
    assert.ok(out.includes(`"method":"${method}"`), `${method} was not played`);
  }
  assert.match(out, /code -32601 is Method not found/);
  assert.match(out, /code -32002 is Resource not found/);
  assert.match(out, /The server \(pid \d+\) has exited/);
});

/**
 * The wire messages shown, in order, with the note printed under each. Long lines are cut on
 * screen, so those are read from their start: id and method come first in every message we print.
 */
function wireOf(out: string): { direction: "sent" | "received"; message: Record<string, any>; note: string }[] {
  const lines = out.split("\n");
  return lines.flatMap((line, i) => {
    const shown = /^([→←]) [^{]*(\{.*)$/.exec(line);
    if (!shown) return [];
    let message: Record<string, any>;
    try {
      message = JSON.parse(shown[2]!);
    } catch {
      const id = /^\{"jsonrpc":"2\.0","id":(\d+)/.exec(shown[2]!)?.[1];
      const method = /^\{"jsonrpc":"2\.0",(?:"id":\d+,)?"method":"([^"]+)"/.exec(shown[2]!)?.[1];
      message = { ...(id === undefined ? {} : { id: Number(id) }), ...(method === undefined ? { result: "<cut>" } : { method }), cut: true };
    }
    return [{ direction: shown[1] === "→" ? "sent" as const : "received" as const, message, note: lines[i + 1]! }];
  });
}

test("walkthrough: shows the two-way protocol, each message with its own note", () => {
  const run = spawnSync(process.execPath, [WALKTHROUGH], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  const wire = wireOf(run.stdout);
  const at = (predicate: (m: Record<string, any>) => boolean, from = 0) => {
    const found = wire.findIndex((entry, i) => i >= from && predicate(entry.message));
    assert.ok(found >= 0, "an expected message was not shown");
    return found;
  };

  // The client declared what its canned handlers answer.
  const initialize = wire[at((m) => m.method === "initialize")]!.message;
  assert.ok(initialize.params.capabilities.elicitation && initialize.params.capabilities.sampling, JSON.stringify(initialize.params.capabilities));
  assert.match(run.stdout, /^ {3}\[client\] .*answers name "Ada"/m, "the canned elicitation handler says what it answers");
  assert.match(run.stdout, /^ {3}\[client\] the model is asked/m, "the canned sampling handler says what it was asked");

  // Cancellation: after the first progress report, notifications/cancelled for that id, and never an answer to it.
  const cancelled = at((m) => m.method === "notifications/cancelled");
  const requestId = wire[cancelled]!.message.params.requestId;
  const call = at((m) => m.method === "tools/call" && m.id === requestId);
  assert.equal(wire[call]!.message.params.name, "countdown");
  assert.ok(at((m) => m.method === "notifications/progress", call) < cancelled, "cancelled after a progress report");
  assert.equal(wire.filter((e) => e.direction === "received" && !("method" in e.message) && e.message.id === requestId).length, 0, "the cancelled call got an answer");
  assert.equal(wire[cancelled]!.direction, "sent");

  // logging/setLevel to debug, then a debug log on the wire.
  const setLevel = at((m) => m.method === "logging/setLevel");
  assert.equal(wire[setLevel]!.message.params.level, "debug");
  at((m) => m.method === "notifications/message" && m.params.level === "debug", setLevel);

  // Elicitation: greet's call, the server's request, the client's answer, then the greeting.
  const greet = at((m) => m.method === "tools/call" && m.params.name === "greet");
  const elicit = at((m) => m.method === "elicitation/create", greet);
  const elicitId = wire[elicit]!.message.id;
  const accepted = at((m) => !("method" in m) && m.id === elicitId && m.result?.action === "accept", elicit);
  assert.equal(wire[accepted]!.direction, "sent");
  const greeted = at((m) => m.id === wire[greet]!.message.id && "result" in m, accepted);
  assert.match(JSON.stringify(wire[greeted]!.message.result), /Hello, Ada!/);

  // Sampling: summarize's call, the server's request, the canned model's answer, then the summary.
  const summarize = at((m) => m.method === "tools/call" && m.params.name === "summarize");
  const sample = at((m) => m.method === "sampling/createMessage", summarize);
  const sampled = at((m) => !("method" in m) && m.id === wire[sample]!.message.id && "result" in m, sample);
  assert.equal(wire[sampled]!.message.result.model, "walkthrough-canned-model");
  const summary = wire[sampled]!.message.result.content.text;
  const summarized = at((m) => m.id === wire[summarize]!.message.id && "result" in m, sampled);
  assert.equal(wire[summarized]!.message.result.content[0].text, summary);

  // A list change: the notification, then the client's tools/list, which shows the new tool.
  const changed = at((m) => m.method === "notifications/tools/list_changed");
  const relist = at((m) => m.method === "tools/list", changed);
  at((m) => m.id === wire[relist]!.message.id && "result" in m, relist);
  assert.match(run.stdout, /^ {3}\[client\] the server now offers: .*\breverse\b/m);

  // Each new method and result has its own note, not the generic fallback.
  for (const i of [cancelled, setLevel, setLevel + 1, elicit, accepted, sample, sampled, changed]) {
    assert.doesNotMatch(wire[i]!.note, /^ {3}(request|notification) `[^`]+` \((client|server)→|^ {3}result for /, `generic note for ${JSON.stringify(wire[i]!.message).slice(0, 80)}`);
  }
});
