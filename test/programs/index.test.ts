// The public entry point exports the pieces the README's reading order names.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as api from "../../src/index.js";

test("index: exports each layer's main pieces", () => {
  for (const name of ["decodeMessage", "encodeMessage", "RpcError", "ErrorCode", "LineDecoder", "PendingRequests", "Params", "Dispatcher", "Connection", "createMemoryPair", "McpServer", "ServerSession", "StreamTransport", "serveStdio", "validate", "checkSchema", "supports", "LATEST_PROTOCOL_VERSION", "McpClient", "StdioClientTransport", "StdioServerConnection", "traceTransport", "HandshakeTimeoutError"]) {
    assert.ok(name in api, `${name} is not exported`);
  }
  assert.equal(api.LATEST_PROTOCOL_VERSION, "2025-11-25");
  assert.deepEqual([...api.SUPPORTED_PROTOCOL_VERSIONS], ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
});
