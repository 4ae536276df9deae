// The demo, `node dist/textbook/demo.js`: echo, add, get_time, countdown (progress, cancellation),
// the protocol notes, a prompt; both generations, on stdio. src/demo/ has more, in more words.
import { readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { Connection } from "./connection.js";
import { modern } from "./modern.js";
import { failed, Server, text, type Definition } from "./server.js";
import type { Params } from "./wire.js";
// [S]/tools#tool: inputSchema and outputSchema are JSON Schema objects (required: all, by default).
const object = (properties: Params, required = Object.keys(properties), more = {}) =>
  ({ type: "object", properties, required, ...more });
const string = { type: "string" }, number = { type: "number" };
const step = (maximum: number) => ({ type: "integer", minimum: 1, maximum });
const steps = (n: number) => `${n} step${n === 1 ? "" : "s"}`;
const demo: Definition = { // [S]/tools#tool, [S]/resources#resource, [S]/prompts#prompt
  serverInfo: { name: "mcp-wire-demo", version: "0.1.0" }, // [B]/lifecycle#initialization
  tools: [{ name: "echo", title: "Echo", description: "Repeats the text (and logs at debug).",
    inputSchema: object({ text: string }),
    run: ({ text: said }, context) => {
      context.log("debug", `echo: repeating ${String(said).length} characters`, "echo");
      return { content: [text(`echo: ${said}`)] };
    } }, { name: "add", title: "Add two numbers", description: "Adds a and b, as { sum }.",
    inputSchema: object({ a: number, b: number }), // [S]/tools#output-schema: structuredContent's
    outputSchema: object({ sum: { ...number, description: "a + b" } }),
    run: ({ a, b }) => { // JSON has no Infinity: a sum beyond the doubles is the tool's error
      const sum = (a as number) + (b as number), too = `the sum of ${a} and ${b}`;
      if (!Number.isFinite(sum)) return failed(`add: ${too} is not a finite number`);
      // [S]/tools#structured-content: with its JSON as text too, for clients that read only text.
      return { content: [text(JSON.stringify({ sum }))], structuredContent: { sum } };
    } }, { name: "get_time", title: "Current time", description: "The time now, in ISO 8601.",
    inputSchema: { type: "object", additionalProperties: false },
    run: () => ({ content: [text(new Date().toISOString())] }),
  }, { name: "countdown", title: "Count down", description: "Counts down, reporting progress.",
    inputSchema: object({ steps: step(100), intervalMs: step(1000) }, ["steps"],
      { additionalProperties: false }),
    run: async ({ steps: count, intervalMs = 100 }, context) => {
      const [n, ms] = [count as number, intervalMs as number];
      context.log("info", `countdown: starting, ${steps(n)} of ${ms} ms`, "countdown");
      for (let left = n - 1; left >= 0; left--) {
        await delay(ms, undefined, { signal: context.signal }); // cancelled: no answer
        context.log("debug", `countdown: ${left} to go`, "countdown");
        context.progress(n - left, n, `${left} to go`);
      }
      return { content: [text(`countdown: done after ${steps(n)}`)] };
    } }],
  resources: [{ uri: "docs://demo/protocol-notes", name: "protocol-notes",
    title: "MCP protocol notes", mimeType: "text/markdown", description: "mcp-wire's notes on " +
      "the Model Context Protocol: messages, lifecycle, features, versions.",
    read: () => readFileSync(new URL("../../PROTOCOL_NOTES.md", import.meta.url), "utf8") }],
  prompts: [{ name: "review_message", title: "Review a JSON-RPC message", arguments: [
    { name: "message", description: "One MCP message, as a line of JSON.", required: true },
    { name: "version", description: "Protocol version (default 2025-11-25).", required: false }],
  get: ({ message, version = "2025-11-25" }) => ({ description: "Review one MCP message",
    messages: [{ role: "user", content: text("Here is an MCP message sent under protocol " +
      `version ${version}:\n${message}\nIs it valid? Name each field, what it means, and any ` +
      "rule it breaks.") }] }) }], // [S]/prompts#getting-a-prompt: PromptMessage
};
const server = new Server(demo);
new Connection(process.stdin, process.stdout, modern(server), server.hear);
