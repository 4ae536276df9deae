// Interop for the 2026-07-28 generation with peers nobody here wrote: the official TypeScript SDK v2
// (client and server, dual-era) against our server and client, over stdio and Streamable HTTP, and
// our client against SDK v1's server-everything (legacy fallback), and (5) the textbook edition
// (dist/textbook/demo.js, stdio only) under SDK v2's client (its whole session: every tool, good
// and bad arguments, an unknown tool, the notes, a prompt, ping, close) and our CLI, in both eras.
// Each check says what it proves.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era)
// Run: `npm run interop:modern [-- --only <substring>] [-- --capture]` after `npm run build`; exits
// 1 if any check fails; each failure says what happened.

import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Checks, run, tail, type Check } from "./interop.js";
import { captureTranscripts } from "./interop-modern/capture.js";
import { driveWithOurClient } from "./interop-modern/our-client.js";
import { DEFAULT_PEERS_DIR, everythingEntry, freePort, installPeers, startHttpServer, type HttpServer } from "./interop-modern/peers.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUR_SERVER = join(ROOT, "dist", "server.js");
const OUR_CLI = join(ROOT, "dist", "cli.js");
const TEXTBOOK = join(ROOT, "dist", "textbook", "demo.js");
const RUN_TIMEOUT_MS = 90_000;
const MODERN = "2026-07-28";

type Transport = "stdio" | "http";
/** A server under test: how to spawn it on stdio, and how to start it on HTTP. */
interface Server { name: string; stdio: string[]; http: () => Promise<HttpServer> }

function servers(peers: string): Record<"ours" | "sdkV2" | "everything" | "textbook", Server> {
  return {
    textbook: {
      name: "mcp-wire textbook", stdio: [process.execPath, TEXTBOOK],
      http: () => Promise.reject(new Error("the textbook edition serves stdio only")),
    },
    ours: {
      name: "mcp-wire", stdio: [process.execPath, OUR_SERVER],
      http: () => startHttpServer(process.execPath, [OUR_SERVER, "--http", "--port", "0"], { cwd: ROOT, address: (out) => /Streamable HTTP at (http:\S+\/mcp)/.exec(out)?.[1] }),
    },
    sdkV2: {
      name: "SDK v2 server", stdio: [process.execPath, join(peers, "sdk-server.mjs"), "stdio"],
      http: () => startHttpServer(process.execPath, [join(peers, "sdk-server.mjs"), "http", "0"], { cwd: peers, address: (out) => /listening (http:\S+)/.exec(out)?.[1] }),
    },
    everything: {
      name: "server-everything (SDK v1)", stdio: [process.execPath, everythingEntry(peers), "stdio"],
      http: async () => {
        const port = await freePort();
        return startHttpServer(process.execPath, [everythingEntry(peers), "streamableHttp"], {
          cwd: peers, env: { ...process.env, PORT: String(port) }, address: (out) => (/listening on port \d+/.test(out) ? `http://127.0.0.1:${port}/mcp` : undefined),
        });
      },
    },
  };
}

/** Runs `body` with the server's stdio command line, or with the URL of a freshly started HTTP server. */
async function withServer<T>(server: Server, transport: Transport, body: (target: string[]) => Promise<T>): Promise<T> {
  if (transport === "stdio") return body(server.stdio);
  const http = await server.http();
  try {
    return await body([http.url]);
  } finally {
    await http.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The SDK v2 client driver (scripts/interop-modern/sdk-client.mjs) and its JSON report

interface DriverReport { era?: string; protocolVersion?: string; steps: Record<string, unknown>; failed: string[] }

async function sdkClient(peers: string, transport: Transport, mode: string, target: string[], session: string[] = []): Promise<DriverReport> {
  const result = await run(process.execPath, [join(peers, "sdk-client.mjs"), ...session, transport, mode, ...target], { cwd: peers, timeoutMs: RUN_TIMEOUT_MS });
  const line = result.stdout.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line) as DriverReport;
  } catch {
    throw new Error(`sdk-client.mjs printed no report (${result.failure})\n${tail(result.stderr + result.stdout)}`);
  }
}

/**
 * Passes when the driver negotiated `era` and every step passed, except those in `unsupported`
 * (what the server cannot do on that path, with the reason); the detail says what it saw.
 */
function expectReport(report: DriverReport, era: "modern" | "legacy", unsupported: Record<string, string> = {}): string {
  const failed = report.failed.filter((name) => !(name in unsupported));
  const problems = failed.map((name) => `${name}: ${JSON.stringify(report.steps[name])}`);
  if (report.era !== undefined && report.era !== era) problems.unshift(`negotiated ${report.era} ${report.protocolVersion}, wanted ${era}`);
  const passed = Object.keys(report.steps).filter((name) => !report.failed.includes(name));
  assert.ok(problems.length === 0, `${problems.join("\n")}\n(steps that passed: ${passed.join(", ") || "none"})`);
  const skipped = Object.entries(unsupported).filter(([name]) => report.failed.includes(name)).map(([name, why]) => `${name} (${why})`);
  return `${report.era} ${report.protocolVersion}: ${passed.join(", ")}${skipped.length ? `; not offered: ${skipped.join(", ")}` : ""}`;
}

// ---------------------------------------------------------------------------------------------
// Our CLI (dist/cli.js), one command per run

async function cli(args: string[], target: string[], transport: Transport): Promise<unknown> {
  const where = transport === "stdio" ? ["--", ...target] : [];
  const prefix = transport === "http" ? ["--url", target[0]] : [];
  const result = await run(process.execPath, [OUR_CLI, "--quiet", ...prefix, ...args, ...where], { cwd: ROOT, timeoutMs: RUN_TIMEOUT_MS });
  if (result.code !== 0) throw new Error(`mcp-wire ${args.join(" ")}: ${result.failure}\n${tail(result.stderr.trim())}`);
  return JSON.parse(result.stdout);
}

const firstText = (result: unknown) => (result as { content?: { text?: string }[] }).content?.[0]?.text;

/** The demo-shaped calls every server named like ours answers; `versionFlag` is the CLI's era option. */
async function cliSession(server: Server, transport: Transport, versionFlag: string[], calls: "demo" | "everything" | "textbook", expectModern: boolean): Promise<string> {
  return withServer(server, transport, async (target) => {
    const seen: string[] = [];
    if (expectModern) {
      const discover = (await cli([...versionFlag, "discover"], target, transport)) as { supportedVersions?: string[] };
      assert.ok(discover.supportedVersions?.includes(MODERN), `discover: ${JSON.stringify(discover)}`);
      seen.push(`discover ${JSON.stringify(discover.supportedVersions)}`);
    }
    if (calls === "everything") {
      assert.equal(firstText(await cli([...versionFlag, "call", "echo", "message=hi"], target, transport)), "Echo: hi");
      return [...seen, "echo"].join(", ");
    }
    assert.equal(firstText(await cli([...versionFlag, "call", "echo", "text=hi"], target, transport)), "echo: hi");
    const sum = (await cli([...versionFlag, "call", "add", "a=3", "b=4"], target, transport)) as { structuredContent?: { sum?: number } };
    assert.equal(sum.structuredContent?.sum, 7, `add: ${JSON.stringify(sum)}`);
    // The textbook edition has one prompt (review_message) and the notes only whole.
    const [name, argument] = calls === "textbook" ? ["review_message", "message={}"] : ["explain_topic", "topic=eras"];
    const prompt = (await cli([...versionFlag, "get", name, argument], target, transport)) as { messages?: unknown[] };
    assert.ok((prompt.messages?.length ?? 0) > 0, `prompts/get: ${JSON.stringify(prompt)}`);
    const uri = calls === "textbook" ? "docs://demo/protocol-notes" : "docs://sdk-v2/notes";
    const read = (await cli([...versionFlag, "read", uri], target, transport)) as { contents?: { text?: string }[] };
    if (calls === "textbook") assert.match(read.contents?.[0]?.text ?? "", /^## Lifecycle/m);
    else assert.equal(read.contents?.[0]?.text, "SDK v2 peer notes");
    return [...seen, "echo", "add", "prompts/get", "resources/read"].join(", ");
  });
}

// ---------------------------------------------------------------------------------------------
// The checks

interface Definition { name: string; body: () => Promise<string> }

function definitions(peers: string): Definition[] {
  const s = servers(peers);
  const list: Definition[] = [];
  // SDK v2's stateless legacy leg (createMcpHandler's default) has no way to reach the client.
  const statelessLegacy = { greet: "stateless legacy HTTP cannot send elicitation/create", summarize: "nor sampling/createMessage", "tools list change": "nor notifications" };
  for (const transport of ["stdio", "http"] as const) {
    for (const mode of ["auto", MODERN]) {
      list.push({ name: `(1) SDK v2 client [${mode}] -> mcp-wire ${transport}`, body: () => withServer(s.ours, transport, async (t) => expectReport(await sdkClient(peers, transport, mode, t), "modern")) });
    }
    list.push({ name: `(1) SDK v2 client [legacy] -> mcp-wire ${transport} (baseline)`, body: () => withServer(s.ours, transport, async (t) => expectReport(await sdkClient(peers, transport, "legacy", t), "legacy")) });
    for (const mode of ["auto", MODERN]) {
      list.push({ name: `(2) SDK v2 client [${mode}] -> SDK v2 server ${transport}`, body: () => withServer(s.sdkV2, transport, async (t) => expectReport(await sdkClient(peers, transport, mode, t), "modern")) });
    }
    const unsupported = transport === "http" ? statelessLegacy : {};
    list.push({ name: `(2) SDK v2 client [legacy] -> SDK v2 server ${transport}`, body: () => withServer(s.sdkV2, transport, async (t) => expectReport(await sdkClient(peers, transport, "legacy", t), "legacy", unsupported)) });
  }
  for (const transport of ["stdio", "http"] as const) {
    list.push({ name: `(3) mcp-wire CLI [no flag = auto] -> SDK v2 server ${transport}`, body: () => cliSession(s.sdkV2, transport, [], "demo", true) });
    for (const version of ["auto", MODERN]) {
      list.push({ name: `(3) mcp-wire CLI [--protocol-version ${version}] -> SDK v2 server ${transport}`, body: () => cliSession(s.sdkV2, transport, ["--protocol-version", version], "demo", true) });
    }
    list.push({ name: `(3) mcp-wire CLI [--protocol-version 2025-11-25] -> SDK v2 server ${transport}`, body: () => cliSession(s.sdkV2, transport, ["--protocol-version", "2025-11-25"], "demo", false) });
    // SDK v2's stateless legacy HTTP leg cannot reach a client, so over HTTP this passes only once our client is modern.
    const note = transport === "http" ? " (needs our modern client)" : "";
    list.push({ name: `(3) mcp-wire McpClient with handlers -> SDK v2 server ${transport}: greet, summarize, list change${note}`, body: () => withServer(s.sdkV2, transport, (t) => driveWithOurClient(t, peers)) });
    list.push({ name: `(4) mcp-wire CLI [no flag] -> server-everything ${transport}`, body: () => cliSession(s.everything, transport, [], "everything", false) });
    for (const version of ["auto", "2025-11-25"]) {
      list.push({ name: `(4) mcp-wire CLI [--protocol-version ${version}] -> server-everything ${transport}`, body: () => cliSession(s.everything, transport, ["--protocol-version", version], "everything", false) });
    }
  }
  // The textbook edition's own whole session (the driver's --session textbook): every step must pass.
  const textbookSession = (mode: string, era: "modern" | "legacy") => () =>
    withServer(s.textbook, "stdio", async (t) => expectReport(await sdkClient(peers, "stdio", mode, t, ["--session", "textbook"]), era));
  for (const mode of ["auto", MODERN]) list.push({ name: `(5) SDK v2 client [${mode}] -> mcp-wire textbook stdio`, body: textbookSession(mode, "modern") });
  list.push({ name: "(5) SDK v2 client [legacy] -> mcp-wire textbook stdio", body: textbookSession("legacy", "legacy") });
  list.push({ name: "(5) mcp-wire CLI [no flag = auto] -> mcp-wire textbook stdio", body: () => cliSession(s.textbook, "stdio", [], "textbook", true) });
  list.push({ name: "(5) mcp-wire CLI [--protocol-version 2025-11-25] -> mcp-wire textbook stdio", body: () => cliSession(s.textbook, "stdio", ["--protocol-version", "2025-11-25"], "textbook", false) });
  // Grouped by what they prove, (1) to (5); the sort is stable, so each group keeps its order.
  return list.sort((a, b) => a.name.slice(0, 3).localeCompare(b.name.slice(0, 3)));
}

export interface ModernInteropOptions {
  peersDir?: string;
  /** Run only the checks whose name contains this. */
  only?: string;
  /** Also record the wire transcripts into fixtures/modern/. */
  capture?: boolean;
  report?: (check: Check) => void;
}

export async function runModernInterop(options: ModernInteropOptions = {}): Promise<Check[]> {
  const checks = new Checks(options.report);
  const peers = options.peersDir ?? DEFAULT_PEERS_DIR;
  const built = await checks.run("build: dist/server.js and dist/cli.js", async () => {
    for (const file of [OUR_SERVER, OUR_CLI]) await run(process.execPath, [file, "--help"], { cwd: ROOT, timeoutMs: 10_000 }).then((r) => assert.equal(r.code, 0, `${file}: ${r.failure}; run \`npm run build\``));
  });
  if (!built || !(await checks.run("peers: install", () => installPeers(peers)))) return checks.list;
  for (const d of definitions(peers)) if (!options.only || d.name.includes(options.only)) await checks.run(d.name, d.body);
  if (options.capture) await checks.run("capture: fixtures/modern/sdk-v2-*.jsonl", () => captureTranscripts(peers, join(ROOT, "fixtures", "modern")));
  return checks.list;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const checks = await runModernInterop({
    only: at >= 0 ? args[at + 1] : undefined,
    capture: args.includes("--capture"),
    report: (check) => process.stdout.write(`${check.ok ? "PASS" : "FAIL"}  ${check.name}${check.detail ? `: ${check.detail.replace(/\n/g, "\n      ")}` : ""}\n`),
  });
  const failed = checks.filter((c) => !c.ok).length;
  process.stdout.write(`interop:modern: ${checks.length - failed} passed, ${failed} failed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
