// The three kinds of run the benchmark makes against one server: a cold start, a pipelined load of
// echo calls (throughput, CPU per call, peak memory) and one large echo. Each returns raw numbers;
// correctness problems (missing, repeated or wrong answers) are thrown as BenchCorrectnessError.

import { performance } from "node:perf_hooks";
import { checkInitializeResult, INITIALIZE, initialize, ServerProcess, type ServerCommand } from "./child.js";

/** A wrong answer, as opposed to a slow one: the benchmark exits 1 for these. */
export class BenchCorrectnessError extends Error {}

export const MIB = 1024 * 1024;
const LOAD_BATCH = 256;
/** How long a load run may go without an answer before the missing ones are reported. */
const STALL_MS = 10_000;
const LARGE_TIMEOUT_MS = 120_000;

/** Milliseconds from spawn to the initialize response's last byte. */
export async function coldStart(command: ServerCommand): Promise<number> {
  const started = performance.now();
  const server = new ServerProcess(command);
  const answer = server.nextLine("cold start: initialize");
  await server.write(INITIALIZE);
  const line = await answer;
  const elapsed = performance.now() - started;
  checkInitializeResult(server.name, line);
  await server.close();
  return elapsed;
}

export interface LoadResult {
  callsPerSecond: number;
  cpuMicrosecondsPerCall: number;
  peakRssBytes: number;
}

/**
 * The 2026-07-28 envelope of a modern load run's calls, as the SDK v2 client sends it (version,
 * client identity, capabilities): each call is then served statelessly, not in the handshake session.
 */
const MODERN_META = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}}`;

/**
 * The requests of a load run, built once and shared: ids 1..calls, in batches of LOAD_BATCH lines;
 * `modern` adds the 2026-07-28 envelope to each, "padded" as many bytes of `_meta` that claim nothing.
 */
export function loadRequests(calls: number, modern: boolean | "padded" = false): Buffer[] {
  const batches: Buffer[] = [];
  // "padded": the envelope's bytes under a key that is not the protocolVersion one, so the request stays legacy.
  const meta = modern === "padded" ? MODERN_META.replace("protocolVersion", "protocolVersiox") : modern ? MODERN_META : "";
  for (let first = 1; first <= calls; first += LOAD_BATCH) {
    let text = "";
    for (let id = first; id < first + LOAD_BATCH && id <= calls; id++) {
      text += `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"call ${id}"}${meta}}}\n`;
    }
    batches.push(Buffer.from(text));
  }
  return batches;
}

/**
 * Writes every request as fast as the pipe takes them while reading answers. CPU is the server's
 * user+sys time between the end of the handshake and the last answer; memory is its lifetime peak.
 */
export async function load(command: ServerCommand, batches: Buffer[], calls: number): Promise<LoadResult> {
  const server = new ServerProcess(command);
  await initialize(server);
  const answered = new Uint8Array(calls + 1);
  let answers = 0;
  const problems: string[] = [];
  const cpuBefore = server.cpuSeconds();
  const started = performance.now();
  const done = server.until<void>(() => `load of ${calls} calls (${answers} answered)`, STALL_MS, (resolve, touch) => {
    server.onLine = (line) => {
      touch();
      const problem = checkEcho(line, calls, answered);
      if (problem && problems.length < 5) problems.push(problem);
      if (++answers === calls) resolve();
    };
  });
  for (const batch of batches) await server.write(batch);
  try {
    await done;
  } catch (error) {
    await server.close();
    const missing = [...answered.keys()].filter((id) => id > 0 && answered[id] === 0);
    const listed = missing.slice(0, 10).join(", ") + (missing.length > 10 ? ", ..." : "");
    throw new BenchCorrectnessError(`${(error as Error).message}\n  unanswered: ${missing.length} ids (${listed})`);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = server.cpuSeconds() - cpuBefore;
  const peakRssBytes = server.peakRssBytes();
  await server.close();
  // An extra answer arriving after the last expected one shows up here, once the server has exited.
  if (answers !== calls) problems.push(`${answers - calls} answers more than the ${calls} calls`);
  if (problems.length > 0) throw new BenchCorrectnessError(`${command.name}: load: ${problems.join("; ")}`);
  return { callsPerSecond: calls / seconds, cpuMicrosecondsPerCall: (cpuSeconds * 1e6) / calls, peakRssBytes };
}

function checkEcho(line: Buffer, calls: number, answered: Uint8Array): string | undefined {
  const message = JSON.parse(line.toString("utf8")) as { id?: unknown; result?: { content?: { text?: unknown }[] } };
  const id = message.id;
  if (typeof id !== "number" || !Number.isInteger(id) || id < 1 || id > calls) return `answer with unexpected id: ${line.toString("utf8").slice(0, 200)}`;
  if (answered[id]++ !== 0) return `id ${id} answered more than once`;
  const text = message.result?.content?.[0]?.text;
  if (text !== `echo: call ${id}`) return `id ${id}: wrong answer ${line.toString("utf8").slice(0, 200)}`;
  return undefined;
}

/** One echo request whose `text` is `bytes` bytes of ASCII; built once per size and shared. */
export function largeRequest(bytes: number): Buffer {
  const head = Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"`);
  const tail = Buffer.from(`"}}}\n`);
  const request = Buffer.allocUnsafe(head.length + bytes + tail.length);
  head.copy(request, 0);
  request.fill("The quick brown fox jumps over the lazy dog. ", head.length, head.length + bytes);
  tail.copy(request, head.length + bytes);
  return request;
}

/** Milliseconds from the request's first byte written to the response's last byte read. */
export async function largeEcho(command: ServerCommand, request: Buffer, textBytes: number): Promise<number> {
  const server = new ServerProcess(command);
  await initialize(server);
  const started = performance.now();
  const answer = server.nextLine(`echo of ${textBytes / MIB} MiB`, LARGE_TIMEOUT_MS);
  await server.write(request);
  const line = await answer;
  const elapsed = performance.now() - started;
  await server.close();
  const message = JSON.parse(line.toString("utf8")) as { id?: unknown; result?: { content?: { text?: unknown }[] } };
  const text = message.result?.content?.[0]?.text;
  const expected = "echo: ".length + textBytes;
  if (message.id !== 1 || typeof text !== "string" || text.length !== expected) {
    const got = typeof text === "string" ? `text of ${text.length} characters` : line.toString("utf8").slice(0, 300);
    throw new BenchCorrectnessError(`${command.name}: echo of ${textBytes / MIB} MiB: expected text of ${expected} characters, got ${got}`);
  }
  return elapsed;
}
