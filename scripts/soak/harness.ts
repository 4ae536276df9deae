// The soak's small harness: start the real programs (`node dist/server.js`, `node dist/cli.js`)
// each in its own process group, sample their memory from /proc, kill a process that passes a
// hard memory ceiling (so a case that is not held cannot take the machine down), and kill every
// process group a case started when the case ends, whatever happened. Linux only (/proc).

import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The stdio server the cases start: the demo server, or with `npm run soak -- --textbook` the textbook edition. */
export const STDIO_SERVER = { program: "dist/server.js" };

export const MIB = 1024 * 1024;
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** A process whose RSS passes this is killed at once: far beyond every bound a case states. */
export const RSS_CEILING = 1024 * MIB;
/** The bound most server cases state for the server's peak RSS. */
export const RSS_BOUND = 300 * MIB;

/** What a case concludes. `held` is true only when every check of the case passed. */
export interface Verdict {
  held: boolean;
  detail: string;
}

export interface SoakCase {
  name: string;
  /** What is done to the peer under test. */
  title: string;
  /** The bound the case expects to hold, in words. */
  bound: string;
  /** How long the case may run in all before it counts as hung. */
  limitMs: number;
  run: (context: CaseContext) => Promise<Verdict>;
}

/**
 * Ask a server for a full GC (SIGUSR2) so that "retained" is measured without merely uncollected
 * garbage; the preload adds only that handler and is the one addition to the real program.
 */
const GC_PRELOAD =
  "data:text/javascript,process.on('SIGUSR2',()=>{globalThis.gc();" +
  "process.stderr.write('soak: gc '+JSON.stringify(process.memoryUsage())+'\\n')})";

/** Thrown by a case that cannot go on: the case did not hold, for the reason in the message. */
export class NotHeld extends Error {}

export class Tracked {
  readonly child: ChildProcess;
  readonly role: string;
  stderrText = "";
  /** Characters of stderr received in all, the dropped ones too: where an offset into the whole of it points. */
  stderrSeen = 0;
  /** The highest VmHWM read while the process was alive, in bytes. */
  peakRss = 0;
  killedForMemory = false;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(role: string, child: ChildProcess) {
    this.role = role;
    this.child = child;
    child.stderr?.setEncoding("utf8");
    // Only the tail is kept: a flooded stderr must not grow the soak itself.
    child.stderr?.on("data", (chunk: string) => {
      this.stderrSeen += chunk.length;
      this.stderrText = (this.stderrText + chunk).slice(-64 * 1024);
    });
    this.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve((this.exit = { code, signal }))));
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** Current and peak resident memory, or undefined once the process is gone. */
  memory(): { rss: number; hwm: number } | undefined {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
      const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
      return { rss: kib("VmRSS"), hwm: kib("VmHWM") };
    } catch {
      return undefined;
    }
  }

  sample(): void {
    if (!this.alive) return;
    const memory = this.memory();
    if (!memory) return;
    this.peakRss = Math.max(this.peakRss, memory.hwm, memory.rss);
    if (memory.rss > RSS_CEILING && !this.killedForMemory) {
      this.killedForMemory = true;
      this.kill();
    }
  }

  /** SIGKILL to the whole process group. */
  kill(): void {
    if (!this.alive) return;
    try {
      process.kill(-this.child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  }

  /** Waits for text on stderr (from offset `from` in all of it, stderrSeen); undefined if the process ends or `ms` pass first. */
  async awaitStderr(pattern: RegExp, ms: number, from = 0): Promise<RegExpMatchArray | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      // Only the tail is kept: the offset moves back by what was dropped since.
      const match = this.stderrText.slice(Math.max(0, from - (this.stderrSeen - this.stderrText.length))).match(pattern);
      if (match) return match;
      if (!this.alive || Date.now() > deadline) return undefined;
      await sleep(10);
    }
  }

  /** Full GC in a server started with the preload; its heap right after, or undefined. */
  async heapAfterGc(): Promise<NodeJS.MemoryUsage | undefined> {
    if (!this.alive) return undefined;
    const from = this.stderrSeen;
    this.child.kill("SIGUSR2");
    const match = await this.awaitStderr(/soak: gc (\{.*\})\n/, 10_000, from);
    return match ? (JSON.parse(match[1]!) as NodeJS.MemoryUsage) : undefined;
  }

  /** One line on how the process ended, for a verdict. */
  describeEnd(): string {
    if (this.killedForMemory) return `${this.role} passed the ${mib(RSS_CEILING)} ceiling and was killed`;
    if (!this.exit) return `${this.role} still running`;
    const how = this.exit.signal ? `killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`;
    const tail = this.stderrText.trim().split("\n").slice(-2).join(" | ").slice(0, 240);
    return `${this.role} ${how}${tail ? ` (stderr: ${tail})` : ""}`;
  }
}

interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  /** The case writes stdin and reads stdout itself (a stdio server). */
  stdio?: boolean;
}

/** What a case gets from the harness; everything it starts is ended when the case ends. */
export class CaseContext {
  readonly scale: number;
  readonly signal: AbortSignal;
  readonly processes: Tracked[] = [];
  readonly #cleanups: (() => void | Promise<void>)[] = [];

  constructor(scale: number, signal: AbortSignal) {
    this.scale = scale;
    this.signal = signal;
  }

  /** `count` scaled, never below `floor` (the floor keeps a quick run still past the bound). */
  scaled(count: number, floor = 1): number {
    return Math.max(floor, Math.round(count * this.scale));
  }

  /** Spawns `node <args>` in its own process group and tracks it. */
  spawnNode(role: string, args: string[], options: SpawnOptions = {}): Tracked {
    return this.spawnCommand(role, process.execPath, args, options);
  }

  spawnCommand(role: string, command: string, args: string[], options: SpawnOptions = {}): Tracked {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: options.env ?? process.env,
      stdio: [options.stdio ? "pipe" : "ignore", "pipe", "pipe"],
      detached: true,
    });
    // Unless the case speaks on stdin and stdout, stdout is drained so that it never blocks the child.
    if (!options.stdio) child.stdout!.resume();
    const tracked = new Tracked(role, child);
    this.processes.push(tracked);
    return tracked;
  }

  /** The demo server over stdio (stdin and stdout are the caller's to drive): STDIO_SERVER.program. */
  stdioServer(args: string[] = []): Tracked {
    return this.spawnNode("server", ["--expose-gc", "--import", GC_PRELOAD, STDIO_SERVER.program, ...args], { stdio: true });
  }

  /**
   * The demo server over HTTP on a free loopback port, or why it did not start. `fdLimit` runs it
   * under that soft limit on open files (`ulimit -n`), as many systems set by default.
   */
  async tryHttpServer(args: string[] = [], options: { env?: NodeJS.ProcessEnv; fdLimit?: number } = {}): Promise<{ server: Tracked; origin: string; url: string } | { server: Tracked; failed: string }> {
    const nodeArgs = ["--expose-gc", "--import", GC_PRELOAD, "dist/server.js", "--http", "--port", "0", ...args];
    const server = options.fdLimit === undefined
      ? this.spawnNode("server", nodeArgs, { env: options.env })
      // exec keeps the pid: the shell becomes the server.
      : this.spawnCommand("server", "/bin/sh", ["-c", `ulimit -n ${options.fdLimit} && exec "$0" "$@"`, process.execPath, ...nodeArgs], { env: options.env });
    const match = await server.awaitStderr(/Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+)\/mcp/, 10_000);
    if (!match) return { server, failed: server.alive ? "the server printed no address within 10 s" : server.describeEnd() };
    return { server, origin: match[1]!, url: `${match[1]}/mcp` };
  }

  /** The same, for a case that needs the server up: NotHeld if it is not. */
  async httpServer(args: string[] = [], options: { fdLimit?: number } = {}): Promise<{ server: Tracked; origin: string; url: string }> {
    const started = await this.tryHttpServer(args, options);
    if ("failed" in started) throw new NotHeld(`server did not start: ${started.failed}`);
    return started;
  }

  /** Runs the CLI to its end (or until `limitMs`, then kills it); its output and how it ended. */
  async cli(args: string[], limitMs: number): Promise<{ cli: Tracked; ms: number; timedOut: boolean }> {
    const started = Date.now();
    const cli = this.spawnNode("cli", ["dist/cli.js", ...args]);
    const timedOut = await Promise.race([cli.exited.then(() => false), sleep(limitMs, this.signal).then(() => true)]);
    if (timedOut) {
      cli.kill();
      await cli.exited;
    }
    return { cli, ms: Date.now() - started, timedOut };
  }

  onEnd(cleanup: () => void | Promise<void>): void {
    this.#cleanups.push(cleanup);
  }

  sampleAll(): void {
    for (const tracked of this.processes) tracked.sample();
  }

  async end(): Promise<void> {
    for (const cleanup of this.#cleanups.reverse()) await Promise.resolve().then(cleanup).catch(() => {});
    for (const tracked of this.processes) tracked.kill();
    await Promise.all(this.processes.map((tracked) => Promise.race([tracked.exited, sleep(2000)])));
  }
}

export function mib(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** The verdict of checks that must all pass: held only if every one did; the details of all. */
export function judge(checks: [ok: boolean, text: string][]): Verdict {
  const failed = checks.filter(([ok]) => !ok).map(([, text]) => text);
  return failed.length > 0
    ? { held: false, detail: failed.join("; ") }
    : { held: true, detail: checks.map(([, text]) => text).join("; ") };
}

/** The usual memory checks on a server: it is alive, was never past the bound. */
export function serverChecks(server: Tracked, bound = RSS_BOUND): [boolean, string][] {
  // A server killed at the ceiling may not have been reaped yet: it is down all the same.
  const up = server.alive && !server.killedForMemory;
  return [
    [up, up ? "server up" : server.describeEnd()],
    [server.peakRss < bound && !server.killedForMemory, `server peak RSS ${mib(server.peakRss)} (bound ${mib(bound)})`],
  ];
}

/** Retained heap growth of a server since `idle` (both after a full GC), as a check against `bound`. */
export async function retainedCheck(server: Tracked, idle: NodeJS.MemoryUsage | undefined, bound: number): Promise<[boolean, string]> {
  const after = await server.heapAfterGc();
  const growth = idle && after ? after.heapUsed - idle.heapUsed : Number.NaN;
  return [growth < bound, `retained heap after GC +${mib(growth)} (bound ${mib(bound)})`];
}
