// The demo program over HTTP as users run it, `node dist/server.js --http --port 0 ...`, for the
// program tests: started until it prints its banner (it listens) or exits (it refused to start).
// Through the adapter the HTTP tests use (http-peer.ts's ADAPTER). Needs a build first: `npm test` does.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ADAPTER, withinLimit } from "./http-peer.js";

export const SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));

export type Started = { origin: string; stderr: () => string; stop: () => Promise<void> } | { exitCode: number | null; stderr: string };

/** Runs the program until it prints its banner (it listens) or exits (it refused to start). */
export function start(args: string[], env: Record<string, string | undefined> = {}): Promise<Started> {
  const child = spawn(process.execPath, [SERVER, "--http", "--http-adapter", ADAPTER, "--port", "0", ...args], {
    env: { ...process.env, MCP_WIRE_TOKEN: undefined, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return withinLimit("the program to listen or exit", new Promise((resolve) => {
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      const origin = /^mcp-wire-server: Streamable HTTP at (http:\/\/[^\s/]+)\/mcp/m.exec(stderr)?.[1];
      if (origin) resolve({ origin, stderr: () => stderr, stop: async () => void (child.kill(), await exited) });
    });
    void exited.then((exitCode) => resolve({ exitCode, stderr }));
  }));
}

/** Runs the program and waits until it listens; it must start. */
export async function listening(args: string[], env: Record<string, string | undefined> = {}) {
  const started = await start(args, env);
  if (!("origin" in started)) throw new Error(`the program did not start: exit ${started.exitCode}: ${started.stderr}`);
  return started;
}
