// Textbook: demo in src/textbook/demo.ts; this adds three tools that ask the client, completion,
//  subscriptions, a watched notes file.
// The demo server: what `node dist/server.js` offers. Small on purpose; each item shows one part
// of the protocol. Spec: https://modelcontextprotocol.io/specification/2025-11-25/server
// Tools echo, add, get_time, countdown (progress and cancellation), and in two-way-tools.ts the
// tools that make the server speak first; the protocol notes as a resource and as a template of
// sections; two prompts with arguments and completion; an MCP Apps view for add (apps.ts).

import { RpcError } from "../jsonrpc/messages.js";
import { ErrorCode } from "../mcp/errors.js";
import { McpServer, text, type ServerOptions } from "../server/definition.js";
import { readNotes, sections, watchNotes } from "./notes.js";
import { addTwoWayTools } from "./two-way-tools.js";
import { addCalculatorView, CALCULATOR_URI } from "./apps.js";

export const NOTES_URI = "docs://demo/protocol-notes";
export const SECTION_TEMPLATE = "docs://demo/protocol-notes/{section}";

/** Tools that only read and touch nothing outside the server. */
const SAFE = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export function createDemoServer(options: ServerOptions & { notesPath?: string } = {}): McpServer {
  const notes = () => readNotes(options.notesPath);
  const server = new McpServer(
    {
      name: "mcp-wire-demo",
      title: "mcp-wire demo server",
      version: "0.1.0",
      description: "A small MCP server written to be read: a few tools, the protocol notes, two prompts.",
      instructions:
        "A demo MCP server. Tools: echo (repeats text), add (adds two numbers), get_time (current time, ISO 8601), " +
        "countdown (waits, reporting progress), greet (asks the user's name, then greets them), summarize (asks your " +
        "model for a one-sentence summary), toggle_extra (adds or removes the tool reverse). " +
        `Read ${NOTES_URI} for notes on the protocol itself.`,
    },
    // What 2026-07-28 results may say about caching, true of this server: nothing it serves differs
    // from one client to another (public); what discover says does not change while it runs, but
    // the tool list does (toggle_extra) and the notes file is watched for edits, so those are stale
    // at once (a listening client hears of changes).
    { cache: { discover: { ttlMs: 60_000, cacheScope: "public" }, lists: { ttlMs: 0, cacheScope: "public" } }, ...options },
  );

  server.tool(
    {
      name: "echo",
      title: "Echo",
      description: "Repeats the given text back, prefixed with \"echo: \" (and logs at debug level). Useful to check that tool calls work end to end.",
      inputSchema: { type: "object", properties: { text: { type: "string", description: "The text to repeat." } }, required: ["text"] },
      annotations: { title: "Echo", ...SAFE },
    },
    async (args, context) => {
      const value = args.text;
      await context.log("debug", `echo: repeating ${value.length} characters`, "echo");
      return { content: [text(`echo: ${value}`)] };
    },
  );

  addCalculatorView(server);
  server.tool(
    {
      name: "add",
      title: "Add two numbers",
      description: "Adds a and b and returns the sum as structured content { sum }, with the same JSON as text.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number", description: "The first addend." }, b: { type: "number", description: "The second addend." } },
        required: ["a", "b"],
      },
      outputSchema: { type: "object", properties: { sum: { type: "number", description: "a + b" } }, required: ["sum"] },
      annotations: { title: "Add two numbers", ...SAFE },
      // MCP Apps: a host that renders views shows add's results in the calculator (demo/apps.ts).
      _meta: { ui: { resourceUri: CALCULATOR_URI } },
    },
    (args) => {
      const sum = args.a + args.b;
      // JSON has no Infinity: such a sum could not be the number the output schema promises.
      if (!Number.isFinite(sum)) return { content: [text(`add: the sum of ${args.a} and ${args.b} is not a finite number`)], isError: true };
      // Spec (server/tools#structured-content): structured content SHOULD come with its JSON as text too.
      const structuredContent = { sum };
      return { content: [text(JSON.stringify(structuredContent))], structuredContent };
    },
  );

  server.tool(
    {
      name: "get_time",
      title: "Current time",
      description: "Returns the server's current time in ISO 8601 (UTC), e.g. 2026-01-31T12:00:00.000Z.",
      inputSchema: { type: "object", additionalProperties: false },
      annotations: { title: "Current time", readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    () => ({ content: [text(new Date().toISOString())] }),
  );

  server.tool(
    {
      name: "countdown",
      title: "Count down",
      description:
        "Counts down from `steps` to zero, one step every `intervalMs` milliseconds, reporting progress on each step " +
        "when the call carries a progressToken, and logging (info at the start, debug per step). Cancel it with notifications/cancelled.",
      inputSchema: {
        type: "object",
        properties: {
          steps: { type: "integer", minimum: 1, maximum: 100, description: "How many steps (1-100)." },
          intervalMs: { type: "integer", minimum: 1, maximum: 1000, description: "Milliseconds per step (1-1000, default 100)." },
        },
        required: ["steps"],
        additionalProperties: false,
      },
      annotations: { title: "Count down", ...SAFE },
    },
    async (args, context) => {
      const steps = args.steps;
      const intervalMs = args.intervalMs ?? 100;
      await context.log("info", `countdown: starting, ${plural(steps, "step")} of ${intervalMs} ms`, "countdown");
      for (let done = 1; done <= steps; done++) {
        await delay(intervalMs, context.signal);
        await context.log("debug", `countdown: ${steps - done} to go`, "countdown");
        await context.progress(done, steps, `${steps - done} to go`);
      }
      return { content: [text(`countdown: done after ${plural(steps, "step")}`)] };
    },
  );

  addTwoWayTools(server);

  server.resource(
    {
      uri: NOTES_URI,
      name: "protocol-notes",
      title: "MCP protocol notes",
      description: "mcp-wire's notes on the Model Context Protocol: messages, lifecycle, features, versions.",
      mimeType: "text/markdown",
    },
    (uri) => [{ uri, mimeType: "text/markdown", text: notes() }],
    { ttlMs: 0, cacheScope: "public" },
  );

  const sectionNames = (prefix: string) => sections(notes()).map((s) => s.slug).filter((slug) => slug.startsWith(prefix));
  server.resourceTemplate(
    {
      uriTemplate: SECTION_TEMPLATE,
      name: "protocol-notes-section",
      title: "One section of the protocol notes",
      description: "A single `## ` section of the protocol notes, by its slug (e.g. lifecycle, tools).",
      mimeType: "text/markdown",
    },
    (uri, variables) => {
      const found = sections(notes()).find((s) => s.slug === variables.section);
      if (!found) throw new RpcError(ErrorCode.ResourceNotFound, `resources/read: the notes have no section ${JSON.stringify(variables.section)}`, { uri });
      return [{ uri, mimeType: "text/markdown", text: found.text }];
    },
    { section: (value) => sectionNames(value) },
  );

  server.prompt(
    {
      name: "explain_topic",
      title: "Explain an MCP topic",
      description: "Asks the model to explain one topic of the protocol notes, with the section attached.",
      arguments: [
        { name: "topic", title: "Topic", description: "The notes section to explain, by slug (e.g. lifecycle).", required: true },
        { name: "audience", title: "Audience", description: "Who the explanation is for: beginner (default) or expert.", required: false },
      ],
    },
    (args) => {
      const found = sections(notes()).find((s) => s.slug === args.topic);
      if (!found) throw new RpcError(ErrorCode.InvalidParams, `prompts/get: "arguments.topic" names no section of the notes: ${JSON.stringify(args.topic)}`);
      const audience = args.audience ?? "beginner";
      return {
        description: `Explain "${found.title}" at ${audience} level`,
        messages: [
          { role: "user", content: text(`Explain the "${found.title}" part of the Model Context Protocol at ${audience} level, using the notes below.`) },
          { role: "user", content: { type: "resource", resource: { uri: `${NOTES_URI}/${found.slug}`, mimeType: "text/markdown", text: found.text } } },
        ],
      };
    },
    { topic: (value) => sectionNames(value), audience: (value) => ["beginner", "expert"].filter((a) => a.startsWith(value)) },
  );

  server.prompt(
    {
      name: "review_message",
      title: "Review a JSON-RPC message",
      description: "Asks the model to check one MCP message against the spec and say what is wrong with it, if anything.",
      arguments: [
        { name: "message", title: "Message", description: "The JSON-RPC message, as one line of JSON.", required: true },
        { name: "version", title: "Protocol version", description: "The negotiated protocol version (default 2025-11-25).", required: false },
      ],
    },
    (args) => ({
      description: "Review one MCP message",
      messages: [
        {
          role: "user",
          content: text(
            `Here is an MCP message sent under protocol version ${args.version ?? "2025-11-25"}:\n${args.message}\n` +
              "Is it valid? Name each field, what it means, and any rule it breaks.",
          ),
        },
      ],
    }),
    { version: (value) => ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"].filter((v) => v.startsWith(value)) },
  );

  watchNotes(() => {
    server.resourceUpdated(NOTES_URI);
    for (const section of sections(notes())) server.resourceUpdated(`${NOTES_URI}/${section.slug}`);
  }, options.notesPath);
  return server;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
