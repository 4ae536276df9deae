// The demo's words: what its lists say of each tool, resource, template and prompt, the production
// demo's word for word (src/demo/server-definition.ts). Data only; demo.ts gives each its work.
// [S]/tools#tool, [S]/resources#resource, [S]/resources#resource-templates, [S]/prompts#prompt.
const SAFE = { readOnlyHint: true, destructiveHint: false, idempotentHint: true,
  openWorldHint: false }; // [S]/tools#tool-annotations: hints, for the client to show
export const NOTES = "docs://demo/protocol-notes";
export const serverInfo = { name: "mcp-wire-demo", title: "mcp-wire demo server, textbook edition",
  version: "0.1.0" }; // [B]/lifecycle#initialization: Implementation
export const instructions = "A demo MCP server. Tools: echo (repeats text), add (adds two " +
  "numbers), get_time (current time, ISO 8601), countdown (waits, reporting progress). " +
  `Read ${NOTES} for notes on the protocol itself.`;

export const tools = {
  echo: { name: "echo", title: "Echo", description: "Repeats the given text back, prefixed with " +
    "\"echo: \" (and logs at debug level). Useful to check that tool calls work end to end.",
  inputSchema: { type: "object", properties: { text: { type: "string",
    description: "The text to repeat." } }, required: ["text"] },
  annotations: { title: "Echo", ...SAFE } },
  add: { name: "add", title: "Add two numbers", description: "Adds a and b and returns the sum " +
    "as structured content { sum }, with the same JSON as text.",
  inputSchema: { type: "object", properties: {
    a: { type: "number", description: "The first addend." },
    b: { type: "number", description: "The second addend." } }, required: ["a", "b"] },
  outputSchema: { type: "object", properties: { sum: { type: "number", description: "a + b" } },
    required: ["sum"] }, // [S]/tools#output-schema
  annotations: { title: "Add two numbers", ...SAFE } },
  get_time: { name: "get_time", title: "Current time", description: "Returns the server's " +
    "current time in ISO 8601 (UTC), e.g. 2026-01-31T12:00:00.000Z.",
  inputSchema: { type: "object", additionalProperties: false },
  annotations: { title: "Current time", ...SAFE, idempotentHint: false } },
  countdown: { name: "countdown", title: "Count down", description: "Counts down from `steps` to " +
    "zero, one step every `intervalMs` milliseconds, reporting progress on each step when the " +
    "call carries a progressToken, and logging (info at the start, debug per step). Cancel it " +
    "with notifications/cancelled.",
  inputSchema: { type: "object", properties: {
    steps: { type: "integer", minimum: 1, maximum: 100, description: "How many steps (1-100)." },
    intervalMs: { type: "integer", minimum: 1, maximum: 1000,
      description: "Milliseconds per step (1-1000, default 100)." } },
  required: ["steps"], additionalProperties: false },
  annotations: { title: "Count down", ...SAFE } },
};

export const notes = { uri: NOTES, name: "protocol-notes", title: "MCP protocol notes",
  description: "mcp-wire's notes on the Model Context Protocol: messages, lifecycle, features, " +
    "versions.", mimeType: "text/markdown" };
export const section = { uriTemplate: `${NOTES}/{section}`, name: "protocol-notes-section",
  title: "One section of the protocol notes", description: "A single `## ` section of the " +
    "protocol notes, by its slug (e.g. lifecycle, tools).", mimeType: "text/markdown" };

const arg = (name: string, title: string, description: string, required: boolean) =>
  ({ name, title, description, required }); // [S]/prompts#prompt: a PromptArgument
export const prompts = {
  explain_topic: { name: "explain_topic", title: "Explain an MCP topic", description: "Asks the " +
    "model to explain one topic of the protocol notes, with the section attached.", arguments: [
    arg("topic", "Topic", "The notes section to explain, by slug (e.g. lifecycle).", true),
    arg("audience", "Audience", "Who the explanation is for: beginner (default) or expert.",
      false)] },
  review_message: { name: "review_message", title: "Review a JSON-RPC message", description:
    "Asks the model to check one MCP message against the spec and say what is wrong with it, " +
    "if anything.", arguments: [
    arg("message", "Message", "The JSON-RPC message, as one line of JSON.", true),
    arg("version", "Protocol version", "The negotiated protocol version (default 2025-11-25).",
      false)] },
};
