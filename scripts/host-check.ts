// README's host entries given to the real hosts that can check a server with no account and no
// network: Claude Code (`claude mcp add` each README line, then `claude mcp list`) and Gemini CLI
// (README's settings.json, then `gemini mcp list`), both pinned, installed from the npm registry
// into a cache outside the project (the one step that needs the network), run with a HOME of their
// own on a user's machine scripts/host-config.ts makes. Prints what each host said; exit 1 if a
// README entry did not connect. Run by hand (`npm run build && npx tsx scripts/host-check.ts`),
// never by npm test. Claude Desktop, VS Code and Cursor are desktop applications, not on the registry.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installedVersion, run, tail, withoutNpmConfig } from "./interop.js";
import { makeUserMachine, onMachine, readmeHostBlocks, ROOT, type HostEntry, type UserMachine } from "./host-config.js";

const CLAUDE_CODE = "2.1.328";
const GEMINI_CLI = "0.61.0";
const PINNED: Record<string, string> = { "@anthropic-ai/claude-code": CLAUDE_CODE, "@google/gemini-cli": GEMINI_CLI };
const HOSTS_DIR = join(tmpdir(), "mcp-wire-hosts", `claude-code-${CLAUDE_CODE}_gemini-cli-${GEMINI_CLI}`);
const TIMEOUT_MS = 120_000;

async function installHosts(): Promise<void> {
  if (Object.entries(PINNED).every(([name, version]) => installedVersion(HOSTS_DIR, name) === version)) return;
  mkdirSync(HOSTS_DIR, { recursive: true });
  writeFileSync(join(HOSTS_DIR, "package.json"), JSON.stringify({ name: "mcp-wire-hosts", private: true, dependencies: PINNED }, null, 2) + "\n");
  const installed = await run("npm", ["install", "--prefix", HOSTS_DIR, "--no-audit", "--no-fund"], { cwd: HOSTS_DIR, timeoutMs: 600_000, env: withoutNpmConfig() });
  if (installed.code !== 0) throw new Error(`npm install in ${HOSTS_DIR}: ${installed.failure}\n${tail(installed.stderr)}`);
}

/** A host's command run in the user's project, with the HOME and PATH of the user's machine. */
function host(bin: string, args: string[], home: string, machine: UserMachine) {
  return run(join(HOSTS_DIR, "node_modules/.bin", bin), args, { cwd: join(home, "project"), timeoutMs: TIMEOUT_MS, env: { ...withoutNpmConfig(), HOME: home, PATH: machine.path } });
}

/** The entries of README that a host reads, made real on the machine. */
function entriesFor(hostName: HostEntry["host"], machine: UserMachine): HostEntry[] {
  return readmeHostBlocks().flatMap((block) => block.entries).filter((entry) => entry.host === hostName).map((entry) => onMachine(entry, machine));
}

/** Which of `names` a host's list did not call connected: its line for each must say so. */
function notConnected(output: string, names: string[], connected: RegExp): string[] {
  return names.filter((name) => !output.split("\n").some((line) => line.includes(`${name}:`) && connected.test(line)));
}

async function claudeCode(home: string, machine: UserMachine): Promise<string[]> {
  const entries = entriesFor("claude-code", machine);
  for (const entry of entries) {
    const args = entry.transport === "http" ? ["mcp", "add", "--transport", "http", entry.name, entry.url] : ["mcp", "add", entry.name, "--", entry.command, ...entry.args];
    const added = await host("claude", args, home, machine);
    if (added.code !== 0) throw new Error(`claude ${args.join(" ")}: ${added.failure}\n${tail(added.stderr + added.stdout)}`);
  }
  const listed = await host("claude", ["mcp", "list"], home, machine);
  console.log(`$ claude mcp list   # Claude Code ${CLAUDE_CODE}\n${listed.stdout.trim()}\n`);
  return notConnected(listed.stdout, entries.map((entry) => entry.name), /\bConnected\b/).map((name) => `claude-code ${name}`);
}

async function geminiCli(home: string, machine: UserMachine): Promise<string[]> {
  const entries = entriesFor("gemini", machine);
  const mcpServers = Object.fromEntries(entries.map((entry) => [entry.name, entry.transport === "http" ? { httpUrl: entry.url } : { command: entry.command, args: entry.args }]));
  // README says why the textbook is not among them; shown here, so a Gemini CLI that learns 2025-11-25 is noticed.
  mcpServers["mcp-wire-textbook"] = { command: "node", args: [join(ROOT, "dist/textbook/demo.js")] };
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(join(home, ".gemini/settings.json"), JSON.stringify({ mcpServers }, null, 2));
  // Gemini CLI disables every server in a folder the user has not trusted.
  writeFileSync(join(home, ".gemini/trustedFolders.json"), JSON.stringify({ [join(home, "project")]: "TRUST_FOLDER" }));
  const listed = await host("gemini", ["mcp", "list"], home, machine);
  // It writes its list on stderr.
  const said = (listed.stdout + listed.stderr).trim();
  console.log(`$ gemini mcp list   # Gemini CLI ${GEMINI_CLI}\n${said}\n`);
  return notConnected(said, entries.map((entry) => entry.name), /\bConnected\b/).map((name) => `gemini ${name}`);
}

await installHosts();
const home = mkdtempSync(join(tmpdir(), "mcp-wire-host-check-"));
mkdirSync(join(home, "project"));
const machine = await makeUserMachine(home);
try {
  const failed = [...(await claudeCode(home, machine)), ...(await geminiCli(home, machine))];
  console.log(failed.length === 0 ? "every README entry connected" : `not connected: ${failed.join(", ")}`);
  process.exitCode = failed.length === 0 ? 0 : 1;
} finally {
  await machine.close();
  rmSync(home, { recursive: true, force: true });
}
