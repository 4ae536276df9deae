// The one tools/call the tour follows, in each generation, and what a host sends before it (setup,
// not on the path): a 2025-11-25 session's handshake; for 2026-07-28, whose requests each carry
// their own envelope in `_meta`, the `server/discover` a host sends first to learn the server.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning

export interface TraceMessage {
  jsonrpc: "2.0";
  id?: number;
  method: string;
  params?: { [key: string]: unknown };
}

export interface Generation {
  version: "2025-11-25" | "2026-07-28";
  setup: TraceMessage[];
  call: TraceMessage;
}

const ADD = { name: "add", arguments: { a: 2, b: 40 } };
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "tour", version: "1" },
};

export const GENERATIONS: Generation[] = [
  {
    version: "2025-11-25",
    setup: [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "tour", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ],
    call: { jsonrpc: "2.0", id: 7, method: "tools/call", params: ADD },
  },
  {
    version: "2026-07-28",
    setup: [{ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } }],
    call: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...ADD, _meta: ENVELOPE } },
  },
];

/** One function that ran: where it begins in src/ (0-based line and column) and V8's name for it. */
export interface RanFunction {
  file: string;
  line: number;
  column: number;
  name: string;
}

/** What scripts/tour/trace.ts prints: the call, its answer, and the functions that ran for it in order of first call. */
export interface Trace {
  version: Generation["version"];
  call: TraceMessage;
  answer: string;
  functions: RanFunction[];
}
