// A stdio MCP server whose tool waits on its own MCP Apps view, for the inspect page's lifecycle
// tests (test/inspect/apps-lifecycle.test.ts). Usage: node --import tsx test/helpers/waiting-app-server.ts
// `ask` names the view and does not return until the view has called `answer` (visible to apps
// only) with the word it was given in its tool input, or until the call is cancelled. A host that
// opened the view only once the result came would wait for ever. The view writes each bridge
// notification it gets in #log, one line each.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (Lifecycle, 2: the tool call and the view's initialization side by side; tool-result or tool-cancelled).
import { McpServer, text } from "../../src/server/definition.js";
import { serveStdio } from "../../src/transports/stdio-server.js";

const VIEW = "ui://waiting/ask";

const HTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>waiting</title></head>
<body><pre id="log"></pre>
<script>
"use strict";
var lines = [];
function say(line) { lines.push(line); document.getElementById("log").textContent = lines.join("\\n"); }
var nextId = 1;
function send(message) { window.parent.postMessage(message, "*"); }
window.addEventListener("message", function (event) {
  var m = event.data;
  if (!m || typeof m.method !== "string") return;
  if (m.method === "ui/resource-teardown") return send({ jsonrpc: "2.0", id: m.id, result: {} });
  if (m.method === "ui/notifications/tool-input") {
    say("input " + JSON.stringify(m.params.arguments));
    if (m.params.arguments.word) send({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "answer", arguments: { word: m.params.arguments.word } } });
  } else if (m.method === "ui/notifications/tool-result") say("result " + m.params.content[0].text);
  else if (m.method === "ui/notifications/tool-cancelled") say("cancelled " + m.params.reason);
});
send({ jsonrpc: "2.0", id: nextId++, method: "ui/initialize", params: { protocolVersion: "2026-01-26", appInfo: { name: "waiting", version: "1" }, appCapabilities: {} } });
// The host answers initialize before anything else it sends: initialized goes once that answer is in.
window.addEventListener("message", function first(event) {
  if (!event.data || event.data.id !== 1) return;
  window.removeEventListener("message", first);
  send({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
});
</script></body></html>`;

/** The calls of `ask` still waiting, by the word their view is to send back. */
const waiting = new Map<string, (word: string) => void>();

const server = new McpServer({ name: "waiting-app-server", version: "1.0.0" });
server.view({ uri: VIEW, name: "ask" }, () => HTML);
server.tool(
  {
    name: "ask",
    description: "Waits until its view answers with `word` (leave it empty and the view never answers: cancel the call).",
    inputSchema: { type: "object", properties: { word: { type: "string" } } },
    _meta: { ui: { resourceUri: VIEW } },
  },
  (args, context) => new Promise((resolve, reject) => {
    const word = String(args.word ?? "");
    waiting.set(word, (answered) => resolve({ content: [text(`the view answered ${answered}`)] }));
    context.signal.addEventListener("abort", () => { waiting.delete(word); reject(context.signal.reason); }, { once: true });
  }),
);
server.tool(
  { name: "answer", description: "The view's answer to a waiting ask.", inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] }, _meta: { ui: { visibility: ["app"] } } },
  (args) => {
    const word = String(args.word);
    const done = waiting.get(word);
    waiting.delete(word);
    done?.(word);
    return { content: [text(done ? "delivered" : "no call waits for it")] };
  },
);
serveStdio(server);
