// What the typed-handler tests share: an exact type comparison for compile-time checks, and a
// client connected to a server over an in-memory pair.
import { McpClient } from "../../src/client/client.js";
import type { ProtocolVersion } from "../../src/mcp/versions.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import type { McpServer } from "../../src/server/definition.js";

/** True when A and B are the same type, not merely assignable one way or both. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when A and B are the same type: `exact<Got, Wanted>(true)`. */
export function exact<A, B>(verdict: Equal<A, B>): void {
  void verdict;
}

export async function connected(server: McpServer, protocolVersion: ProtocolVersion = "2025-11-25"): Promise<McpClient> {
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new McpClient({ name: "c", version: "1" }, { protocolVersion });
  await client.connect(clientEnd);
  return client;
}
