// The Go side of the suite: builds the peer program (main.go, client.go, server.go, pinned by
// go.mod and go.sum) into the cache with the machine's own Go, and starts the long-running
// processes the checks talk to over HTTP (our demo server, the Go SDK's server), each on a port
// the OS picks, read back from what the process prints.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_SERVER, runCommand, tailOf, type Ran } from "../harness.js";

export const MODULE_DIR = fileURLToPath(new URL(".", import.meta.url));
/** The SDK version go.mod pins; the rows of the table name it. */
export const GO_SDK_VERSION = "v1.8.0";
export const LANGUAGE = "go" as const;

export function peerBinary(cacheDir: string): string {
  return join(cacheDir, "bin", "peer");
}

/** Everything Go writes (modules, build cache, GOPATH) goes under the cache, never the repository. */
export function goEnv(cacheDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GOPATH: join(cacheDir, "gopath"),
    GOMODCACHE: join(cacheDir, "gomod"),
    GOCACHE: join(cacheDir, "gobuild"),
    // -modcacherw: the module cache stays deletable (rm -rf) like the rest of the cache.
    // -buildvcs=false: the module sits in a git worktree whose state is no part of the binary.
    GOFLAGS: "-modcacherw -buildvcs=false",
    // go.mod asks for go 1.26, which this machine has: never fetch another toolchain.
    GOTOOLCHAIN: "local",
  };
}

/** `go build` into the cache: a few seconds when the cache is warm (Go rebuilds only what changed). */
export async function buildPeer(cacheDir: string): Promise<void> {
  mkdirSync(join(cacheDir, "bin"), { recursive: true });
  const built = await runCommand("go", ["build", "-o", peerBinary(cacheDir), "."], { cwd: MODULE_DIR, env: goEnv(cacheDir), timeoutMs: 600_000 });
  if (built.code !== 0 || !existsSync(peerBinary(cacheDir))) {
    throw new Error(`go build failed (exit ${built.code}):\n${tailOf(built.stderr || built.stdout, 30)}`);
  }
}

/** A process that runs until stopped, with the URL it printed on start. */
export interface Running { url: string; child: ChildProcess; stop(): Promise<void> }

/** Starts `command`, waits for a line matching `pattern` (group 1: the URL) on stdout or stderr. */
export function startListening(command: string, args: string[], pattern: RegExp, env?: NodeJS.ProcessEnv): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let seen = "";
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`${command} printed no URL in 20 s:\n${tailOf(seen)}`)); }, 20_000);
    const stop = () => new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
    });
    const look = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const found = pattern.exec(seen);
      if (found?.[1]) { clearTimeout(timer); resolve({ url: found[1], child, stop }); }
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.on("error", (error) => { clearTimeout(timer); reject(error); });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`${command} exited (${code}) before it listened:\n${tailOf(seen)}`)); });
  });
}

/** Our demo over HTTP on a free port: Streamable HTTP at /mcp, HTTP+SSE at /sse. */
export function startDemoHttp(extra: string[]): Promise<Running> {
  return startListening(process.execPath, [DEMO_SERVER, "--http", "--port", "0", "--host", "127.0.0.1", ...extra], /Streamable HTTP at (http:\/\/\S+\/mcp)/);
}

/** The Go SDK's server over Streamable HTTP on a free port. */
export function startGoServerHttp(cacheDir: string, flags: string[]): Promise<Running> {
  return startListening(peerBinary(cacheDir), ["server", "-http", "127.0.0.1:0", ...flags], /listening (http:\/\/\S+\/mcp)/);
}

/** Runs the peer program to its end. */
export function runPeer(cacheDir: string, args: string[]): Promise<Ran> {
  return runCommand(peerBinary(cacheDir), args, { timeoutMs: 120_000 });
}
