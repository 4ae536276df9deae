// The tracer's own process: `node --import tsx scripts/tour/trace.ts 2025-11-25|2026-07-28` serves the
// demo server as `node dist/server.js` does (createDemoServer, serveStdio), on a stand-in stdin and
// stdout, sends the generation's setup, then one tools/call, and prints (JSON) the functions of src/
// that ran for it, from its first byte in to the answer's last byte out, in order of first call.
// How: V8's precise coverage, reset just before the call's bytes are written and taken once the
// answer is out and the event loop has turned, gives the set of functions that ran. A second,
// identical session on a fresh server gives their order: a breakpoint at the start of each, and the
// order in which they pause (an in-process inspector session hears each pause at once and resumes).
// That second session's coverage must be the first's, or the trace is refused as not repeatable.
// No timer may be on the path: the window closes one turn of the event loop after the answer is out
// (so the inbox's wake-up for that turn, set while the call ran, is inside it, every time), and a
// function of src/ that runs a turn later still fails the trace.
// Run by scripts/tour/run.ts in a process of its own, so that nothing run before (another test, a
// coverage tool) is in the trace or disturbed by it.

import inspector from "node:inspector";
import { SourceMap } from "node:module";
import { PassThrough, Writable } from "node:stream";
import { GENERATIONS, type Generation, type RanFunction, type Trace, type TraceMessage } from "./generations.js";

const FIELDS = "<instance_members_initializer>";
const SRC = new URL("../../src/", import.meta.url).href;
/** Off the path, as README says: the JSON Schema validator that checks `arguments`. */
const OFF_PATH = ["schema/"];

interface Ran {
  scriptId: string;
  functionName: string;
  startOffset: number;
  endOffset: number;
}

const session = new inspector.Session();
session.connect();
function post<T = unknown>(method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))));
}

const scripts = new Map<string, string>(); // scriptId -> file under src/
session.on("Debugger.scriptParsed", ({ params }) => {
  if (!params.url.startsWith(SRC)) return;
  const file = params.url.slice(SRC.length);
  if (!OFF_PATH.some((folder) => file.startsWith(folder))) scripts.set(params.scriptId, file);
});

/** A demo server on a stand-in process, and a way to write a line to it and wait for its answer. */
async function serve(): Promise<(message: TraceMessage) => Promise<string>> {
  const { createDemoServer } = await import("../../src/demo/server-definition.js");
  const { serveStdio } = await import("../../src/transports/stdio-server.js");
  const stdin = new PassThrough();
  let written = "";
  let answered: (() => void) | undefined;
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString("utf8");
      done();
      if (written.endsWith("\n")) answered?.();
    },
  });
  const stderr = new Writable({ write: (chunk, _encoding, done) => (process.stderr.write(chunk), done()) });
  const host = { stdin, stdout, stderr, exit: () => {}, on: () => host };
  serveStdio(createDemoServer(), { process: host as unknown as NodeJS.Process });
  return async (message) => {
    written = "";
    const answer = message.id === undefined ? Promise.resolve() : new Promise<void>((resolve) => (answered = resolve));
    stdin.write(JSON.stringify(message) + "\n");
    await answer;
    // What the message set going (its promise callbacks, the inbox's wake-up at the next turn of
    // the loop) is done by the time this callback, scheduled after all of them, runs.
    await new Promise((resolve) => setImmediate(resolve));
    return written;
  };
}

type Coverage = { result: { scriptId: string; functions: { functionName: string; ranges: { startOffset: number; endOffset: number; count: number }[] }[] }[] };

/** The functions of src/ run since the last take, as "scriptId:offset" keys with what V8 says of each. */
async function ranSinceLastTake(): Promise<Map<string, Ran>> {
  const { result } = await post<Coverage>("Profiler.takePreciseCoverage");
  const ran = new Map<string, Ran>();
  for (const script of result) {
    if (!scripts.has(script.scriptId)) continue;
    for (const fn of script.functions) {
      const [whole] = fn.ranges;
      if (whole && whole.count > 0) ran.set(`${script.scriptId}:${whole.startOffset}`, { scriptId: script.scriptId, functionName: fn.functionName, ...whole });
    }
  }
  return ran;
}

async function oneCall(generation: Generation, breakAt?: Map<string, Ran>): Promise<{ ran: Map<string, Ran>; order: string[]; unplaced: string[]; answer: string }> {
  const send = await serve();
  for (const message of generation.setup) await send(message);
  const order: string[] = [];
  const breakpoints = new Map<string, string>(); // breakpointId -> function key
  // Field initializers without a value ("readonly method: string;") have no place to break: they
  // run as `new` begins, and their stop is the constructor's (stops.ts), whose own pause places it.
  const unplaced: string[] = [];
  for (const [key, fn] of breakAt ?? []) {
    const start = location(fn.scriptId, fn.startOffset);
    const end = location(fn.scriptId, fn.endOffset);
    const { locations } = await post<{ locations: { scriptId: string; lineNumber: number; columnNumber?: number }[] }>("Debugger.getPossibleBreakpoints", { start, end, restrictToFunction: true });
    if (!locations[0] && fn.functionName === FIELDS) {
      unplaced.push(key);
      continue;
    }
    if (!locations[0]) throw new Error(`no place to break in ${fn.functionName} (${scripts.get(fn.scriptId)})`);
    const { breakpointId } = await post<{ breakpointId: string }>("Debugger.setBreakpoint", { location: locations[0] });
    breakpoints.set(breakpointId, key);
  }
  const paused = ({ params }: { params: { hitBreakpoints?: string[] } }) => {
    for (const id of params.hitBreakpoints ?? []) {
      const key = breakpoints.get(id);
      if (key !== undefined && !order.includes(key)) order.push(key);
    }
    session.post("Debugger.resume");
  };
  session.on("Debugger.paused", paused);
  await ranSinceLastTake();
  const answer = await send(generation.call);
  const ran = await ranSinceLastTake();
  // Nothing of the call may still be running: a timer set on the path would make the trace depend on
  // how long the machine took (the inbox's wake-up at the next turn of the loop is already in `ran`).
  await new Promise((resolve) => setImmediate(resolve));
  const late = [...(await ranSinceLastTake()).values()];
  if (late.length > 0) throw new Error(`functions of src/ ran after the answer was out: ${late.map((fn) => `${scripts.get(fn.scriptId)} ${fn.functionName || "(anonymous)"}`).join(", ")}`);
  session.off("Debugger.paused", paused);
  for (const id of breakpoints.keys()) await post("Debugger.removeBreakpoint", { breakpointId: id });
  return { ran, order, unplaced, answer };
}

const sources = new Map<string, { text: string; lines: number[]; map: SourceMap }>();

async function script(scriptId: string) {
  let found = sources.get(scriptId);
  if (!found) {
    const { scriptSource: text } = await post<{ scriptSource: string }>("Debugger.getScriptSource", { scriptId });
    const inline = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(text);
    if (!inline) throw new Error(`${scripts.get(scriptId)}: no inline source map (is tsx loaded?)`);
    const lines = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines.push(i + 1);
    found = { text, lines, map: new SourceMap(JSON.parse(Buffer.from(inline[1]!, "base64").toString("utf8"))) };
    sources.set(scriptId, found);
  }
  return found;
}

function location(scriptId: string, offset: number): { scriptId: string; lineNumber: number; columnNumber: number } {
  const { lines } = sources.get(scriptId)!;
  let line = lines.length - 1;
  while (lines[line]! > offset) line--;
  return { scriptId, lineNumber: line, columnNumber: offset - lines[line]! };
}

/** Where one function V8 ran begins in src/ (0-based, as source maps count), mapped back through tsx's source map. */
function placeOf(fn: Ran): RanFunction | undefined {
  const { lineNumber, columnNumber } = location(fn.scriptId, fn.startOffset);
  const entry = sources.get(fn.scriptId)!.map.findEntry(lineNumber, columnNumber) as { originalLine?: number; originalColumn?: number; generatedLine?: number };
  // esbuild's own helpers (its `__name`) sit before the first mapped line of the file.
  if (entry.originalLine === undefined || entry.generatedLine !== lineNumber) return undefined;
  return { file: scripts.get(fn.scriptId)!, line: entry.originalLine, column: entry.originalColumn!, name: fn.functionName };
}

function sameSet(a: Map<string, Ran>, b: Map<string, Ran>): boolean {
  return a.size === b.size && [...a.keys()].every((key) => b.has(key));
}

const generation = GENERATIONS.find((g) => g.version === process.argv[2]);
if (!generation) throw new Error(`usage: trace.ts ${GENERATIONS.map((g) => g.version).join("|")}`);
await post("Debugger.enable");
await post("Profiler.enable");
await post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
const first = await oneCall(generation);
for (const fn of first.ran.values()) await script(fn.scriptId);
const second = await oneCall(generation, first.ran);
if (!sameSet(first.ran, second.ran) || second.order.length + second.unplaced.length !== first.ran.size || second.answer !== first.answer) {
  throw new Error(`the same call ran differently twice: ${first.ran.size} functions, then ${second.ran.size}, ${second.order.length} of them paused at`);
}
// The initializers that could not pause follow, in the order of their files and places there (V8
// lists scripts in no fixed order); each joins its constructor's stop, already placed by its pause.
const unplaced = second.unplaced.flatMap((key) => placeOf(first.ran.get(key)!) ?? []);
unplaced.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
const functions = [...second.order.flatMap((key) => placeOf(first.ran.get(key)!) ?? []), ...unplaced];
const trace: Trace = { version: generation.version, call: generation.call, answer: first.answer.trimEnd(), functions };
process.stdout.write(JSON.stringify(trace) + "\n");
process.exit(0);
