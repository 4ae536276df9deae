// The walkthrough's script: the steps `npm start` plays, each once per generation. A step's
// `play` is the same client code in both eras (McpClient hides the difference), so what differs
// on screen is only the wire; `changed` says in one line what differs, and `spec` where the
// 2026-07-28 revision says so. The runner (walkthrough.ts) prints them side by side.

import { once } from "node:events";
import type { McpClient } from "./client/client.js";

const SPEC = "https://modelcontextprotocol.io/specification/2026-07-28";

/** What a step may use besides the client: the client's own voice, its connect, and the server's process id. */
export interface StepContext {
  say(text: string): void;
  /** Opens the conversation on the transport the runner traces (and, in 2026-07-28, waits for the listen's acknowledgement). */
  connect(): Promise<void>;
  serverPid(): number;
}

export interface Step {
  title: string;
  why: string;
  play(client: McpClient, context: StepContext): Promise<void>;
  /** One line: how the 2026-07-28 wire differs from the handshake era's. */
  changed: string;
  spec: string;
}

export const STEPS: Step[] = [
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
    title: "Listing tools",
    why: "The client asks which tools the server offers.",
    play: async (client) => void (await client.listTools()),
    changed: "the list gains resultType: complete and the cache hints ttlMs and cacheScope (how long, and for whom, it may be reused); serverInfo rides in the result's _meta.",
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
        .callTool("countdown", { steps: 10, intervalMs: 100 }, { signal: abort.signal, onProgress: () => abort.abort(new Error("the user gave up")) })
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
    title: "Resources",
    why: "Resources are data the client can read by URI; a URI nobody serves is an error.",
    play: async (client) => {
      await client.listResources();
      await client.readResource("docs://demo/nothing-here").catch(() => {});
    },
    changed: "a missing resource was -32002 (Resource not found); 2026-07-28 answers -32602 (Invalid params), the uri still in data; lists gain the cache hints.",
    spec: `${SPEC}/server/resources`,
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
  {
    title: "Elicitation: the server asks the user",
    why: "greet needs a name it does not have: mid-call, the server asks the client to ask its user.",
    play: async (client) => void (await client.callTool("greet", {})),
    changed: "the server sends no request of its own: it answers input_required (inputRequests + requestState), and the client retries the call under a new id with inputResponses and the requestState echoed.",
    spec: `${SPEC}/basic/patterns/mrtr`,
  },
  {
    title: "Sampling: the server asks the client's model",
    why: "summarize has no model of its own: mid-call, it borrows the client's.",
    play: async (client) => void (await client.callTool("summarize", { text: SUMMARIZED })),
    changed: "the same round trip as greet, with sampling/createMessage inside inputRequests (and sampling is deprecated in 2026-07-28).",
    spec: `${SPEC}/basic/patterns/mrtr`,
  },
  {
    title: "A list change",
    why: "toggle_extra adds a tool; the server says its list changed, and the client lists again.",
    play: async (client, { say }) => {
      const changed = once(client, "toolsChanged");
      await client.callTool("toggle_extra", {});
      await changed;
      say("heard notifications/tools/list_changed: the tools it knew may be stale, so it lists them again.");
      const { tools } = await client.listTools();
      say(`the server now offers: ${tools.map((tool) => tool.name).join(", ")}.`);
      await client.callTool("reverse", { text: "stressed" });
    },
    changed: "no unsolicited notification: list_changed comes only on the client's subscriptions/listen (acknowledged at the opening), tagged with its subscriptionId.",
    spec: `${SPEC}/basic/patterns/subscriptions`,
  },
  {
    title: "Is it alive?",
    why: "The client checks that the server still answers; an unknown method gets -32601.",
    play: async (client) => {
      await client.ping();
      await client.request("no/such/method").catch(() => {});
    },
    changed: "ping was removed: the client asks server/discover, which every 2026-07-28 server answers and which changes nothing.",
    spec: `${SPEC}/changelog`,
  },
  {
    title: "Shutdown",
    why: "stdio has no shutdown message: the client closes the server's stdin and the server exits.",
    play: async (client, context) => {
      const serverPid = context.serverPid();
      await client.close();
      if (isRunning(serverPid)) throw new Error(`the server (pid ${serverPid}) is still running after close()`);
      context.say(`the server (pid ${serverPid}) has exited: its stdin closed and it stopped by itself.`);
    },
    changed: "still no shutdown message; the 2026-07-28 client first ends its listen with notifications/cancelled for the listen's id.",
    spec: `${SPEC}/basic/patterns/subscriptions`,
  },
];

export const SUMMARIZED =
  "The Model Context Protocol lets an application give a language model tools, data and prompts from separate servers, " +
  "over JSON-RPC, and lets those servers ask the application back for a user's input or a model's completion.";

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
