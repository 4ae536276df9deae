// The differential test, as micrograd checks itself against PyTorch: generated sessions (valid and
// invalid lines in any order, both generations) are fed to both editions, `node dist/server.js`
// and `node dist/textbook/demo.js`, and their answers must be the same but for the declared
// differences: the pointers of the transcripts' "# differs in textbook:" lines, and the time.
// One of them is a rule of its own, ERROR_WORDING: an error's message is each edition's own words
// (the spec fixes the code, the id and the data, which are still compared).
// What only the production edition serves is not generated (PRODUCTION_ONLY, below).
// MCP_WIRE_DIFF_SEED and MCP_WIRE_DIFF_SESSIONS choose another run; the figures are printed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { splitPointer } from "../../src/recordings/compare.js";
import { editions } from "../../src/recordings/directives.js";
import { parseLine, parseRecording } from "../../src/recordings/recording.js";
import { spawnPeer } from "../../src/recordings/replay-peer.js";

const SEED = Number(process.env.MCP_WIRE_DIFF_SEED ?? 20_2607_28);
const SESSIONS = Number(process.env.MCP_WIRE_DIFF_SESSIONS ?? 24);
const dist = (path: string) => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));
/** Methods and tools the production edition has and the textbook leaves out: not generated. */
export const PRODUCTION_ONLY = ["completion/complete", "resources/subscribe", "resources/unsubscribe",
  "subscriptions/listen", "greet", "summarize", "toggle_extra", "explain_topic",
  "the notes by section (a resource template)", "batches before initialize",
  "protocol versions before 2025-11-25", "input rounds (requestState, inputResponses)", "pagination"];

const transcripts = fileURLToPath(new URL("../../fixtures/transcripts/", import.meta.url));
const DECLARED = [...new Set(readdirSync(transcripts).filter((file) => file.endsWith(".transcript"))
  .flatMap((file) => editions(parseRecording(readFileSync(transcripts + file, "utf8"), file)).differs.get("textbook") ?? []))];

export const ERROR_WORDING = "/error/message";

/** mulberry32: a small seeded PRNG, so a run can be repeated from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NS = "io.modelcontextprotocol/";

/** One session's lines: mostly well-formed, often not, in any order. */
function session(random: () => number): string[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  let id = 0;
  const ids: (string | number)[] = [];
  const nextId = () => {
    const chosen = pick([id++, id++, `s-${id++}`, id - 1]);
    ids.push(chosen);
    return chosen;
  };
  const envelope = () => pick([
    { [`${NS}protocolVersion`]: "2026-07-28", [`${NS}clientCapabilities`]: {} },
    { [`${NS}protocolVersion`]: "2026-07-28", [`${NS}clientCapabilities`]: {}, [`${NS}clientInfo`]: { name: "d", version: "1" } },
    { [`${NS}protocolVersion`]: "2026-07-28", [`${NS}clientCapabilities`]: {}, [`${NS}logLevel`]: pick(["debug", "info", "error", "loud"]) },
    { [`${NS}protocolVersion`]: "2026-07-28" },
    { [`${NS}protocolVersion`]: 20260728, [`${NS}clientCapabilities`]: {} },
    { [`${NS}protocolVersion`]: pick(["2099-01-01", "2025-11-25"]), [`${NS}clientCapabilities`]: {} },
    { [`${NS}protocolVersion`]: "2026-07-28", [`${NS}clientCapabilities`]: [] },
    { [`${NS}protocolVersion`]: "2026-07-28", [`${NS}clientCapabilities`]: {}, [`${NS}clientInfo`]: pick([{ name: "x" }, 5]) },
    { [`${NS}clientCapabilities`]: {} },
  ]);
  const call = (): [string, unknown] => ["tools/call", pick([
    { name: "echo", arguments: pick([{ text: pick(["hi", "☃ snow", ""]) }, { text: 5 }, {}, { text: "a", more: 1 }]) },
    { name: "add", arguments: pick([{ a: 2, b: 40 }, { a: 0.1, b: -5 }, { a: 1e308, b: 1e308 }, { a: "2", b: 2 }, { a: 1 }, { b: null }]) },
    { name: "get_time", arguments: pick([{}, { zone: "UTC" }]) },
    { name: "get_time" },
    { name: "countdown", arguments: pick([{ steps: pick([1, 2]), intervalMs: pick([1, 5]) }, { steps: 0 }, { steps: 101 },
      { steps: 1.5 }, { steps: "3" }, { steps: 1, x: 1 }, { intervalMs: 2000, steps: 1 }]), _meta: pick([{}, { progressToken: pick(["p", 7, {}]) }]) },
    { name: pick(["nope", 5]) }, {}, { name: "echo", arguments: pick(["text", [1], null]) },
  ])];
  const requests: (() => [string, unknown])[] = [
    () => ["ping", pick([undefined, {}, { _meta: { progressToken: 1 } }])],
    () => [pick(["tools/list", "prompts/list", "resources/list", "resources/templates/list"]), pick([undefined, {}])],
    call,
    () => ["resources/read", pick([{ uri: "docs://demo/protocol-notes" }, { uri: "nope://x" }, {}, { uri: 5 }])],
    () => ["prompts/get", pick([{ name: "review_message", arguments: pick([{ message: "{}" }, { message: "m", version: "2024-11-05" }, {}, { message: 4 }]) },
      { name: "review_message", arguments: pick([{ message: "m", version: 3 }, { version: "x" }]) },
      { name: "nope" }, {}, { name: "review_message", arguments: pick([[], "x"]) }])],
    () => ["logging/setLevel", pick([{ level: pick(["debug", "info", "error", "loud"]) }, {}, { level: 3 }])],
    () => ["initialize", pick([
      { protocolVersion: pick(["2025-11-25", "1999-01-01", "2026-07-28"]), capabilities: {}, clientInfo: { name: "d", version: "1" } },
      { capabilities: {}, clientInfo: { name: "d", version: "1" } }, { protocolVersion: 1, capabilities: {}, clientInfo: {} },
      { protocolVersion: "2025-11-25", capabilities: [], clientInfo: { name: "d", version: "1" } },
      { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "d" } }])],
    () => [pick(["no/such", "sampling/createMessage", "roots/list", "server/discover", "notifications/whatever"]), pick([undefined, {}])],
  ];
  const modern = (): string => {
    const [method, params] = random() < 0.2 ? [pick(["server/discover", "initialize", "ping", "logging/setLevel", "no/such"]), {}] : pick(requests)();
    return JSON.stringify({ jsonrpc: "2.0", id: nextId(), method, params: { ...(typeof params === "object" && params && !Array.isArray(params) ? params : {}), _meta: envelope() } });
  };
  const legacy = (): string => {
    const [method, params] = pick(requests)();
    return JSON.stringify({ jsonrpc: "2.0", id: nextId(), method, ...(params === undefined ? {} : { params }) });
  };
  const initialize = JSON.stringify({ jsonrpc: "2.0", id: nextId(), method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "d", version: "1" } } });
  const oddities = () => pick([
    "this is not json", '{"jsonrpc":"2.0","id":1,', "42", "null", '"text"', "   ",
    '{"jsonrpc":"2.0","id":null,"method":"ping"}', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
    '{"jsonrpc":"1.0","id":"v","method":"ping"}', '{"id":2,"method":"ping"}', '{"jsonrpc":"2.0","id":3,"method":7}',
    '{"jsonrpc":"2.0","id":4,"method":"ping","params":[1]}', '{"jsonrpc":"2.0","id":9}', '{"jsonrpc":"2.0","id":7,"result":{}}',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}', '{"jsonrpc":"2.0","method":"notifications/unknown","params":{"a":1}}',
    '{"jsonrpc":"2.0","method":"tools/list"}', JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: pick(ids.length ? ids : [0]) } }),
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}',
    // Keys an object's prototype has: the editions must read only what the message itself holds.
    `{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":"${pick(["get_time", "echo", "add"])}","arguments":{"${pick(["__proto__", "constructor", "toString"])}":{}}}}`,
    `{"jsonrpc":"2.0","id":"q","method":"prompts/get","params":{"name":"review_message","arguments":{"${pick(["__proto__", "constructor", "message"])}":${pick(["{}", "1", '"m"'])}}}}`,
    `{"jsonrpc":"2.0","id":"r","method":"${pick(["__proto__", "constructor", "toString", "hasOwnProperty"])}"}`,
  ]);
  const lines: string[] = [];
  let initialized = false;
  if (random() < 0.75) {
    lines.push(initialize);
    if (random() < 0.85) lines.push('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    initialized = true;
  }
  const length = 4 + Math.floor(random() * 12);
  for (let i = 0; i < length; i++) {
    const roll = random();
    if (roll < 0.4) lines.push(legacy());
    else if (roll < 0.7) lines.push(modern());
    else if (roll < 0.95) lines.push(oddities());
    // A batch is refused the same way by both, once the session is 2025-11-25 (batch-before-initialize: production only).
    else if (initialized) lines.push(`[${legacy()}]`);
  }
  return lines;
}

/** What one edition writes for a session, each line parsed, the time replaced. */
async function run(program: string, lines: string[]): Promise<unknown[]> {
  const peer = spawnPeer(process.execPath, [program]);
  const out: unknown[] = [];
  peer.onLine((text) => out.push(parseLine(text) ?? `NOT JSON: ${text}`));
  for (const line of lines) peer.write(line);
  peer.end();
  const timer = setTimeout(() => peer.stop(), 10_000);
  await peer.closed;
  clearTimeout(timer);
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
  const named = (node: unknown): unknown => typeof node === "string" ? (iso.test(node) ? "<time>" : node)
    : Array.isArray(node) ? node.map(named) : node && typeof node === "object"
      ? Object.fromEntries(Object.entries(node).map(([key, value]) => [key, named(value)])) : node;
  return out.map(named);
}

/** A message as text without the declared differences, its keys sorted: equal means the same. */
function canonical(value: unknown): string {
  const copy = structuredClone(value);
  // Removes what `steps` points at ("*": any one step) under `node`; arrays from the last index back,
  // so that /result/tools/6 goes before /result/tools/4 and the earlier indexes stay put.
  const remove = (node: unknown, steps: string[]): void => {
    if (!node || typeof node !== "object" || steps.length === 0) return;
    const [step, ...rest] = steps as [string, ...string[]];
    const keys = step === "*" ? Object.keys(node) : Object.hasOwn(node, step) ? [step] : [];
    for (const key of keys.reverse()) {
      if (rest.length > 0) remove((node as Record<string, unknown>)[key], rest);
      else if (Array.isArray(node)) node.splice(Number(key), 1);
      else delete (node as Record<string, unknown>)[key];
    }
  };
  for (const pointer of [...DECLARED].sort().reverse()) remove(copy, splitPointer(pointer));
  const sorted = (node: unknown): unknown => Array.isArray(node) ? node.map(sorted) : node && typeof node === "object"
    ? Object.fromEntries(Object.entries(node).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, inner]) => [key, sorted(inner)])) : node;
  return JSON.stringify(sorted(copy));
}

test("differential: error wording is the one declared rule about errors (code, id and data are compared)", () => {
  assert.ok(DECLARED.includes(ERROR_WORDING), "a transcript declares /error/message");
  assert.deepEqual(DECLARED.filter((pointer) => pointer.startsWith("/error")).sort(), ["/error/data/supported", ERROR_WORDING]);
});

test(`differential: ${SESSIONS} generated sessions get the same answers from both editions (seed ${SEED})`, async () => {
  const random = prng(SEED);
  const sessions = Array.from({ length: SESSIONS }, () => session(random));
  let messages = 0, answers = 0;
  const differences: string[] = [];
  const queue = sessions.map((lines, i) => ({ lines, i }));
  await Promise.all([1, 2].map(async () => {
    for (let next; (next = queue.shift()) !== undefined;) {
      const [production, textbook] = await Promise.all([run(dist("server.js"), next.lines), run(dist("textbook/demo.js"), next.lines)]);
      messages += next.lines.length;
      answers += production.length;
      // Concurrent work (countdown) may interleave differently: the lines are compared as sets,
      // each without the declared differences and with its keys in order.
      const [want, got] = [production, textbook].map((values) => values.map(canonical).sort());
      const found = [...want.filter((line) => !got.includes(line)).map((line) => `only production: ${line}`),
        ...got.filter((line) => !want.includes(line)).map((line) => `only textbook: ${line}`)];
      if (found.length > 0) differences.push(`session ${next.i}:\n  ${next.lines.join("\n  ")}\n${found.join("\n").slice(0, 3000)}`);
    }
  }));
  console.log(`differential: seed ${SEED}, ${SESSIONS} sessions, ${messages} client lines, ${answers} server messages, ` +
    `${differences.length} sessions differing (declared differences: ${DECLARED.join(" ")})`);
  assert.deepEqual(differences, []);
});
