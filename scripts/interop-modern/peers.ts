// The real peers of `npm run interop:modern`, pinned and installed into a cache under the OS temp
// dir (never into this project), and the processes the checks start: SDK v2 programs copied next
// to the pinned SDK, and HTTP servers whose address is read from what they print.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports
// The installer follows scripts/interop.ts (its helpers are imported, not copied); the one
// difference is the manifest, which pins SDK v2 and server-everything (itself on SDK v1) together.

import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EVERYTHING_VERSION } from "../interop-client.js";
import { installPinned, SDK_VERSION, tail } from "../interop.js";

/** The dual-era SDK (v2): client and server at the same pinned version. */
export const SDK_V2_VERSION = "2.4.0";
export const EVERYTHING = "@modelcontextprotocol/server-everything";
const PINNED = {
  "@modelcontextprotocol/client": SDK_V2_VERSION,
  "@modelcontextprotocol/server": SDK_V2_VERSION,
  [EVERYTHING]: EVERYTHING_VERSION,
};
export const DEFAULT_PEERS_DIR = join(tmpdir(), "mcp-wire-interop", `modern_sdk-v2-${SDK_V2_VERSION}_everything-${EVERYTHING_VERSION}_sdk-${SDK_VERSION}`);
const HERE = fileURLToPath(new URL(".", import.meta.url));
/** The SDK v2 programs, copied into the peers dir so that their bare imports resolve there. */
const PROGRAMS = ["sdk-server.mjs", "sdk-client.mjs", "tap.mjs"];
const START_TIMEOUT_MS = 20_000;

export async function installPeers(dir: string): Promise<string> {
  // The SDK override gives server-everything the SDK v1 that scripts/interop*.ts pin, not its ^range.
  const installed = await installPinned(dir, "mcp-wire-interop-modern-peers", PINNED);
  // Copied on every run, so an edit to scripts/interop-modern/*.mjs is what runs.
  for (const file of PROGRAMS) copyFileSync(join(HERE, file), join(dir, file));
  return `${Object.entries(PINNED).map(([name, version]) => `${name}@${version}`).join(", ")} (SDK v1 ${SDK_VERSION}) ${installed ? "installed into" : "already in"} ${dir}`;
}

export const everythingEntry = (dir: string) => join(dir, "node_modules", ...EVERYTHING.split("/"), "dist", "index.js");

/** A port that was free a moment ago, for servers that cannot be told to pick one (server-everything). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface HttpServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts an HTTP server and waits for the line that says where it listens; `address` turns that
 * output (stdout and stderr together) into the endpoint URL, or undefined while it is not there yet.
 */
export function startHttpServer(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; address: (output: string) => string | undefined }): Promise<HttpServer> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no address printed within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`starting ${args.join(" ")}: ${error.message}\n${tail(output)}`));
    };
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const url = options.address(output);
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ url, stop: () => stop(child) });
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("error", fail);
    child.on("exit", (code) => fail(new Error(`exited with code ${code}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 2000).unref();
  });
}
