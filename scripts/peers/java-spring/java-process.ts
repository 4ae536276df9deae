// Runs the suite's jar and turns the JSON lines its checks print ({"check", "ok", "detail"}) into
// the harness's checks. A jar that prints no line at all fails one check with its stderr.
import { spawn } from "node:child_process";
import { ROOT, tailOf, type PeerContext, type PeerRow } from "../harness.js";

export type Row = Omit<PeerRow, "passed" | "failed" | "transports" | "eras"> & { transport: string; era: string };

/** A little faster for short-lived JVMs on a small machine: no C2 compiler. */
export const JVM_FLAGS = ["-XX:TieredStopAtLevel=1"];

interface JavaLine { check: string; ok: boolean; detail: string }

export function runJava(jar: string, args: string[], timeoutMs = 180_000): Promise<{ lines: JavaLine[]; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("java", [...JVM_FLAGS, "-jar", jar, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => { clearTimeout(timer); reject(error); });
    child.on("close", (code) => {
      clearTimeout(timer);
      const lines = stdout.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as JavaLine);
      resolve({ lines, code, stderr });
    });
  });
}

/** One harness check per line the jar printed; the era of each is the version the session negotiated. */
export async function checksFromJava(ctx: PeerContext, row: Row, jar: string, args: string[]): Promise<void> {
  const ran = await runJava(jar, args);
  if (ran.lines.length === 0) {
    await ctx.check(row, "the Java peer ran", async () => { throw new Error(`exit ${ran.code}, no check printed:\n${tailOf(ran.stderr, 20)}`); });
    return;
  }
  const negotiated = /negotiated (\S+)/.exec(ran.lines[0]!.detail)?.[1];
  for (const line of ran.lines) {
    await ctx.check({ ...row, era: negotiated ?? row.era }, line.check, async () => {
      if (!line.ok) throw new Error(line.detail);
      return line.detail;
    });
  }
}
