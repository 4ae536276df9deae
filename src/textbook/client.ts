// The client, on the same connection: spawn a server, initialize, initialized, list, call, close.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { Connection, lookup } from "./connection.js";
import type { Params } from "./wire.js";
import { VERSION } from "./server.js";

export async function connect(command: string, args: string[] = []) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  // The server may ask too: this client answers ping, and -32601 to anything else.
  const connection = new Connection(child.stdout, child.stdin, (request) =>
    lookup({ ping: () => ({}) }, request.method)(request.params ?? {}, undefined!));
  const initialized = await connection.request("initialize", { // [B]/lifecycle#initialization
    protocolVersion: VERSION, // the version we speak; the server answers with the one it will
    capabilities: {}, // [B]/lifecycle#capability-negotiation: this client offers none
    clientInfo: { name: "mcp-wire-textbook-client", version: "0.1.0" }, // Implementation
  });
  connection.notify("notifications/initialized"); // [B]/lifecycle: now the session is open
  return {
    initialized,
    list: (what: "tools" | "resources" | "prompts") => connection.request(`${what}/list`),
    call: (name: string, args: Params = {}) => connection.request("tools/call", { name, arguments: args }),
    request: (method: string, params?: Params) => connection.request(method, params),
    /** [B]/lifecycle#shutdown (stdio): close the server's input, then wait for it to exit. */
    close: async () => { child.stdin.end(); return (await once(child, "exit"))[0] as number | null; },
  };
}
