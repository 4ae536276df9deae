// The demo: what `node dist/textbook/demo.js` serves, the production demo's texts word for word
// (src/demo/server-definition.ts): four of its tools, the notes, their sections, two prompts.
import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { Connection } from "./connection.js";
import { RESOURCE_NOT_FOUND, RpcError, type Params } from "./wire.js";
import { invalid, serve, Server, text, type Definition } from "./server.js";
import { modern } from "./modern.js";

const NOTES = "docs://demo/protocol-notes";
const notes = () => readFileSync(new URL("../../PROTOCOL_NOTES.md", import.meta.url), "utf8");
const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
/** The notes' `## ` sections (outside code fences), each with its title and text. */
function sections(): { slug: string; title: string; text: string }[] {
  let fenced = false;
  const found: { title: string; lines: string[] }[] = [];
  for (const line of notes().split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (!fenced && line.startsWith("## ")) found.push({ title: line.slice(3).trim(), lines: [] });
    found.at(-1)?.lines.push(line);
  }
  return found.map(({ title, lines }) => ({ slug: slug(title), title, text: lines.join("\n").trimEnd() + "\n" }));
}
const SAFE = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const md = (uri: string, text: string) => [{ uri, mimeType: "text/markdown", text }];
const arg = (name: string, title: string, description: string, required: boolean) =>
  ({ name, title, description, required });
const delay = (ms: number, signal: AbortSignal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener("abort", () => { clearTimeout(timer); reject(signal.reason); });
});
const steps = (n: number) => `${n} step${n === 1 ? "" : "s"}`;

export const demo: Definition = {
  serverInfo: { name: "mcp-wire-demo", title: "mcp-wire demo server, textbook edition", version: "0.1.0" },
  instructions: "A demo MCP server. Tools: echo (repeats text), add (adds two numbers), get_time (current " +
    `time, ISO 8601), countdown (waits, reporting progress). Read ${NOTES} for notes on the protocol itself.`,
  tools: [{
    name: "echo", title: "Echo", description: "Repeats the given text back, prefixed with \"echo: \" (and " +
      "logs at debug level). Useful to check that tool calls work end to end.",
    inputSchema: { type: "object", properties: { text: { type: "string", description: "The text to repeat." } },
      required: ["text"] },
    annotations: { title: "Echo", ...SAFE },
    run: (args, context) => {
      context.log("debug", `echo: repeating ${(args.text as string).length} characters`, "echo");
      return { content: [text(`echo: ${args.text}`)] };
    },
  }, {
    name: "add", title: "Add two numbers",
    description: "Adds a and b and returns the sum as structured content { sum }, with the same JSON as text.",
    inputSchema: { type: "object", properties: { a: { type: "number", description: "The first addend." },
      b: { type: "number", description: "The second addend." } }, required: ["a", "b"] },
    outputSchema: { type: "object", properties: { sum: { type: "number", description: "a + b" } }, required: ["sum"] },
    annotations: { title: "Add two numbers", ...SAFE },
    run: ({ a, b }) => {
      const sum = (a as number) + (b as number);
      const overflow = `add: the sum of ${a} and ${b} is not a finite number`;
      if (!Number.isFinite(sum)) return { content: [text(overflow)], isError: true };
      // [S]/tools#structured-content: with its JSON as text too, for clients that read only text.
      return { content: [text(JSON.stringify({ sum }))], structuredContent: { sum } };
    },
  }, {
    name: "get_time", title: "Current time",
    description: "Returns the server's current time in ISO 8601 (UTC), e.g. 2026-01-31T12:00:00.000Z.",
    inputSchema: { type: "object", additionalProperties: false },
    annotations: { title: "Current time", ...SAFE, idempotentHint: false },
    run: () => ({ content: [text(new Date().toISOString())] }),
  }, {
    name: "countdown", title: "Count down", description: "Counts down from `steps` to zero, one step every " +
      "`intervalMs` milliseconds, reporting progress on each step when the call carries a progressToken, and " +
      "logging (info at the start, debug per step). Cancel it with notifications/cancelled.",
    inputSchema: { type: "object", properties: {
      steps: { type: "integer", minimum: 1, maximum: 100, description: "How many steps (1-100)." },
      intervalMs: { type: "integer", minimum: 1, maximum: 1000,
        description: "Milliseconds per step (1-1000, default 100)." },
    }, required: ["steps"], additionalProperties: false },
    annotations: { title: "Count down", ...SAFE },
    run: async (args, context) => {
      const [count, ms] = [args.steps as number, (args.intervalMs as number | undefined) ?? 100];
      context.log("info", `countdown: starting, ${steps(count)} of ${ms} ms`, "countdown");
      for (let done = 1; done <= count; done++) {
        await delay(ms, context.signal);
        context.log("debug", `countdown: ${count - done} to go`, "countdown");
        context.progress(done, count, `${count - done} to go`);
      }
      return { content: [text(`countdown: done after ${steps(count)}`)] };
    },
  }],
  resources: [{ uri: NOTES, name: "protocol-notes", title: "MCP protocol notes", description: "mcp-wire's " +
    "notes on the Model Context Protocol: messages, lifecycle, features, versions.", mimeType: "text/markdown",
  read: () => md(NOTES, notes()) }],
  resourceTemplates: [{ uriTemplate: `${NOTES}/{section}`, name: "protocol-notes-section",
    title: "One section of the protocol notes", mimeType: "text/markdown",
    description: "A single `## ` section of the protocol notes, by its slug (e.g. lifecycle, tools).",
    read: (uri) => {
      if (!uri.startsWith(`${NOTES}/`)) return undefined;
      const name = uri.slice(NOTES.length + 1);
      const found = sections().find((section) => section.slug === name);
      if (found) return md(uri, found.text);
      const missing = `resources/read: the notes have no section ${JSON.stringify(name)}`;
      throw new RpcError(RESOURCE_NOT_FOUND, missing, { uri });
    } }],
  prompts: [{
    name: "explain_topic", title: "Explain an MCP topic",
    description: "Asks the model to explain one topic of the protocol notes, with the section attached.",
    arguments: [arg("topic", "Topic", "The notes section to explain, by slug (e.g. lifecycle).", true),
      arg("audience", "Audience", "Who the explanation is for: beginner (default) or expert.", false)],
    get: ({ topic, audience = "beginner" }) => {
      const found = sections().find((section) => section.slug === topic);
      if (!found) throw invalid("prompts/get", "arguments.topic", `names no section of the notes: ${JSON.stringify(topic)}`);
      const ask = `Explain the "${found.title}" part of the Model Context Protocol at ${audience} level, using the notes below.`;
      const resource = { uri: `${NOTES}/${found.slug}`, mimeType: "text/markdown", text: found.text };
      return { description: `Explain "${found.title}" at ${audience} level`, messages: [ // [S]/prompts
        { role: "user", content: text(ask) }, { role: "user", content: { type: "resource", resource } }] };
    },
  }, {
    name: "review_message", title: "Review a JSON-RPC message",
    description: "Asks the model to check one MCP message against the spec and say what is wrong with it, if anything.",
    arguments: [arg("message", "Message", "The JSON-RPC message, as one line of JSON.", true),
      arg("version", "Protocol version", "The negotiated protocol version (default 2025-11-25).", false)],
    get: ({ message, version = "2025-11-25" }): Params => ({ description: "Review one MCP message", messages: [
      { role: "user", content: text(`Here is an MCP message sent under protocol version ${version}:\n${message}\n` +
        "Is it valid? Name each field, what it means, and any rule it breaks.") }] }),
  }],
};

// Run as a program (not imported by a test): serve stdin and stdout, both generations.
export function main(input: Readable = process.stdin, output: Writable = process.stdout): Connection {
  const server = new Server(demo);
  return serve(server, modern(server), input, output);
}
if (process.argv[1] === fileURLToPath(import.meta.url)) main();
