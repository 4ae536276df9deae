// Builds this suite's one jar (pom.xml: the Spring AI server, the Spring AI client and the MCP Java
// SDK client) into the suite's cache: Maven's repository and its build directory both live there,
// so nothing built lands in the project. A jar newer than every source file is reused as it is.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand, tailOf } from "../harness.js";

export const PROJECT = fileURLToPath(new URL(".", import.meta.url));
export const SPRING_AI = "1.1.2";
export const MCP_JAVA_SDK = "0.17.0";

export function jarIn(cacheDir: string): string {
  return join(cacheDir, "build", "java-spring-peer.jar");
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export async function buildJar(cacheDir: string): Promise<void> {
  const jar = jarIn(cacheDir);
  const sources = Math.max(statSync(join(PROJECT, "pom.xml")).mtimeMs, newestSource(join(PROJECT, "src")));
  if (existsSync(jar) && statSync(jar).mtimeMs > sources) return;
  const java = await runCommand("java", ["-version"], { timeoutMs: 60_000 }).catch((error: Error) => ({ code: -1, stdout: "", stderr: error.message }));
  if (java.code !== 0) throw new Error(`java is not there: ${tailOf(java.stderr)}`);
  const maven = await runCommand("mvn", ["-q", "-B", `-Dmaven.repo.local=${join(cacheDir, "m2")}`, `-Dpeer.buildDir=${join(cacheDir, "build")}`, "package"],
    { cwd: PROJECT, timeoutMs: 30 * 60_000 }).catch((error: Error) => ({ code: -1, stdout: "", stderr: error.message }));
  if (maven.code !== 0 || !existsSync(jar)) throw new Error(`mvn package failed (exit ${maven.code}):\n${tailOf(maven.stdout + maven.stderr, 30)}`);
}
