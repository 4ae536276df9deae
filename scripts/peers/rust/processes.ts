// The processes the Rust suite starts: the rmcp peer binary (client or server), our demo over
// HTTP, and our recorder as an HTTP proxy. Each long-lived one comes with a stop() that ends it by
// its own pid; every port is the OS's choice (port 0), read back from what the process prints.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { CLI, DEMO_SERVER, ROOT, runCommand, tailOf } from "../harness.js";

/** One line the rmcp client printed: a step and what came of it. */
export interface Step { step: string; ok: boolean; value?: unknown; error?: { code?: number; message: string; data?: unknown } }

export interface Running { url: string; stop(): Promise<void> }

/** Waits until `pattern` shows in the process's output, or it exits, or 30 s pass. */
function waitFor(child: ChildProcess, stream: "stdout" | "stderr", pattern: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let said = "";
    const timer = setTimeout(() => fail(new Error(`${what}: no ${pattern} within 30 s:\n${tailOf(said)}`)), 30_000);
    const fail = (error: Error) => { clearTimeout(timer); child.kill("SIGKILL"); reject(error); };
    child[stream]!.setEncoding("utf8").on("data", (chunk: string) => {
      said += chunk;
      const found = pattern.exec(said)?.[1];
      if (found) { clearTimeout(timer); resolve(found); }
    });
    child.once("exit", (code) => fail(new Error(`${what} exited (${code}) before it listened:\n${tailOf(said)}`)));
  });
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

function started(child: ChildProcess, url: string): Running {
  child.removeAllListeners("exit");
  return { url, stop: () => stopped(child) };
}

/** Our demo server on Streamable HTTP (and HTTP+SSE), on a port of the OS's choice. */
export async function startDemoHttp(extra: string[] = []): Promise<Running> {
  const child = spawn("node", [DEMO_SERVER, "--http", "--port", "0", "--host", "127.0.0.1", ...extra], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  return started(child, await waitFor(child, "stderr", /Streamable HTTP at (http:\/\/\S+\/mcp)/, "the demo server"));
}

/** Our recorder as a reverse proxy in front of `target`, writing the session to `out`. */
export async function startRecorderProxy(out: string, target: string): Promise<Running> {
  const child = spawn("node", [CLI, "record", "--out", out, "--listen", "127.0.0.1:0", "--target", target], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  const origin = await waitFor(child, "stderr", /listening on (http:\/\/[^\s,]+)/, "mcp-wire record --listen");
  return started(child, new URL("/mcp", origin).href);
}

/** The rmcp server on Streamable HTTP. */
export async function startRmcpHttp(binary: string, extra: string[] = []): Promise<Running> {
  const child = spawn(binary, ["server", "--http", "127.0.0.1:0", ...extra], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  child.stderr!.resume();
  return started(child, await waitFor(child, "stdout", /listening on (http:\/\/\S+\/mcp)/, "the rmcp server"));
}

/** Runs the rmcp client to its end and parses its steps; throws with its stderr if it printed none. */
export async function runRmcpClient(binary: string, args: string[]): Promise<Map<string, Step>> {
  const ran = await runCommand(binary, ["client", ...args], { timeoutMs: 120_000 });
  const steps = new Map<string, Step>();
  for (const line of ran.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const step = JSON.parse(line) as Step;
    steps.set(step.step, step);
  }
  if (steps.size === 0) throw new Error(`rmcp-peer client ${args.join(" ")} printed no step (exit ${ran.code}):\n${tailOf(ran.stderr)}`);
  return steps;
}
