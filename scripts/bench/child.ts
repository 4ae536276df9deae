// A server under measurement: a spawned child speaking newline-delimited JSON on its stdin/stdout,
// read as raw lines, with its CPU time and peak memory read from /proc (Linux only).
// The client side does the same work for every server, so its cost cancels out of the ratios.

import { spawn, execFileSync, type ChildProcessByStdio } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { Readable, Writable } from "node:stream";

/** How to start one of the servers being compared. */
export interface ServerCommand {
  name: string;
  script: string;
  args: string[];
  /** Options for node itself, before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
}

const NEWLINE = 0x0a;
const STDERR_KEPT = 4096;
const EXIT_WAIT_MS = 10_000;

export const CLOCK_TICKS_PER_SECOND = readClockTicks();

export class ServerProcess {
  readonly name: string;
  readonly pid: number;
  /** Receives each complete line of the server's stdout, without its newline. */
  onLine: (line: Buffer) => void = () => {};
  readonly #child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly #exited: Promise<number | null>;
  #exitCode: number | null | undefined;
  #parts: Buffer[] = [];
  #length = 0;
  #stderr = "";

  constructor(command: ServerCommand, extraArgs: string[] = []) {
    this.name = command.name;
    this.#child = spawn(process.execPath, [...(command.nodeArgs ?? []), command.script, ...command.args, ...extraArgs], { stdio: ["pipe", "pipe", "pipe"] });
    if (this.#child.pid === undefined) throw new Error(`${this.name}: spawn failed`);
    this.pid = this.#child.pid;
    this.#exited = new Promise((resolve) => this.#child.on("exit", (code) => resolve((this.#exitCode = code))));
    this.#child.stdout.on("data", (chunk: Buffer) => this.#receive(chunk));
    this.#child.stderr.on("data", (chunk: Buffer) => (this.#stderr = (this.#stderr + chunk.toString()).slice(-STDERR_KEPT)));
    // A server that exits early closes the pipe; the waiting step reports it, not this listener.
    this.#child.stdin.on("error", () => {});
  }

  get hasExited(): boolean {
    return this.#exitCode !== undefined;
  }

  /** Writes bytes, waiting for "drain" when the pipe is full. */
  async write(data: Buffer | string): Promise<void> {
    if (this.#child.stdin.write(data)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.#child.stdin.off("drain", done);
        this.#child.off("exit", done);
        resolve();
      };
      this.#child.stdin.on("drain", done);
      this.#child.on("exit", done);
    });
  }

  /** Resolves on the next line, or rejects if the server exits or `timeoutMs` passes first. */
  nextLine(step: string | (() => string), timeoutMs = 60_000): Promise<Buffer> {
    return this.until(step, timeoutMs, (resolve) => (this.onLine = resolve));
  }

  /**
   * Runs `start` with a resolver and a `touch` that marks progress; rejects if the server exits, or
   * if `timeoutMs` passes without the promise resolving or being touched.
   */
  until<T>(step: string | (() => string), timeoutMs: number, start: (resolve: (value: T) => void, touch: () => void) => void): Promise<T> {
    const describe = typeof step === "string" ? () => step : step;
    return new Promise<T>((resolve, reject) => {
      const expire = () => reject(this.#failure(`${describe()}: nothing for ${timeoutMs} ms`));
      let timer = setTimeout(expire, timeoutMs);
      this.#exited.then(() => {
        clearTimeout(timer);
        reject(this.#failure(`${describe()}: server exited with code ${this.#exitCode}`));
      });
      const touch = () => {
        clearTimeout(timer);
        timer = setTimeout(expire, timeoutMs);
      };
      start((value) => {
        clearTimeout(timer);
        resolve(value);
      }, touch);
    });
  }

  /** user+sys CPU time so far, in seconds, over all of the process's threads. */
  cpuSeconds(): number {
    const stat = readFileSync(`/proc/${this.pid}/stat`, "utf8");
    // Fields after the parenthesised command name, which may itself hold spaces: state is [0].
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  }

  /** The largest resident set size so far (VmHWM), in bytes. */
  peakRssBytes(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
    if (!match) throw new Error(`${this.name}: no VmHWM in /proc/${this.pid}/status`);
    return Number(match[1]) * 1024;
  }

  /** Ends stdin and waits for the server to exit on its own; kills it if it does not. */
  async close(): Promise<number | null> {
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), EXIT_WAIT_MS);
    const code = await this.#exited;
    clearTimeout(timer);
    return code;
  }

  #receive(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      this.#parts.push(chunk.subarray(start, newline));
      const line = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#length + newline - start);
      this.#parts = [];
      this.#length = 0;
      start = newline + 1;
      this.onLine(line);
    }
    if (start < chunk.length) {
      this.#parts.push(chunk.subarray(start));
      this.#length += chunk.length - start;
    }
  }

  #failure(message: string): Error {
    const stderr = this.#stderr.trim();
    return new Error(`${this.name}: ${message}${stderr ? `\n  stderr: ${stderr}` : ""}`);
  }
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
}) + "\n";
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n";

/** The lifecycle handshake; resolves once the server may take tool calls. */
export async function initialize(server: ServerProcess): Promise<void> {
  const answer = server.nextLine("initialize");
  await server.write(INITIALIZE);
  checkInitializeResult(server.name, await answer);
  await server.write(INITIALIZED);
}

export function checkInitializeResult(name: string, line: Buffer): void {
  const message = JSON.parse(line.toString("utf8")) as { id?: unknown; result?: { protocolVersion?: unknown } };
  if (message.id !== 0 || typeof message.result?.protocolVersion !== "string") {
    throw new Error(`${name}: initialize: unexpected answer ${line.toString("utf8").slice(0, 300)}`);
  }
}

function readClockTicks(): number {
  try {
    const ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    return Number.isSafeInteger(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/**
 * The wall time of one whole run of `node ...args`, from spawn to exit, in ms: how long a program
 * that prints and ends (`mcp-wire --help`) keeps a script waiting. Its output is read and dropped.
 */
export async function wallTime(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.resume();
  child.stderr.resume();
  const [code] = (await once(child, "close")) as [number | null];
  const elapsed = performance.now() - started;
  if (code !== 0) throw new Error(`node ${args.join(" ")}: exited with code ${code}`);
  return elapsed;
}
