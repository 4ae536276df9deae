// A small stdio MCP server whose answers a test sets (for mcp-wire replay's tests): run as
// `node -e SCRIPTED_SERVER '<options JSON>'`, so it starts fast and needs no build.
// It answers initialize; tools/call "echo" logs a notifications/message, then answers
// `${prefix}${text}`; "ask" sends a sampling/createMessage request of its own (ids
// `${serverIdPrefix}1`, ...) and answers with what the client said; "exit" exits with code 3;
// "hang" never answers; "flood" sends notifications without end, "endless" a line without end
// (hostile servers, for replay's bounds). With linger it keeps running after its input ends.

export interface ScriptedOptions {
  /** What "echo" puts before the text (default "echo: "). */
  prefix?: string;
  /** Prefix of the ids of the server's own requests (default: numbers from 100). */
  serverIdPrefix?: string;
  /** Keep running after stdin ends, until killed. */
  linger?: boolean;
}

const SOURCE = String.raw`
const options = JSON.parse(process.argv[1] || "{}");
const prefix = options.prefix ?? "echo: ";
if (options.linger) setInterval(() => {}, 60000);
let next = 0;
const waiting = new Map();
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined) {
    const then = waiting.get(JSON.stringify(message.id));
    if (then) then(message);
    return;
  }
  if (message.method === "initialize") {
    send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {}, logging: {} }, serverInfo: { name: "scripted", version: "1" } } });
  } else if (message.method === "tools/call") {
    const name = message.params.name;
    if (name === "echo") {
      send({ method: "notifications/message", params: { level: "info", data: "echoing" } });
      send({ id: message.id, result: { content: [{ type: "text", text: prefix + message.params.arguments.text }] } });
    } else if (name === "ask") {
      next++;
      const id = options.serverIdPrefix === undefined ? 99 + next : options.serverIdPrefix + next;
      waiting.set(JSON.stringify(id), (answer) => send({ id: message.id, result: { content: [{ type: "text", text: "model said: " + answer.result.content.text }] } }));
      send({ id, method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: message.params.arguments.question } }], maxTokens: 10 } });
    } else if (name === "exit") process.exit(3);
    else if (name === "flood") setInterval(() => { for (let i = 0; i < 50; i++) send({ method: "notifications/message", params: { level: "info", data: i } }); }, 1);
    else if (name === "endless") setInterval(() => process.stdout.write("x".repeat(4096)), 1);
  } else if ("id" in message) send({ id: message.id, result: {} });
});
`;

/** The command line that starts the scripted server. */
export function scriptedServer(options: ScriptedOptions = {}): string[] {
  return [process.execPath, "-e", SOURCE, JSON.stringify(options)];
}
