// The client, on the same connection: spawn a server, initialize, initialized, list, call, close.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { Connection, lookup } from "./connection.js";
import { VERSION } from "./server.js";
export async function connect(command: string, args: string[] = []) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  // The server may ask too: this client answers ping ([B]/utilities/ping), and -32601 to the rest.
  const connection = new Connection(child.stdout, child.stdin,
    ({ method }, context) => lookup({ ping: () => ({}) }, method)({}, context));
  const request = connection.request.bind(connection);
  const initialized = await request("initialize", { // [B]/lifecycle#initialization
    protocolVersion: VERSION, // the version we speak; the answer says the one the server will
    capabilities: {}, // [B]/lifecycle#capability-negotiation: this client offers none
    clientInfo: { name: "mcp-wire-textbook-client", version: "0.1.0" } }); // Implementation
  connection.notify("notifications/initialized"); // [B]/lifecycle: the operation phase begins
  return { initialized, request, list: (what: string) => request(`${what}/list`),
    call: (name: string, args = {}) => request("tools/call", { name, arguments: args }),
    // [B]/lifecycle#stdio: the client closes the server's input, then waits for it to exit.
    close: async () => (child.stdin.end(), (await once(child, "exit"))[0] as number | null) };
}
