// recordSession (mcp-wire/testing): a session the test drives with an McpClient, kept as a session
// recording (src/recordings/recording.ts, form 2) to write as a golden. What `mcp-wire record` keeps
// as a proxy between a host and a server, taken here at the client's transport (protocol/trace.ts),
// which sees every line in the order it crossed: against a spawned command over stdio, or against an
// McpServer of the test's own process over the memory pair.
// Times are left out unless asked for: a golden that changes on every run is no golden.

import type { Implementation } from "../mcp/lifecycle.js";
import { McpClient, type ClientOptions } from "../client/client.js";
import { EraCache } from "../client/modern/era-cache.js";
import { createMemoryPair, type Transport } from "../protocol/transport.js";
import { traceTransport } from "../protocol/trace.js";
import { formatSession, headerLines, quoteArgument, type WireEntry } from "../recordings/recording.js";
import type { McpServer } from "../server/definition.js";
import { StdioClientTransport } from "../transports/stdio-client.js";

/** The server to record: a command started over stdio, or an McpServer served in process. */
export type RecordTarget = { command: string; args?: string[]; onStderr?: (line: string) => void } | { server: McpServer };

export interface RecordSessionOptions {
  /** Prose for the header ("# " is put before each line): what the golden shows. */
  prose?: string[];
  /** JSON pointers for "# ignore:" lines: values that change from run to run. */
  ignore?: string[];
  /** Keep each line's time ("+MS", milliseconds since the session began). Default false. */
  times?: boolean;
  /** The client's name and version (default mcp-wire-testing 1.0.0). */
  clientInfo?: Implementation;
  /** The client's options. Its eraCache defaults to a fresh one, so one session's probe does not decide the next's. */
  client?: ClientOptions;
}

const DEFAULT_CLIENT: Implementation = { name: "mcp-wire-testing", version: "1.0.0" };

/**
 * Connects a client to `target`, runs `drive` with it, closes it, and returns the recording's text.
 * A `drive` that throws still closes the client; its error is thrown, and nothing is returned.
 */
export async function recordSession(target: RecordTarget, drive: (client: McpClient) => Promise<void>, options: RecordSessionOptions = {}): Promise<string> {
  const started = Date.now();
  const entries: WireEntry[] = [];
  const keep = (dir: WireEntry["dir"], text: string, message: unknown) => {
    entries.push({ dir, text, message, ...(options.times && { at: Date.now() - started }) });
  };
  const transport = traceTransport(transportTo(target), (event) => {
    if (event.kind === "sent") keep("c2s", event.text, event.message);
    else if (event.kind === "received") keep("s2c", event.text, event.message);
  });
  const client = new McpClient(options.clientInfo ?? DEFAULT_CLIENT, { eraCache: new EraCache(), ...options.client });
  try {
    await client.connect(transport);
    await drive(client);
  } finally {
    await client.close();
  }
  const command = "command" in target ? [target.command, ...(target.args ?? [])].map(quoteArgument).join(" ") : undefined;
  const prose = options.prose ?? ["command" in target ? "recorded by mcp-wire/testing" : "recorded by mcp-wire/testing, against an McpServer in process"];
  const lines = headerLines({ prose, ...(command !== undefined && { transport: "stdio", command }), ...(options.ignore && { ignore: options.ignore }) });
  return formatSession({ form: "session", header: { lines, ignore: [], args: [] }, entries, exchanges: new Map() });
}

function transportTo(target: RecordTarget): Transport {
  if ("server" in target) {
    const [clientEnd, serverEnd] = createMemoryPair();
    target.server.connect(serverEnd);
    return clientEnd;
  }
  return new StdioClientTransport({ command: target.command, args: target.args ?? [], ...(target.onStderr && { onStderr: target.onStderr }) });
}
