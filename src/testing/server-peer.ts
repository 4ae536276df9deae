// An McpServer of the test's own process as the server a replay talks to (mcp-wire/testing): no
// child process, but the very stdio transport a spawned one reads with, on two in-memory streams.
// Not the memory pair (protocol/transport.ts), whose send() takes a message: a recording's lines go
// as raw text, so a line that is not JSON, a blank line or a batch reaches the server as recorded,
// through the same framing (and its bounds) as `node server.js` under `mcp-wire replay`.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#stdio

import { PassThrough } from "node:stream";
import type { McpServer } from "../server/definition.js";
import type { ServerConnectionOptions } from "../server/connection.js";
import { StreamTransport, type StreamTransportOptions } from "../transports/stdio.js";
import { streamPeer, type PeerExit, type PeerOptions, type ReplayPeer } from "../recordings/replay-peer.js";

/** A fresh connection of `server`, seen as lines; `closed` settles once it has closed and its last line was read. */
export function serverPeer(server: McpServer, options: PeerOptions & { connection?: ServerConnectionOptions; transport?: StreamTransportOptions } = {}): ReplayPeer {
  const input = new PassThrough();
  const output = new PassThrough();
  const connection = server.connect(new StreamTransport(input, output, options.transport), options.connection);
  // An in-process server has no exit code: its connection closing (its input ended) is its end.
  const closed = new Promise<PeerExit>((resolve) => connection.onClose(() => setImmediate(() => resolve({ code: null, signal: null }))));
  const peer = streamPeer(input, output, closed, options);
  return { ...peer, stop: () => void connection.close() };
}
