// `npm start`: a guided MCP session. Our client (McpClient) starts `dist/server.js` as a child
// process, plays a whole session against it over stdio, and prints every wire message in order,
// with a note on what it is and what its key fields mean. The first thing a learner runs.
// Both ways: the server also asks the client (elicitation, sampling), answered by canned handlers
// that stand in for the user and the model, so the session runs unattended.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle

import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { McpClient } from "./client/client.js";
import type { JSONRPCMessage } from "./jsonrpc/messages.js";
import { traceTransport } from "./protocol/trace.js";
import { StdioClientTransport } from "./transports/stdio-client.js";
import { noteFor, type Direction } from "./walkthrough-notes.js";

const SERVER = fileURLToPath(new URL("./server.js", import.meta.url));
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
/** Wire lines longer than this are shortened on screen (the full text still crosses the pipe). */
const SHOWN_CHARS = 400;

let step = 0;
/** Methods of requests we sent, by id, so that a response's note can say what it answers. */
const sentMethods = new Map<unknown, string>();

function show(direction: Direction, message: JSONRPCMessage | JSONRPCMessage[], raw: string): void {
  const arrow = direction === "client→server" ? paint("36", "→ client → server") : paint("35", "← server → client");
  const shown = raw.length > SHOWN_CHARS ? `${raw.slice(0, SHOWN_CHARS)}… (${raw.length} bytes in all)` : raw;
  console.log(`${arrow}  ${shown}`);
  const single = Array.isArray(message) ? undefined : message;
  if (single && "method" in single && "id" in single) sentMethods.set(`${direction}:${String(single.id)}`, single.method);
  const answered = single && !("method" in single) ? sentMethods.get(`${direction === "client→server" ? "server→client" : "client→server"}:${String(single.id)}`) : undefined;
  console.log(paint("2", `   ${noteFor(direction, message, answered)}`));
}

/** What the client itself does, as opposed to what crosses the wire. */
function say(text: string): void {
  console.log(paint("33", `   [client] ${text}`));
}

function heading(title: string, why: string): void {
  step += 1;
  console.log(`\n${paint("1", `${step}. ${title}`)}\n${paint("2", why)}`);
}

// Piped into `head` or a pager that quits early: stop quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

async function main(): Promise<void> {
  console.log(paint("1", "mcp-wire walkthrough: one MCP session over stdio, message by message"));
  console.log(`Starting the demo server as a child process: node ${SERVER}`);
  const server = new StdioClientTransport({ command: process.execPath, args: [SERVER], onStderr: (line) => console.error(`[server] ${line}`) });
  const transport = traceTransport(server, (event) => {
    if (event.kind === "sent") show("client→server", event.message, event.text);
    if (event.kind === "received") show("server→client", event.message ?? [], event.text);
  });
  // Supplying these handlers is what declares the elicitation and sampling capabilities.
  const client = new McpClient(
    { name: "mcp-wire-walkthrough", version: "0.1.0" },
    {
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

  heading("The handshake", "The client opens with initialize; nothing else but ping may come first.");
  await client.connect(transport);
  console.log(`   The session now speaks ${client.protocolVersion}.`);

  heading("Tools", "The client lists the tools, then calls each one.");
  await client.listTools();
  await client.callTool("echo", { text: "hello, MCP" });
  await client.callTool("add", { a: 2, b: 40 });
  await client.callTool("get_time", {});
  await client.callTool("add", { a: "two", b: 40 });

  heading("Progress", "A long call with a progressToken: the server reports progress until it answers.");
  await client.callTool("countdown", { steps: 3, intervalMs: 50 }, { onProgress: () => {} });

  heading("Cancellation", "The client stops waiting after the first progress report: it sends notifications/cancelled, the server stops.");
  const abort = new AbortController();
  const abandoned = await client
    .callTool("countdown", { steps: 10, intervalMs: 100 }, { signal: abort.signal, onProgress: () => abort.abort(new Error("the user gave up")) })
    .then(() => undefined, (error: unknown) => error);
  say(`the call ended locally (${abandoned instanceof Error ? abandoned.message : String(abandoned)}); no response will come for its id.`);
  await client.ping();
  say("the session goes on: the ping was answered, the countdown never will be.");

  heading("Log level", "The client asks for more detail with logging/setLevel; debug messages now come through.");
  await client.setLoggingLevel("debug");
  await client.callTool("echo", { text: "now with a debug log" });

  heading("Resources", "Resources are data the client can read: listed, templated, read by URI.");
  await client.listResources();
  await client.listResourceTemplates();
  await client.readResource("docs://demo/protocol-notes");
  await client.readResource("docs://demo/protocol-notes/lifecycle");
  await client.readResource("docs://demo/nothing-here").catch(() => {});

  heading("Prompts and completion", "Prompts are message templates a user picks; completion helps fill their arguments.");
  await client.listPrompts();
  await client.complete({ ref: { type: "ref/prompt", name: "explain_topic" }, argument: { name: "topic", value: "t" } });
  await client.getPrompt("explain_topic", { topic: "tools", audience: "beginner" });

  heading("Elicitation: the server asks the user", "greet needs a name it does not have: mid-call, the server asks the client to ask its user.");
  await client.callTool("greet", {});

  heading("Sampling: the server asks the client's model", "summarize has no model of its own: mid-call, it borrows the client's.");
  await client.callTool("summarize", { text: SUMMARIZED });

  heading("A list change", "toggle_extra adds a tool; the server says its list changed, and the client lists again.");
  const changed = once(client, "toolsChanged");
  await client.callTool("toggle_extra", {});
  await changed;
  say("heard notifications/tools/list_changed: the tools it knew may be stale, so it lists them again.");
  const { tools } = await client.listTools();
  say(`the server now offers: ${tools.map((tool) => tool.name).join(", ")}.`);
  await client.callTool("reverse", { text: "stressed" });

  heading("Utilities", "Ping checks the other side is alive; an unknown method gets -32601.");
  await client.ping();
  await client.request("no/such/method").catch(() => {});

  heading("Shutdown", "stdio has no shutdown message: the client closes the server's stdin and the server exits.");
  const pid = server.pid!;
  await client.close();
  if (isRunning(pid)) throw new Error(`the server (pid ${pid}) is still running after close()`);
  console.log(`   The server (pid ${pid}) has exited; the client closed its stdin and it stopped by itself.`);
  console.log(`\nThe rules behind each message are in PROTOCOL_NOTES.md. Next: read src/index.ts, top to bottom.`);
}

const SUMMARIZED =
  "The Model Context Protocol lets an application give a language model tools, data and prompts from separate servers, " +
  "over JSON-RPC, and lets those servers ask the application back for a user's input or a model's completion.";
const CANNED_SUMMARY = "MCP connects models to tools and data on servers, and lets those servers ask the client for input or completions.";

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

main().catch((error: unknown) => {
  console.error(`walkthrough failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
