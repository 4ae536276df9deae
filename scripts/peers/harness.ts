// What every peer suite under scripts/peers/<name>/ shares: the shape of a check, where a suite
// keeps what it installs (a cache under the OS temp dir, never this project), and the table of
// results that README shows. Each suite is a folder with a `suite.ts` exporting `suite: PeerSuite`;
// scripts/peers/run.ts finds them, runs them and prints one line per check.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Our two servers, as a host starts them. */
export const DEMO_SERVER = join(ROOT, "dist", "server.js");
export const TEXTBOOK_SERVER = join(ROOT, "dist", "textbook", "demo.js");
export const CLI = join(ROOT, "dist", "cli.cjs");
/** Where the recorded foreign sessions go: replayed by test/golden/peers.test.ts in `npm test`. */
export const PEER_FIXTURES = join(ROOT, "fixtures", "peers");

export type Language = "python" | "go" | "java" | "rust";
/** Which side is the foreign one: their client against our server, or our client against theirs. */
export type Direction = "their client" | "their server";

/** One line of README's interop table: one peer, one direction. */
export interface PeerRow {
  peer: string;
  version: string;
  language: Language;
  direction: Direction;
  transports: string[];
  eras: string[];
  passed: number;
  failed: number;
}

export interface CheckOutcome { ok: boolean; detail: string }

/** What a suite is given: where to install, whether to (re)record goldens, and its checks' sink. */
export interface PeerContext {
  /** This suite's own cache folder, made before install runs. */
  cacheDir: string;
  /** True with `--record`: write the sessions into fixtures/peers/ as goldens. */
  record: boolean;
  /**
   * Runs one check and prints its line. A check fails by throwing; what it returns (a string) is
   * printed beside it. The row is created on first use and counts passes and failures.
   */
  check(row: Omit<PeerRow, "passed" | "failed" | "transports" | "eras"> & { transport: string; era: string },
    name: string, body: () => Promise<string | void>): Promise<boolean>;
}

export interface PeerSuite {
  /** The folder's name, which `--only` matches (as does the language). */
  name: string;
  language: Language;
  /** Installs the toolchain packages into ctx.cacheDir (reused when already there); throws with the tool's own error. */
  install(ctx: PeerContext): Promise<void>;
  run(ctx: PeerContext): Promise<void>;
}

export function cacheDirFor(name: string, pin: string): string {
  const dir = join(tmpdir(), "mcp-wire-peers", `${name}-${pin}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface Ran { code: number | null; stdout: string; stderr: string }

/** Runs a command to its end (killed at timeoutMs), keeping its output; never throws for a non-zero exit. */
export function runCommand(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; input?: string }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("error", (error) => { clearTimeout(timer); reject(error); });
    child.on("close", (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
    child.stdin.end(options.input ?? "");
  });
}

/** The last lines of a tool's output, for a failed check's detail. */
export function tailOf(text: string, lines = 12): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

/** A port nobody listens on now, for a peer that takes a number, not 0 (the OS picks it; suites run side by side). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
