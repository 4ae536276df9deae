// Starting what a host configuration names, as the host would, and asking it to initialize, on a
// user's machine that scripts/host-config.ts makes (their own server, the bins on PATH, the demo
// over HTTP on a free port in place of README's 3000).

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpClient } from "../../src/client/client.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { StdioClientTransport } from "../../src/transports/stdio-client.js";
import { expectedServerName, makeUserMachine, onMachine, type HostEntry, type UserMachine } from "../../scripts/host-config.js";

let machine: Promise<UserMachine> | undefined;

/** The user's machine, made once per test process and removed when it exits. */
function userMachine(): Promise<UserMachine> {
  if (!machine) {
    const home = mkdtempSync(join(tmpdir(), "mcp-wire-hosts-"));
    process.on("exit", () => rmSync(home, { recursive: true, force: true }));
    machine = makeUserMachine(home);
  }
  return machine;
}

/** Starts (or reaches) the entry's server and checks that it answers initialize with the right name. */
export async function answersInitialize(entry: HostEntry): Promise<void> {
  const machine = await userMachine();
  const real = onMachine(entry, machine);
  const transport = real.transport === "http"
    ? new HttpClientTransport(real.url)
    : new StdioClientTransport({ command: real.command === "node" ? process.execPath : real.command, args: real.args, env: { ...process.env, PATH: machine.path } });
  const client = new McpClient({ name: entry.host, version: "1.0.0" }, { protocolVersion: "2025-11-25" });
  try {
    await client.connect(transport);
    assert.equal(client.serverInfo?.name, expectedServerName(entry), `${entry.host} "${entry.name}": the configured server answered as another`);
  } finally {
    await client.close();
  }
}
