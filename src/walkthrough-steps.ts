// The walkthrough's script: the steps `npm start` plays, each once per generation; here the
// session's frame and the core (opening, tools, errors, progress, cancellation, logging, prompts,
// a list change, liveness, shutdown), and in walkthrough-steps-asks.ts, -resources.ts and
// -refusals.ts the rest. A step's `play` is mostly the same client code in both eras (McpClient
// hides the difference), so what differs on screen is only the wire; the steps that write raw
// lines write each era's own. `changed` says in one line what differs, and `spec` where the
// 2026-07-28 revision says so. The runner (walkthrough.ts) prints them side by side.

import { once } from "node:events";
import type { McpClient } from "./client/client.js";
import { ErrorCode, RpcError } from "./jsonrpc/messages.js";
import type { ProtocolVersion } from "./mcp/versions.js";

export const SPEC = "https://modelcontextprotocol.io/specification/2026-07-28";

/** What a step may use besides the client. */
export interface StepContext {
  /** The version this side speaks. */
  version: ProtocolVersion;
  /** The client's own voice: what it does that is not on the wire. */
  say(text: string): void;
  /** Opens the conversation on the transport the runner traces (and, in 2026-07-28, waits for the listen's acknowledgement). */
  connect(): Promise<void>;
  serverPid(): number;
  /** Writes `line` as it is to a second demo server of this side, and waits for `answers` lines back (default 1). */
  raw(line: string, answers?: number): Promise<void>;
  /** Ends the raw lines' server (its input, as a host does). */
  closeRaw(): Promise<void>;
  /** Edits this side's copy of the protocol notes (the servers serve and watch it), as a person editing the file. */
  editNotes(): void;
  /** A fresh client, in `mode`, connected to a server of the handshake era (walkthrough-handshake-era.ts). */
  handshakeEraClient(mode: "auto" | ProtocolVersion): Promise<McpClient>;
}

export interface Step {
  title: string;
  why: string;
  play(client: McpClient, context: StepContext): Promise<void>;
  /** One line: how the 2026-07-28 wire differs from the handshake era's. */
  changed: string;
  spec: string;
}

export const FIRST_STEPS: Step[] = [
  {
    title: "Opening",
    why: "Before anything else, the client learns what the server speaks and offers.",
    play: async (client, { say, connect }) => {
      await connect();
      say(`era: ${client.era} (${client.eraReason}); it speaks ${client.protocolVersion}.`);
    },
    changed: "no handshake and no session: server/discover tells versions and capabilities, every request carries version, clientInfo and capabilities in _meta, and the client opens subscriptions/listen for change notifications.",
    spec: `${SPEC}/basic/versioning`,
  },
  {
    title: "Listing tools, a page at a time",
    why: "The client asks which tools the server offers; this server (--page-size 5) answers in pages, and the client follows nextCursor.",
    play: async (client, { say }) => {
      const first = await client.listTools();
      say(`a page of ${first.tools.length} tools and a nextCursor: the client asks for the next page with that cursor, which only the server can read.`);
      const second = await client.listTools(first.nextCursor);
      say(`${second.tools.length} more and no nextCursor: that was the last page.`);
    },
    changed: "pages and cursors work as before; each page gains resultType: complete and the cache hints ttlMs and cacheScope (how long, and for whom, it may be reused); serverInfo rides in the result's _meta.",
    spec: `${SPEC}/server/utilities/caching`,
  },
  {
    title: "Calling a tool",
    why: "add returns structured content; called with a wrong argument, the tool fails (isError), not the protocol.",
    play: async (client) => {
      await client.callTool("add", { a: 2, b: 40 });
      await client.callTool("add", { a: "two", b: 40 });
    },
    changed: "the request carries the envelope in params._meta, and the result says resultType: complete and names the server (no session remembers either).",
    spec: `${SPEC}/basic`,
  },
  {
    title: "Errors: an unknown tool, and bytes that are not JSON",
    why: "A tool the server does not have is a protocol error (-32602), not a tool's failure; a line that is not JSON gets -32700, with no id.",
    play: async (client, { say, raw }) => {
      const refused = await client.callTool("no_such_tool", {}).then(() => undefined, (error: unknown) => error);
      say(`callTool rejected: ${refused instanceof RpcError && refused.code === ErrorCode.InvalidParams ? "-32602" : String(refused)}; a tool that ran and failed would have been a result with isError: true.`);
      say("the next line goes as it is to the second server, not through the client (which only ever sends whole messages): a request cut short.");
      await raw('{"jsonrpc":"2.0","id":1,"method":"tools/list"');
    },
    changed: "nothing: both errors are JSON-RPC's own and read the same in either era (the unknown tool's request carries the envelope).",
    spec: `${SPEC}/server/tools#error-handling`,
  },
  {
    title: "Progress",
    why: "A long call with a progressToken: the server reports progress until it answers.",
    play: async (client) => void (await client.callTool("countdown", { steps: 3, intervalMs: 50 }, { onProgress: () => {} })),
    changed: "only the envelope: progress still comes as notifications/progress under the request's progressToken.",
    spec: `${SPEC}/basic/patterns/progress`,
  },
  {
    title: "Cancellation",
    why: "The client stops waiting after the first progress report: it sends notifications/cancelled, the server stops.",
    play: async (client, { say }) => {
      const abort = new AbortController();
      const abandoned = await client
        .callTool("countdown", { steps: 10, intervalMs: 200 }, { signal: abort.signal, onProgress: () => abort.abort(new Error("the user gave up")) })
        .then(() => undefined, (error: unknown) => error);
      say(`the call ended locally (${abandoned instanceof Error ? abandoned.message : String(abandoned)}); no response will come for its id.`);
    },
    changed: "the same notification; it now goes client to server only (a server may send one to end a listen; ours ends it with the listen's result).",
    spec: `${SPEC}/basic/patterns/cancellation`,
  },
  {
    title: "Log level",
    why: "The client asks for debug detail; debug messages then come through.",
    play: async (client) => {
      await client.setLoggingLevel("debug");
      await client.callTool("echo", { text: "now with a debug log" });
    },
    changed: "logging/setLevel is gone: each request names its level in _meta logLevel (nothing is sent to set it), and a request without one gets no log messages.",
    spec: `${SPEC}/server/utilities/logging`,
  },
  {
    title: "Prompts and completion",
    why: "Prompts are message templates a user picks; completion helps fill their arguments.",
    play: async (client) => {
      await client.complete({ ref: { type: "ref/prompt", name: "explain_topic" }, argument: { name: "topic", value: "t" } });
      await client.getPrompt("explain_topic", { topic: "tools", audience: "beginner" });
    },
    changed: "only the envelope and resultType: prompts and completion work as before.",
    spec: `${SPEC}/server/prompts`,
  },
];

/** Run after the asks: the list change. */
export const LIST_CHANGE: Step = {
  title: "A list change",
  why: "toggle_extra adds a tool; the server says its list changed, and the client lists again.",
  play: async (client, { say }) => {
    const changed = once(client, "toolsChanged");
    await client.callTool("toggle_extra", {});
    await changed;
    say("heard notifications/tools/list_changed: the tools it knew may be stale, so it lists them again, every page.");
    const tools = await client.listAllTools();
    say(`the server now offers: ${tools.map((tool) => tool.name).join(", ")}.`);
    await client.callTool("reverse", { text: "stressed" });
  },
  changed: "no unsolicited notification: list_changed comes only on the client's subscriptions/listen (acknowledged at the opening), tagged with its subscriptionId.",
  spec: `${SPEC}/basic/patterns/subscriptions`,
};

export const ALIVE: Step = {
  title: "Is it alive?",
  why: "The client checks that the server still answers; an unknown method gets -32601.",
  play: async (client) => {
    await client.ping();
    await client.request("no/such/method").catch(() => {});
  },
  changed: "ping was removed: the client asks server/discover, which every 2026-07-28 server answers and which changes nothing.",
  spec: `${SPEC}/changelog`,
};

export const SHUTDOWN: Step = {
  title: "Shutdown",
  why: "stdio has no shutdown message: the client closes the server's stdin and the server exits.",
  play: async (client, context) => {
    const serverPid = context.serverPid();
    await context.closeRaw();
    await client.close();
    if (isRunning(serverPid)) throw new Error(`the server (pid ${serverPid}) is still running after close()`);
    context.say(`the server (pid ${serverPid}) has exited: its stdin closed and it stopped by itself.`);
  },
  changed: "still no shutdown message; the 2026-07-28 client first ends its listen with notifications/cancelled for the listen's id.",
  spec: `${SPEC}/basic/patterns/subscriptions`,
};

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
