// `npm start`: a guided MCP session, played twice side by side. Two McpClients, one pinned to the
// handshake generation (2025-11-25) and one to 2026-07-28, each start their own `dist/server.js`
// as a child process and play the same steps (walkthrough-steps.ts) over stdio. Each step prints
// the handshake era's wire messages, then the 2026-07-28 ones, each with a note on what it is
// (walkthrough-notes.ts), then one line on what changed and where the spec says so. The first
// thing a learner runs. The server also asks the client (elicitation, sampling), answered by
// canned handlers that stand in for the user and the model, so the session runs unattended.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning

import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { McpClient } from "./client/client.js";
import type { JSONRPCMessage } from "./jsonrpc/messages.js";
import { isModernVersion, type ProtocolVersion } from "./mcp/versions.js";
import { traceTransport } from "./protocol/trace.js";
import { StdioClientTransport } from "./transports/stdio-client.js";
import { noteTracker, type Direction } from "./walkthrough-notes.js";
import { STEPS, type StepContext } from "./walkthrough-steps.js";

const SERVER = fileURLToPath(new URL("./server.js", import.meta.url));
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
/** Wire lines longer than this are shortened on screen (the full text still crosses the pipe). */
const SHOWN_CHARS = 400;

/** The two generations, in the order each step shows them. Both pinned: no fallback (the 2026-07-28 side still opens with server/discover). */
const ERAS: { version: ProtocolVersion; label: string }[] = [
  { version: "2025-11-25", label: "2025-11-25, the handshake generation" },
  { version: "2026-07-28", label: "2026-07-28, no handshake" },
];

/** Prints one side's wire messages, each with its note; each side has its own ids, so its own memory of them. */
function wirePrinter(): (direction: Direction, message: JSONRPCMessage | JSONRPCMessage[], raw: string) => void {
  const note = noteTracker();
  return (direction, message, raw) => {
    const arrow = direction === "client→server" ? paint("36", "→ client → server") : paint("35", "← server → client");
    const shown = raw.length > SHOWN_CHARS ? `${raw.slice(0, SHOWN_CHARS)}… (${raw.length} bytes in all)` : raw;
    console.log(`${arrow}  ${shown}`);
    console.log(paint("2", `   ${note(direction, message).note}`));
  };
}

/** What the client itself does, as opposed to what crosses the wire. */
function say(text: string): void {
  console.log(paint("33", `   [client] ${text}`));
}

/** One generation's client, against its own server process, traced. */
function openSide(version: ProtocolVersion): { client: McpClient; context: StepContext } {
  const server = new StdioClientTransport({ command: process.execPath, args: [SERVER], onStderr: (line) => console.error(`[server] ${line}`) });
  const show = wirePrinter();
  const transport = traceTransport(server, (event) => {
    if (event.kind === "sent") show("client→server", event.message, event.text);
    if (event.kind === "received") show("server→client", event.message ?? [], event.text);
  });
  // Supplying these handlers is what declares the elicitation and sampling capabilities; in
  // 2026-07-28 the same handlers answer the inputRequests of an input_required result.
  const client = new McpClient(
    { name: "mcp-wire-walkthrough", version: "0.1.0" },
    {
      protocolVersion: version,
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
    },
  );
  const connect = async () => {
    // The demo server declares listChanged, so a 2026-07-28 client opens a listen, acknowledged by
    // a notification that may come after connect() resolves: wait for it, so that it is shown in
    // this step rather than in the middle of the next.
    const acknowledged = isModernVersion(version) ? once(client, "subscriptionsAcknowledged") : undefined;
    await client.connect(transport);
    await acknowledged;
  };
  return { client, context: { say, connect, serverPid: () => server.pid! } };
}

// Piped into `head` or a pager that quits early: stop quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

async function main(): Promise<void> {
  console.log(paint("1", "mcp-wire walkthrough: the same MCP session in both generations, over stdio, message by message"));
  console.log(`Each step runs first as 2025-11-25 (with a handshake), then as 2026-07-28 (without one),`);
  console.log(`each client against its own demo server, started as a child process: node ${SERVER}`);
  const sides = ERAS.map((era) => ({ ...era, ...openSide(era.version) }));
  for (const [index, step] of STEPS.entries()) {
    console.log(`\n${paint("1", `${index + 1}. ${step.title}`)}\n${paint("2", step.why)}`);
    for (const side of sides) {
      console.log(paint("1", `  ▸ ${side.label}`));
      await step.play(side.client, side.context);
    }
    console.log(paint("32", `  What changed: ${step.changed} (spec: ${step.spec})`));
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
