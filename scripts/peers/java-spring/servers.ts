// Starting processes the checks need and stopping them again: our demo over HTTP, the recording
// proxy in front of it, and (spring-server.ts) the Spring AI server over HTTP. Each resolves once
// the process says on stderr where it listens.
import { spawn, type ChildProcess } from "node:child_process";
import { ROOT } from "../harness.js";

export interface Started { url: string; stop: () => Promise<void> }

export function startListening(command: string, args: string[], pattern: RegExp, timeoutMs: number, stream: "stderr" | "stdout" = "stderr"): Promise<Started> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let said = "";
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`${command} did not listen within ${timeoutMs} ms: ${said.slice(-2000)}`)); }, timeoutMs);
    child[stream].setEncoding("utf8").on("data", (chunk: string) => {
      said += chunk;
      const url = pattern.exec(said)?.[1];
      if (url) { clearTimeout(timer); resolve({ url, stop: () => stop(child) }); }
    });
    (stream === "stderr" ? child.stdout : child.stderr).resume();
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`${command} exited (${code}) before listening: ${said.slice(-2000)}`)); });
  });
}

/** SIGTERM, and SIGKILL if it is still there 5 s later. */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => { clearTimeout(timer); resolve(); });
    child.kill("SIGTERM");
  });
}
