// What the Python suite starts besides one-shot commands: an HTTP server that says where it listens
// on stderr (our demo, the Python peer's server, our recorder's proxy), kept until stopped; and the
// goldens' headers, as fixtures/peers/README's contract wants them (PEERS.md: peer, direction,
// server, command relative to the repository).
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { ROOT } from "../harness.js";

export interface Running { url: string; stop(): Promise<void> }

/**
 * Starts `command` and waits until a line of its stderr (or stdout) matches `listening` (its first
 * group is the URL). Throws with what it printed if it exits or says nothing within timeoutMs.
 */
export function startListening(command: string, args: string[], listening: RegExp, timeoutMs = 30_000): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let said = "";
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`${command} ${args.join(" ")}: not listening after ${timeoutMs} ms:\n${said}`)); }, timeoutMs);
    const hear = (chunk: Buffer) => {
      said += chunk.toString("utf8");
      const found = listening.exec(said);
      if (found) { clearTimeout(timer); resolve({ url: found[1]!, stop: () => stopped(child) }); }
    };
    child.stdout.on("data", hear);
    child.stderr.on("data", hear);
    child.on("error", (error) => { clearTimeout(timer); reject(error); });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`${command} ${args.join(" ")} exited ${code} before listening:\n${said}`)); });
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => { clearTimeout(kill); resolve(); });
    child.kill("SIGTERM");
  });
}

/**
 * Rewrites a recording's header: drops the recorder's `# command:`/`# url:`/`# transport:` lines
 * (an absolute path or a port of this run) and puts `lines` after its first line.
 */
export function setHeader(file: string, lines: string[]): void {
  const [first, ...rest] = readFileSync(file, "utf8").split("\n");
  const kept = rest.filter((line) => !/^# (command|url|transport|args): /.test(line));
  writeFileSync(file, [first, ...lines, ...kept].join("\n"));
}
