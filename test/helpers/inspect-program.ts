// Runs `mcp-wire inspect` (dist/cli.unbundled.js, test/cli/program.ts's CLI, so that coverage reaches
// src/cli/inspect*.ts) against the demo server (dist/server.js) for the inspect tests: the page's
// address as the program prints it, the page's actions, and the program's end.

import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { CLI } from "../cli/program.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

export interface RunningInspect {
  /** The page, token included: http://127.0.0.1:PORT/TOKEN/ */
  url: string;
  child: ChildProcess;
  /** What it wrote on stderr so far. */
  stderr: () => string;
  /** An action of the page's (POST api); resolves to its JSON answer. */
  act: (body: object) => Promise<{ ok: boolean; result?: { [key: string]: unknown }; error?: string }>;
  /** Ctrl-C, then its exit code. */
  stop: () => Promise<number | null>;
}

/** `program`: another build of the CLI (test/programs/bundle.test.ts runs the bin's bundle), run in `cwd`. */
export async function startInspect(serverArgs: string[] = ["node", "dist/server.js"], flags: string[] = [], program = CLI, cwd = root): Promise<RunningInspect> {
  const child = spawn(process.execPath, [program, "inspect", ...flags, "--", ...serverArgs], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      const found = /the page is at (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/)/.exec(stderr);
      if (found) resolve(found[1]);
    });
    child.once("exit", (code) => reject(new Error(`inspect exited (${code}) before printing its address: ${stderr}`)));
  });
  const act = async (body: object) => {
    const response = await fetch(new URL("api", url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return response.json() as Promise<{ ok: boolean; result?: { [key: string]: unknown }; error?: string }>;
  };
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null) return child.exitCode;
    const exited = once(child, "exit");
    child.kill("SIGINT");
    const [code] = await exited as [number | null];
    return code;
  };
  return { url, child, stderr: () => stderr, act, stop };
}
