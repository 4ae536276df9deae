// The benchmark's baseline: the least work an honest newline-delimited JSON-RPC echo server can do.
// Node built-ins only. Each line is parsed and answered with a stringified response; no validation,
// no lifecycle, no backpressure handling. It answers initialize and tools/call echo. The answers to
// one chunk of input leave in one write, as ours leave in one write per tick (StreamTransport's
// #flush; ours also writes at every 16 KiB, the stream's mark, which this one does not bother
// with): a baseline that paid a write() per answer would cost itself more than ours costs us, and
// flatter the ratio (issue 10).

const parts = [];
let length = 0;

/** The answers to the chunk being read, written together once it is done. */
let out = "";

process.stdin.on("data", (chunk) => {
  let start = 0;
  for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
    parts.push(chunk.subarray(start, newline));
    const line = parts.length === 1 ? parts[0] : Buffer.concat(parts, length + newline - start);
    parts.length = 0;
    length = 0;
    start = newline + 1;
    if (line.length > 0) answer(JSON.parse(line.toString("utf8")));
  }
  if (start < chunk.length) {
    parts.push(chunk.subarray(start));
    length += chunk.length - start;
  }
  if (out.length > 0) {
    process.stdout.write(out);
    out = "";
  }
});

function answer(message) {
  if (message.id === undefined) return;
  let response;
  if (message.method === "initialize") {
    response = {
      jsonrpc: "2.0",
      id: message.id,
      result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "baseline", version: "1" },
      },
    };
  } else if (message.method === "tools/call" && message.params.name === "echo") {
    const text = "echo: " + message.params.arguments.text;
    response = { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text }] } };
  } else {
    response = { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "method not found" } };
  }
  out += JSON.stringify(response) + "\n";
}
