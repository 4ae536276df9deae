// The client side of stdio: spawn the server, speak newline-delimited JSON over its stdin and
// stdout, pass its stderr on line by line, and stop it the way the spec says (close stdin, wait,
// SIGTERM, wait, SIGKILL), applied to its whole process group so no grandchild is left behind.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#stdio

import { spawn, type ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import type { Transport, TransportHandlers } from "../protocol/transport.js";
import { StreamTransport } from "./stdio.js";
import { launchCommand } from "./windows-command.js";

export interface StdioServerParameters {
  command: string;
  args?: string[];
  /** The server's environment (default: ours). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Each line the server writes to stderr, as it comes. stderr is for logs: it never means failure. */
  onStderr?: (line: string) => void;
  /** The largest message accepted from the server, in bytes (default DEFAULT_MAX_MESSAGE_BYTES: 64 MiB of content + 1 MiB). */
  maxMessageBytes?: number;
  /** How long each step of close() waits: after closing stdin, then after SIGTERM (default 2000 ms each). */
  graceMs?: number;
  /** The longest stderr line kept whole, in bytes (default 64 KiB); a longer one is passed on in pieces. */
  maxStderrLineBytes?: number;
}

/** The server could not be started at all (no such command, not executable, no such working directory, ...). */
export class SpawnError extends Error {
  /** What went wrong, without the "spawn: " in front. */
  readonly problem: string;
  constructor(readonly command: string, cause: Error, cwd?: string) {
    // The OS says ENOENT for a missing working directory too, which reads as a missing command.
    const problem = (cause as NodeJS.ErrnoException).code === "ENOENT" && cwd !== undefined && !isDirectory(cwd)
      ? `the working directory ${JSON.stringify(cwd)} does not exist`
      : `could not start ${JSON.stringify(command)}: ${cause.message}`;
    super(`spawn: ${problem}`, { cause });
    this.name = "SpawnError";
    this.problem = problem;
  }
}

/** The server process ended while the connection was open. */
export class ServerExitedError extends Error {
  constructor(readonly code: number | null, readonly signal: NodeJS.Signals | null, readonly stderrTail: string[]) {
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const tail = stderrTail.length > 0 ? `; last stderr lines:\n${stderrTail.join("\n")}` : "";
    super(`server ${how}${tail}`);
    this.name = "ServerExitedError";
  }
}

/** The server closed its stdout but did not exit: it can no longer answer. Local: never sent on the wire. */
export class ServerClosedStdoutError extends Error {
  constructor(readonly stderrTail: string[]) {
    const tail = stderrTail.length > 0 ? `; last stderr lines:\n${stderrTail.join("\n")}` : "";
    super(`the server closed its stdout (it was still running, and was stopped)${tail}`);
    this.name = "ServerClosedStdoutError";
  }
}

const STDERR_TAIL_LINES = 20;
/** After the server's stdout ends, how long an exit may take to be reported as the exit it is. */
const EXIT_AFTER_STDOUT_MS = 100;
/** Children still running, so that they can be stopped if this process exits first. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

export class StdioClientTransport implements Transport {
  readonly parameters: StdioServerParameters;
  #child: ChildProcess | undefined;
  #stream: StreamTransport | undefined;
  #handlers: TransportHandlers | undefined;
  #stderrTail: string[] = [];
  #closing = false;
  #closed = false;
  #exited: Promise<void> = Promise.resolve();

  constructor(parameters: StdioServerParameters) {
    this.parameters = parameters;
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
    const { file, args, windowsVerbatimArguments } = launchCommand(this.parameters.command, this.parameters.args ?? []);
    const child = spawn(file, args, {
      env: this.parameters.env ?? process.env,
      cwd: this.parameters.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group (POSIX), so close() can signal everything the server started.
      detached: process.platform !== "win32",
      windowsHide: true,
      windowsVerbatimArguments,
    });
    this.#child = child;
    live.add(child);
    installExitHook();
    // A child that failed to start emits "error" and never "exit".
    this.#exited = new Promise((resolve) => {
      child.once("exit", () => resolve());
      child.once("error", () => resolve());
    });

    child.once("error", (error) => {
      live.delete(child);
      this.#finish(new SpawnError(this.parameters.command, error, this.parameters.cwd));
    });
    child.once("exit", (code, signal) => {
      live.delete(child);
      // Let output already in the pipe arrive, then report; a grandchild holding the pipe open
      // must not keep us waiting.
      const report = () => this.#finish(this.#closing ? undefined : new ServerExitedError(code, signal, this.#stderrTail));
      const timer = setTimeout(report, 100);
      child.stdout!.once("close", () => (clearTimeout(timer), report()));
    });
    this.#readStderr(child);

    this.#stream = new StreamTransport(child.stdout!, child.stdin!, { maxMessageBytes: this.parameters.maxMessageBytes });
    this.#stream.start({
      message: (text) => handlers.message(text),
      unreadable: (problem) => handlers.unreadable(problem),
      // The end of the server's stdout is the end of the connection. A server that is exiting
      // ends it too: the exit handler above reports that, with its code and stderr.
      inputEnded: () => this.#stdoutEnded(child),
      close: () => {},
    });
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    if (!this.#stream || this.#closed) throw new Error("stdio client: the server is not running");
    await this.#stream.send(message);
  }

  /** The connection has as much of the server's work in flight as it takes: stop reading for now. */
  pauseInput(): void {
    this.#stream?.pauseInput();
  }

  resumeInput(): void {
    this.#stream?.resumeInput();
  }

  /** Spec (basic/lifecycle#stdio): close stdin, wait, SIGTERM, wait, SIGKILL. Every wait is bounded. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#closing) return this.#exited;
    this.#closing = true;
    const grace = this.parameters.graceMs ?? 2000;
    if (child.exitCode === null && child.signalCode === null) {
      this.#stream?.endOutput();
      if (!(await this.#waitForExit(grace))) {
        signalGroup(child, "SIGTERM");
        if (!(await this.#waitForExit(grace))) {
          signalGroup(child, "SIGKILL");
          await this.#waitForExit(grace);
        }
      }
    }
    // The server is gone; anything it started in its group goes with it.
    signalGroup(child, "SIGKILL");
    this.#finish(undefined);
  }

  /** Nothing more can come from the server: fail the calls now rather than at their timeouts, and stop it. */
  #stdoutEnded(child: ChildProcess): void {
    if (this.#closing) return;
    setTimeout(() => {
      if (this.#closed || child.exitCode !== null || child.signalCode !== null) return;
      this.#finish(new ServerClosedStdoutError(this.#stderrTail));
      void this.close();
    }, EXIT_AFTER_STDOUT_MS);
  }

  #readStderr(child: ChildProcess): void {
    let partial = "";
    const maxLineBytes = this.parameters.maxStderrLineBytes ?? 64 * 1024;
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop()!;
      for (const line of lines) this.#stderrLine(line.replace(/\r$/, ""));
      // A server that writes stderr without ever ending a line must not fill our memory.
      if (Buffer.byteLength(partial) > maxLineBytes) {
        this.#stderrLine(partial);
        partial = "";
      }
    });
    child.stderr!.on("end", () => partial && this.#stderrLine(partial));
  }

  #stderrLine(line: string): void {
    this.#stderrTail.push(line);
    if (this.#stderrTail.length > STDERR_TAIL_LINES) this.#stderrTail.shift();
    this.parameters.onStderr?.(line);
  }

  #waitForExit(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout>;
    return Promise.race([
      this.#exited.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]).finally(() => clearTimeout(timer));
  }

  #finish(cause: Error | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#handlers?.close(cause);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Signals the child's whole process group where there is one, else the child alone. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === "win32") child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** If this process exits with servers still running, they (and their groups) go too. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const child of live) signalGroup(child, "SIGKILL");
  });
}
