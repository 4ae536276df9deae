// The processes `npm run fleet` starts and stops: a redis-server (nothing written to disk), the
// instances (scripts/fleet/instance.ts), nginx. Every one is killed at the end by its own pid; the
// CPU each used is read from /proc for the calls/s lines (where the time went on this machine).

import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createConnection } from "node:net";
import { fileURLToPath } from "node:url";
import { freePort } from "../interop-modern/peers.js";

const INSTANCE = fileURLToPath(new URL("./instance.ts", import.meta.url));
/** The repository root: `--import tsx` resolves from there. One process per instance, so SIGKILL kills it all. */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface Started {
  name: string;
  child: ChildProcess;
  port: number;
  output(): string;
}

const started: Started[] = [];

/** Runs `command` until `ready` matches what it printed (stdout and stderr together). */
function startUntil(name: string, command: string, args: string[], port: number, ready: RegExp, env: NodeJS.ProcessEnv = process.env): Promise<Started> {
  const child = spawn(command, args, { env, cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const process_: Started = { name, child, port, output: () => output };
  started.push(process_);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: not ready within 30 s:\n${output.slice(-2000)}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(process_);
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name}: exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
}

export async function startRedis(): Promise<Started> {
  const port = await freePort();
  return startUntil("redis", "redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], port, /Ready to accept connections/);
}

export async function startInstance(name: string, redisPort: number, key: string): Promise<Started> {
  const port = await freePort();
  const env = { ...process.env, REDIS_URL: `redis://127.0.0.1:${redisPort}`, MCP_WIRE_REQUEST_STATE_KEY: key, MCP_WIRE_TOKEN: undefined };
  return startUntil(name, process.execPath, ["--import", "tsx", INSTANCE, "--instance", name, "--port", String(port)], port, /listening http:/, env);
}

/** Waits until something accepts connections on `port` (nginx prints nothing when it is ready). */
export async function waitForPort(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function track(name: string, child: ChildProcess, port: number): Started {
  const entry = { name, child, port, output: () => "" };
  started.push(entry);
  return entry;
}

/** CPU seconds a process and its children that are still running used so far (utime + stime). */
export function cpuSeconds(pid: number): number {
  let total = 0;
  for (const id of [pid, ...childrenOf(pid)]) {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1]!.split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

function childrenOf(pid: number): number[] {
  try {
    const ids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    return ids.flatMap((id) => [id, ...childrenOf(id)]);
  } catch {
    return [];
  }
}

/** Stops everything started, by pid: SIGTERM, then SIGKILL for what has not exited within 3 s. */
export async function stopAll(): Promise<void> {
  await Promise.all(started.map(async ({ child }) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
    await exited;
    clearTimeout(timer);
  }));
}
