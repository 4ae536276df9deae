// `npm start`: a guided MCP session, played twice side by side. Two McpClients, one pinned to the
// handshake generation (2025-11-25) and one to 2026-07-28, each start their own `dist/server.js`
// as a child process and play the same steps (walkthrough-steps*.ts) over stdio. Each step prints
// the handshake era's wire messages, then the 2026-07-28 ones, each with a note on what it is
// (walkthrough-notes.ts, printed by walkthrough-wire.ts), then one line on what changed and where
// the spec says so. The first thing a learner runs. The server also asks the client (elicitation,
// sampling, roots), answered by canned handlers that stand in for the user and the model, so the
// session runs unattended. Some steps write raw lines to a second demo server, and one meets a
// server of the handshake era (walkthrough-handshake-era.ts). `--record DIR` keeps every
// connection's lines as a recording (the test replays them against live servers).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning

import { once } from "node:events";
import { appendFileSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { McpClient, type ClientOptions } from "./client/client.js";
import { EraCache } from "./client/modern/era-cache.js";
import { NOTES_PATH } from "./demo/notes.js";
import { isModernVersion, type ProtocolVersion } from "./mcp/versions.js";
import { traceTransport } from "./protocol/trace.js";
import { StdioClientTransport } from "./transports/stdio-client.js";
import { FIRST_STEPS, LIST_CHANGE, ALIVE, SHUTDOWN, type Step, type StepContext } from "./walkthrough-steps.js";
import { ASK_STEPS } from "./walkthrough-steps-asks.js";
import { RESOURCE_STEPS } from "./walkthrough-steps-resources.js";
import { REFUSAL_STEPS } from "./walkthrough-steps-refusals.js";
import { paint, RawLines, WireLog, type StepMarker } from "./walkthrough-wire.js";

/** The script, in the order a learner meets it: the list change before the subscription, which re-opens the listen. */
const STEPS: Step[] = [...FIRST_STEPS, ...ASK_STEPS, LIST_CHANGE, ...RESOURCE_STEPS, ALIVE, ...REFUSAL_STEPS, SHUTDOWN];

const SERVER = fileURLToPath(new URL("./server.js", import.meta.url));
const HANDSHAKE_ERA_SERVER = fileURLToPath(new URL("./walkthrough-handshake-era.js", import.meta.url));
/** Five tools a page, so that tools/list has a second page to follow; list_roots for the roots step. */
const DEMO_FLAGS = ["--page-size", "5", "--roots-tool"];

/** The two generations, in the order each step shows them. Both pinned: no fallback (the 2026-07-28 side still opens with server/discover). */
const ERAS: { version: ProtocolVersion; label: string }[] = [
  { version: "2025-11-25", label: "2025-11-25, the handshake generation" },
  { version: "2026-07-28", label: "2026-07-28, no handshake" },
];

/** What the client itself does, as opposed to what crosses the wire. */
function say(text: string): void {
  console.log(paint("33", `   [client] ${text}`));
}

/** The client's handlers: supplying them is what declares elicitation, sampling and roots; in 2026-07-28 they answer an input_required result's inputRequests. */
const HANDLERS: ClientOptions = {
  elicitation: {
    form: (params) => {
      say(`the user is asked: "${params.message}" (fields: ${Object.keys(params.requestedSchema.properties).join(", ")}).`);
      say(`a real host would show a form; this canned handler answers name "Ada" on the user's behalf.`);
      return { action: "accept", content: { name: "Ada" } };
    },
  },
  sampling: (params) => {
    say(`the model is asked (at most ${params.maxTokens} tokens, system prompt: "${params.systemPrompt ?? ""}").`);
    say(`a real host would ask the user, then run its model; this canned handler answers a fixed sentence.`);
    return { role: "assistant", content: { type: "text", text: CANNED_SUMMARY }, model: "walkthrough-canned-model", stopReason: "endTurn" };
  },
  roots: () => {
    say("the server asks for the roots; a real host offers the folders the user opened, this one the directory it runs in.");
    return [{ uri: pathToFileURL(process.cwd()).href, name: "the walkthrough's working directory" }];
  },
};

/** A client, traced into `log`, against `command` over stdio. */
function tracedClient(command: string[], log: WireLog, options: ClientOptions): { client: McpClient; transport: StdioClientTransport; traced: ReturnType<typeof traceTransport> } {
  const [file, ...args] = command as [string, ...string[]];
  const transport = new StdioClientTransport({ command: file, args, onStderr: (line) => console.error(`[server] ${line}`) });
  const traced = traceTransport(transport, (event) => {
    if (event.kind === "sent") log.show("client→server", event.text, event.message);
    if (event.kind === "received") log.show("server→client", event.text, event.message);
  });
  return { client: new McpClient({ name: "mcp-wire-walkthrough", version: "0.1.0" }, options), transport, traced };
}

/** One generation's side: its client against its own server, its raw lines, its copy of the notes. */
function openSide(version: ProtocolVersion, directory: string) {
  const notes = join(directory, `notes-${version}.md`);
  copyFileSync(NOTES_PATH, notes);
  const flags = [...DEMO_FLAGS, "--notes", notes];
  const step: StepMarker = { current: "" };
  const logs = [new WireLog(`${version}-client`, [process.execPath, SERVER, ...flags], step)];
  const { client, transport, traced } = tracedClient([process.execPath, SERVER, ...flags], logs[0]!, { protocolVersion: version, ...HANDLERS });
  const rawLog = new WireLog(`${version}-raw`, [process.execPath, SERVER, ...flags], step, ["→ raw bytes → server", "← server → raw bytes"]);
  logs.push(rawLog);
  const raw = new RawLines([process.execPath, SERVER, ...flags], rawLog);
  raw.start();
  const context: StepContext = {
    version, say,
    connect: async () => {
      // The demo server declares listChanged, so a 2026-07-28 client opens a listen, acknowledged by
      // a notification that may come after connect() resolves: wait for it, so that it is shown in
      // this step rather than in the middle of the next.
      const acknowledged = isModernVersion(version) ? once(client, "subscriptionsAcknowledged") : undefined;
      await client.connect(traced);
      await acknowledged;
    },
    serverPid: () => transport.pid!,
    raw: (line, answers) => raw.send(line, answers),
    closeRaw: () => raw.close(),
    // One write, so the server's watcher sees one change (and sends one notification).
    editNotes: () => appendFileSync(notes, "\n<!-- edited by the walkthrough, to show notifications/resources/updated -->\n"),
    handshakeEraClient: async (mode) => {
      const command = [process.execPath, HANDSHAKE_ERA_SERVER, ...flags];
      const log = new WireLog(`${version}-handshake-era`, command, step);
      logs.push(log);
      // A cache of its own: no verdict remembered from elsewhere skips the probe.
      const side = tracedClient(command, log, { protocolVersion: mode, eraCache: new EraCache() });
      await side.client.connect(side.traced);
      return side.client;
    },
  };
  return { client, context, step, logs };
}

// Piped into `head` or a pager that quits early: stop quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

async function main(): Promise<void> {
  console.log(paint("1", "mcp-wire walkthrough: the same MCP session in both generations, over stdio, message by message"));
  console.log(`Each step runs first as 2025-11-25 (with a handshake), then as 2026-07-28 (without one),`);
  console.log(`each client against its own demo server, started as a child process: node ${SERVER} ${DEMO_FLAGS.join(" ")}`);
  console.log(`--notes <a copy of PROTOCOL_NOTES.md>. Raw lines go to a second such server; "[client]" lines are the client's own doing.`);
  const record = process.argv.includes("--record") ? process.argv[process.argv.indexOf("--record") + 1] : undefined;
  if (process.argv.includes("--record") && !record) throw new Error("--record needs a directory to write the recordings to");
  const directory = mkdtempSync(join(tmpdir(), "mcp-wire-walkthrough-"));
  try {
    const sides = ERAS.map((era) => ({ ...era, ...openSide(era.version, directory) }));
    for (const [index, step] of STEPS.entries()) {
      console.log(`\n${paint("1", `${index + 1}. ${step.title}`)}\n${paint("2", step.why)}`);
      for (const side of sides) {
        console.log(paint("1", `  ▸ ${side.label}`));
        side.step.current = `${index + 1}. ${step.title}`;
        await step.play(side.client, side.context);
      }
      console.log(paint("32", `  What changed: ${step.changed} (spec: ${step.spec})`));
    }
    if (record) for (const side of sides) for (const log of side.logs) log.write(record);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  console.log(`\nThe rules behind each message are in PROTOCOL_NOTES.md. Next: read src/textbook/, the whole`);
  console.log(`protocol in a few short files (wire.ts first; node dist/textbook/demo.js serves it), then the`);
  console.log(`production edition: src/index.ts, top to bottom.`);
}

const CANNED_SUMMARY = "MCP connects models to tools and data on servers, and lets those servers ask the client for input or completions.";

main().catch((error: unknown) => {
  console.error(`walkthrough failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
