// Starting what a host configuration names, as the host would, and asking it to initialize: the
// demo and the textbook from the clone, a user's own server (scripts/host-config.ts's stand-in),
// the installed bins (linked into a bin directory put first on PATH, as `npm link` or
// `npm install -g` would), and the demo over HTTP (in this process, on a free port, in place of
// README's port 3000).

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { McpClient } from "../../src/client/client.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { McpHttpServer } from "../../src/http/server.js";
import { StdioClientTransport } from "../../src/transports/stdio-client.js";
import { DEMO_URL, expectedServerName, ownServerSource, realPath, ROOT, type HostEntry } from "../../scripts/host-config.js";

interface Machine {
  ownProject: string;
  path: string;
  demoUrl: string;
}

let machine: Promise<Machine> | undefined;

/** The user's machine, made once per test process and removed when it exits. */
function userMachine(): Promise<Machine> {
  machine ??= (async () => {
    const home = mkdtempSync(join(tmpdir(), "mcp-wire-hosts-"));
    process.on("exit", () => rmSync(home, { recursive: true, force: true }));
    const ownProject = join(home, "your-project") + "/";
    mkdirSync(join(ownProject, "dist"), { recursive: true });
    writeFileSync(join(ownProject, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(ownProject, "dist/weather.js"), ownServerSource());
    const bin = join(home, "bin");
    mkdirSync(bin);
    // package.json's "bin", as npm links it.
    symlinkSync(join(ROOT, "dist/server.js"), join(bin, "mcp-wire-server"));
    symlinkSync(join(ROOT, "dist/cli.cjs"), join(bin, "mcp-wire"));
    const http = new McpHttpServer(createDemoServer());
    const listening = await http.listen();
    listening.server.unref();
    return { ownProject, path: [bin, process.env.PATH].join(delimiter), demoUrl: DEMO_URL.replace("http://127.0.0.1:3000", listening.origin) };
  })();
  return machine;
}

/** Starts (or reaches) the entry's server and checks that it answers initialize with the right name. */
export async function answersInitialize(entry: HostEntry): Promise<void> {
  const { ownProject, path, demoUrl } = await userMachine();
  let transport;
  if (entry.transport === "http") {
    assert.equal(entry.url, DEMO_URL, `${entry.host} "${entry.name}": README's HTTP examples use ${DEMO_URL}`);
    transport = new HttpClientTransport(demoUrl);
  } else {
    const command = entry.command === "node" ? process.execPath : entry.command;
    transport = new StdioClientTransport({ command, args: entry.args.map((arg) => realPath(arg, ownProject)), env: { ...process.env, PATH: path } });
  }
  const client = new McpClient({ name: entry.host, version: "1.0.0" }, { protocolVersion: "2025-11-25" });
  try {
    await client.connect(transport);
    assert.equal(client.serverInfo?.name, expectedServerName(entry), `${entry.host} "${entry.name}": the configured server answered as another`);
  } finally {
    await client.close();
  }
}
