// The Python SDK (`mcp` on PyPI) both ways: its Client against our demo and textbook servers
// (their-client.ts), and our CLI against servers written with it (their-server.ts): mcp 2.3.0's
// MCPServer (FastMCP's name since mcp 2) and mcp 1.30.0's FastMCP, the handshake-only generation.
// install() makes one venv per pin file in the suite's cache (never in this project) and reuses it
// while the pins it was made from are unchanged.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runCommand, tailOf, type PeerSuite } from "../harness.js";
import { runTheirClient } from "./their-client.js";
import { runTheirServer } from "./their-server.js";

const HERE = join(ROOT, "scripts", "peers", "python");
/** Each venv and the requirements file it is made from. */
const VENVS = [["venv", "requirements.txt"], ["venv-v1", "requirements-v1.txt"]] as const;

const pythonOf = (cacheDir: string, venv: string) => join(cacheDir, venv, "bin", "python");

/** The `mcp==X` pin of a requirements file: the version the table names. */
function mcpPin(requirements: string): string {
  const pin = /^mcp==(\S+)$/m.exec(readFileSync(join(HERE, requirements), "utf8"))?.[1];
  if (pin === undefined) throw new Error(`${requirements} pins no mcp==VERSION`);
  return pin;
}

async function makeVenv(cacheDir: string, venv: string, requirements: string): Promise<void> {
  const pins = readFileSync(join(HERE, requirements), "utf8");
  const marker = join(cacheDir, venv, "mcp-wire-pins.txt");
  if (existsSync(marker) && readFileSync(marker, "utf8") === pins) return;
  const made = await runCommand("python3", ["-m", "venv", join(cacheDir, venv)], { timeoutMs: 120_000 });
  if (made.code !== 0) throw new Error(`python3 -m venv: ${tailOf(made.stderr)}`);
  const installed = await runCommand(pythonOf(cacheDir, venv), ["-m", "pip", "install", "--disable-pip-version-check", "--quiet", "-r", join(HERE, requirements)], { timeoutMs: 600_000 });
  if (installed.code !== 0) throw new Error(`pip install -r ${requirements}: ${tailOf(installed.stderr)}`);
  writeFileSync(marker, pins);
}

export const suite: PeerSuite = {
  name: "python",
  language: "python",
  async install(ctx) {
    for (const [venv, requirements] of VENVS) await makeVenv(ctx.cacheDir, venv, requirements);
  },
  async run(ctx) {
    const [v2, v1] = [mcpPin("requirements.txt"), mcpPin("requirements-v1.txt")];
    await runTheirClient(ctx, pythonOf(ctx.cacheDir, "venv"), { peer: "mcp Client", version: v2, language: "python", direction: "their client" });
    await runTheirServer(ctx, { peer: "mcp MCPServer", version: v2, python: pythonOf(ctx.cacheDir, "venv"), modern: true, slug: `mcpserver-${v2}` });
    await runTheirServer(ctx, { peer: "mcp FastMCP", version: v1, python: pythonOf(ctx.cacheDir, "venv-v1"), modern: false, slug: `fastmcp-${v1}` });
  },
};
