// The client the official conformance suite drives (`conformance client --command CMD`): it plays
// one scenario against the suite's mock server, over HTTP, and exits 0 if every step worked.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http
// Run: `npx tsx scripts/conformance-client.ts <server URL>` with MCP_CONFORMANCE_SCENARIO set; the
// URL is the last argument. MCP_WIRE_TRACE=1 prints every message on stderr. The auth/* scenarios
// are in conformance-client-auth.ts.

import { McpClient } from "../src/client/client.js";
import { HttpClientTransport } from "../src/http/client.js";
import { traceTransport } from "../src/protocol/trace.js";
import type { Transport } from "../src/protocol/transport.js";
import { authScenarios, conformanceContext, type Scenario } from "./conformance-client-auth.js";
import { authExtensionScenarios } from "./conformance-auth-extensions.js";

const scenarios: Record<string, Scenario> = {
  ...authScenarios,
  ...authExtensionScenarios,
  initialize: { run: async () => {} },
  tools_call: {
    async run(client) {
      const tools = await client.listAllTools();
      if (!tools.some((tool) => tool.name === "add_numbers")) throw new Error(`tools/list: no add_numbers among ${tools.map((t) => t.name).join(", ")}`);
      const result = await client.callTool("add_numbers", { a: 2, b: 3 });
      if (result.isError) throw new Error(`tools/call add_numbers: the tool failed: ${JSON.stringify(result.content)}`);
    },
  },
  // SEP-1034: the user accepts without filling anything in; the client fills in the schema's defaults.
  "elicitation-sep1034-client-defaults": {
    options: { elicitation: { form: () => ({ action: "accept", content: {} }) } },
    async run(client) {
      await client.callTool("test_client_elicitation_defaults", {});
    },
  },
  // SEP-1699: the server closes the call's stream after a priming event; the result comes on the resumed GET.
  "sse-retry": {
    async run(client) {
      await client.callTool("test_reconnection", {});
    },
  },
};

async function main(): Promise<void> {
  const name = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const url = process.argv.at(-1) ?? "";
  const scenario = scenarios[name];
  if (!scenario) throw new Error(`unknown scenario ${JSON.stringify(name)}; this client plays ${Object.keys(scenarios).join(", ")}`);
  if (!/^https?:\/\//.test(url)) throw new Error(`expected the server URL as the last argument, got ${JSON.stringify(url)}`);

  // Problems nobody waits on (a refused GET stream, say) are shown, but the scenario decides.
  const report = (message: string) => void process.stderr.write(`conformance-client: ${message}\n`);
  const authorization = scenario.authorization?.(conformanceContext());
  let transport: Transport = new HttpClientTransport(url, { onProblem: report, ...(authorization && { authorization }) });
  if (process.env.MCP_WIRE_TRACE === "1") {
    transport = traceTransport(transport, (event) => {
      if (event.kind === "sent" || event.kind === "received") process.stderr.write(`${event.kind === "sent" ? "→" : "←"} ${event.text}\n`);
    });
  }
  const client = new McpClient({ name: "mcp-wire-conformance-client", version: "0.1.0" }, {
    handshakeTimeoutMs: 10_000,
    timeouts: { idleMs: 20_000, maxTotalMs: 25_000 },
    onProblem: report,
    ...scenario.options,
  });
  try {
    await client.connect(transport);
    await scenario.run(client);
  } finally {
    await client.close();
  }
}

main().then(
  () => {
    process.exitCode = 0;
    // Everything is closed; a stray handle must not hold the suite's 30 s budget.
    setTimeout(() => process.exit(), 500).unref();
  },
  (error: unknown) => {
    process.stderr.write(`conformance-client: ${process.env.MCP_CONFORMANCE_SCENARIO}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
