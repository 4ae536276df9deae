// `npm start`: a guided MCP session. Starts `dist/server.js` as a child process, plays a whole
// session against it over stdio, and prints every wire message in order with a note on what it
// is and what its key fields mean. The first thing to run when learning MCP with mcp-wire.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Dispatcher } from "./jsonrpc/dispatcher.js";
import type { JSONRPCMessage } from "./jsonrpc/messages.js";
import { Connection } from "./protocol/connection.js";
import type { Transport, TransportHandlers } from "./protocol/transport.js";
import { LATEST_PROTOCOL_VERSION } from "./mcp/versions.js";
import { StreamTransport } from "./transports/stdio.js";
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

/** Wraps a transport so that every message in either direction is printed as it crosses. */
function traced(inner: Transport): Transport {
  return {
    start(handlers: TransportHandlers) {
      inner.start({
        ...handlers,
        message(text) {
          show("server→client", JSON.parse(text) as JSONRPCMessage, text);
          handlers.message(text);
        },
      });
    },
    async send(message) {
      show("client→server", message, JSON.stringify(message));
      await inner.send(message);
    },
    close: () => inner.close(),
  };
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
  const child = spawn(process.execPath, [SERVER], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const connection = new Connection(traced(new StreamTransport(child.stdout, child.stdin)), { dispatcher: new Dispatcher([]) });
  connection.start();

  heading("The handshake", "The client opens with initialize; nothing else but ping may come first.");
  const init = await connection.request("initialize", {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: "mcp-wire-walkthrough", version: "0.1.0" },
  });
  await connection.notify("notifications/initialized");
  console.log(`   The session now speaks ${String(init.protocolVersion)}.`);

  heading("Tools", "The client lists the tools, then calls each one.");
  await connection.request("tools/list");
  await connection.request("tools/call", { name: "echo", arguments: { text: "hello, MCP" } });
  await connection.request("tools/call", { name: "add", arguments: { a: 2, b: 40 } });
  await connection.request("tools/call", { name: "get_time", arguments: {} });
  await connection.request("tools/call", { name: "add", arguments: { a: "two", b: 40 } });

  heading("Progress", "A long call with a progressToken: the server reports progress until it answers.");
  await connection.request("tools/call", { name: "countdown", arguments: { steps: 3, intervalMs: 50 } }, { onProgress: () => {} });

  heading("Resources", "Resources are data the client can read: listed, templated, read by URI.");
  await connection.request("resources/list");
  await connection.request("resources/templates/list");
  await connection.request("resources/read", { uri: "docs://demo/protocol-notes" });
  await connection.request("resources/read", { uri: "docs://demo/protocol-notes/lifecycle" });
  await connection.request("resources/read", { uri: "docs://demo/nothing-here" }).catch(() => {});

  heading("Prompts and completion", "Prompts are message templates a user picks; completion helps fill their arguments.");
  await connection.request("prompts/list");
  await connection.request("completion/complete", { ref: { type: "ref/prompt", name: "explain_topic" }, argument: { name: "topic", value: "t" } });
  await connection.request("prompts/get", { name: "explain_topic", arguments: { topic: "tools", audience: "beginner" } });

  heading("Utilities", "Ping checks the other side is alive; an unknown method gets -32601.");
  await connection.request("ping");
  await connection.request("no/such/method").catch(() => {});

  heading("Shutdown", "stdio has no shutdown message: the client closes the server's stdin and the server exits.");
  await connection.close();
  child.stdin.end();
  const code = await exited;
  console.log(`   The server exited with code ${code}.`);
  console.log(`\nThe rules behind each message are in PROTOCOL_NOTES.md. Next: read src/index.ts, top to bottom.`);
}

main().catch((error: unknown) => {
  console.error(`walkthrough failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
