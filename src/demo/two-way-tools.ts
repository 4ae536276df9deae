// The demo's tools that make the server speak first: greet asks the user (a form elicitation),
// summarize asks the client's model (sampling), and toggle_extra changes the tool list, which every
// session then hears as notifications/tools/list_changed (a 2026-07-28 client: on its listen, and the
// asks as input_required rounds). The walkthrough shows each round trip in both generations; with
// --roots-tool, list_roots asks the client for its roots too (off by default: the default tool list
// is the one golden transcripts and recordings of real hosts hold).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation,
// client/sampling, client/roots and server/tools#list-changed-notification

import { text, type McpServer } from "../server/definition.js";
import type { JsonSchemaTool } from "../server/typed-handlers.js";

/** The tool toggle_extra adds and removes. */
const REVERSE = {
  name: "reverse",
  title: "Reverse a text",
  description: "Returns `text` with its characters in reverse order. Present only while toggle_extra has added it.",
  inputSchema: { type: "object", properties: { text: { type: "string", description: "The text to reverse." } }, required: ["text"] },
  annotations: { title: "Reverse a text", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const satisfies JsonSchemaTool;

export function addTwoWayTools(server: McpServer): void {
  server.tool(
    {
      name: "greet",
      title: "Greet the user",
      description: "Asks the user for their name through the client (a form elicitation), then greets them by it. Needs a client that supports elicitation.",
      inputSchema: { type: "object", additionalProperties: false },
      annotations: { title: "Greet the user", readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (_args, context) => {
      const answer = await context.elicit({
        message: "What is your name? The server will greet you by it.",
        requestedSchema: {
          type: "object",
          properties: { name: { type: "string", title: "Name", description: "How you would like to be greeted.", minLength: 1, maxLength: 100 } },
          required: ["name"],
        },
      });
      // Saying no is the user's right, not a failure of the tool.
      if (answer.action === "decline") return { content: [text("greet: the user declined to give a name, so there is no greeting")] };
      if (answer.action === "cancel") return { content: [text("greet: the user dismissed the question, so there is no greeting")] };
      // The answer comes from the client: check it rather than trust that the schema was enforced.
      const name = answer.content?.name;
      if (typeof name !== "string" || name.trim() === "") {
        return { content: [text(`greet: the client accepted but sent no name: ${JSON.stringify(answer.content ?? {})}`)], isError: true };
      }
      return { content: [text(`Hello, ${name}!`)] };
    },
  );

  server.tool(
    {
      name: "summarize",
      title: "Summarize a text",
      description: "Asks the client's model (through sampling) for a one-sentence summary of `text` and returns it. Needs a client that supports sampling.",
      inputSchema: { type: "object", properties: { text: { type: "string", description: "The text to summarize." } }, required: ["text"] },
      annotations: { title: "Summarize a text", readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args, context) => {
      const answer = await context.sample({
        messages: [{ role: "user", content: { type: "text", text: `Summarize this text in one sentence:\n\n${args.text}` } }],
        systemPrompt: "You write one-sentence summaries: plain, accurate, no preamble.",
        maxTokens: 200,
      });
      const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
      const texts = blocks.flatMap((block) => (block.type === "text" ? [block.text] : []));
      if (texts.length === 0) {
        const kinds = blocks.map((block) => block.type).join(", ") || "nothing";
        return { content: [text(`summarize: the model (${answer.model}) answered with ${kinds}, not text, so there is no summary`)], isError: true };
      }
      return { content: [text(texts.join("\n"))] };
    },
  );

  // A list change on demand. It edits only this server definition, so every session of it (and
  // no other server) hears notifications/tools/list_changed.
  server.tool(
    {
      name: "toggle_extra",
      title: "Add or remove the tool reverse",
      description: "Registers the tool `reverse` if the server lacks it, removes it otherwise; clients then hear notifications/tools/list_changed.",
      inputSchema: { type: "object", additionalProperties: false },
      annotations: { title: "Add or remove the tool reverse", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    () => {
      if (server.removeTool(REVERSE.name)) return { content: [text(`toggle_extra: removed the tool ${REVERSE.name}`)] };
      server.tool(REVERSE, (args) => ({ content: [text([...args.text].reverse().join(""))] }));
      return { content: [text(`toggle_extra: added the tool ${REVERSE.name}`)] };
    },
  );
}

/** list_roots: the server asks the client which filesystem roots it may work in (roots/list). */
export function addRootsTool(server: McpServer): void {
  server.tool(
    {
      name: "list_roots",
      title: "List the client's roots",
      description: "Asks the client for its filesystem roots (roots/list) and lists them, one per line. Needs a client that supports roots.",
      inputSchema: { type: "object", additionalProperties: false },
      annotations: { title: "List the client's roots", readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (_args, context) => {
      const { roots } = await context.listRoots();
      if (roots.length === 0) return { content: [text("list_roots: the client offers no roots")] };
      return { content: [text(roots.map((root) => (root.name === undefined ? root.uri : `${root.name}: ${root.uri}`)).join("\n"))] };
    },
  );
}
