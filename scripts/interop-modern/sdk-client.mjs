// A client driver written with the official TypeScript SDK v2 (@modelcontextprotocol/client): it
// connects in the era mode it is told, runs what an application would (discover, tools/list, echo,
// add, greet answered by an elicitation handler, summarize answered by a sampling handler, a tools
// list change heard through subscriptions/listen or, on a legacy connection, unsolicited), and prints
// one JSON report on stdout. Exit 0 if every step passed, 1 if one failed, 2 on a usage error.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients)
// Usage: node sdk-client.mjs [--steps a,b] <stdio|http> <auto|2026-07-28|legacy> <command [args...] | url>
// SDK v2 defaults to legacy mode (SPEC_2026.md §11.15), so every mode here is set explicitly.
// scripts/interop-modern.ts copies this file next to the pinned SDK so its imports resolve there.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const STEP_TIMEOUT_MS = 15_000;
const CHANGE_WAIT_MS = 5_000;

const args = process.argv.slice(2);
// --steps a,b: run only these steps after connecting (the wire transcripts keep each one small).
const only = args[0] === "--steps" ? new Set(args.splice(0, 2)[1].split(",")) : undefined;
const [kind, mode, ...target] = args;
if (!["stdio", "http"].includes(kind) || !["auto", "legacy"].includes(mode) && !/^\d{4}-\d{2}-\d{2}$/.test(mode ?? "") || target.length === 0) {
  process.stderr.write("usage: node sdk-client.mjs [--steps a,b] <stdio|http> <auto|2026-07-28|legacy> <command [args...] | url>\n");
  process.exit(2);
}

const versionNegotiation = { mode: mode === "auto" || mode === "legacy" ? mode : { pin: mode } };
const report = { transport: kind, mode, steps: {}, failed: [] };
const seen = { elicitations: [], samplings: [], toolsChanged: 0 };

const client = new Client({ name: "sdk-v2-interop-client", version: "2.4.0" }, { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation });
// The same handlers answer a legacy server's real requests and a modern server's input_required rounds.
client.setRequestHandler("elicitation/create", async (request) => {
  seen.elicitations.push(request.params?.message ?? request.message);
  return { action: "accept", content: { name: "Ada" } };
});
client.setRequestHandler("sampling/createMessage", async () => {
  seen.samplings.push(1);
  return { role: "assistant", content: { type: "text", text: "A short summary." }, model: "sdk-v2-stub-model", stopReason: "endTurn" };
});
client.setNotificationHandler("notifications/tools/list_changed", () => void seen.toolsChanged++);

/** Runs one step under a deadline; its value goes in the report, its failure in `failed`. */
async function step(name, body) {
  if (only && name !== "connect" && !only.has(name)) return false;
  let timer;
  try {
    const deadline = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS)));
    report.steps[name] = await Promise.race([body(), deadline]);
    return true;
  } catch (error) {
    report.steps[name] = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), code: error?.code };
    report.failed.push(name);
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

const textOf = (result) => result.content?.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");

const transport = kind === "stdio"
  ? new StdioClientTransport({ command: target[0], args: target.slice(1), stderr: "inherit" })
  : new StreamableHTTPClientTransport(new URL(target[0]));

const connected = await step("connect", async () => {
  await client.connect(transport);
  report.era = client.getProtocolEra();
  report.protocolVersion = client.getNegotiatedProtocolVersion();
  report.serverInfo = client.getServerVersion();
  report.serverCapabilities = client.getServerCapabilities();
  if (mode !== "legacy" && mode !== "auto") expect(report.protocolVersion === mode, `pinned ${mode}, negotiated ${report.protocolVersion}`);
  return `${report.era} ${report.protocolVersion}`;
});

if (connected) {
  if (report.era === "modern") await step("discover", async () => client.getDiscoverResult() ?? (await client.discover()));
  await step("tools/list", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ["echo", "add", "greet", "summarize"]) expect(names.includes(name), `no tool ${name} in ${names}`);
    return names;
  });
  await step("echo", async () => {
    const text = textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }));
    expect(text === "echo: hi", `echo returned ${JSON.stringify(text)}`);
    return text;
  });
  await step("add", async () => {
    const result = await client.callTool({ name: "add", arguments: { a: 3, b: 4 } });
    expect(result.structuredContent?.sum === 7, `add returned ${JSON.stringify(result)}`);
    return result.structuredContent;
  });
  await step("greet", async () => {
    const before = seen.elicitations.length;
    const text = textOf(await client.callTool({ name: "greet", arguments: {} }));
    expect(seen.elicitations.length === before + 1, `the elicitation handler ran ${seen.elicitations.length - before} times; greet returned ${JSON.stringify(text)}`);
    expect(text === "Hello, Ada!", `greet returned ${JSON.stringify(text)}`);
    return text;
  });
  await step("summarize", async () => {
    const before = seen.samplings.length;
    const text = textOf(await client.callTool({ name: "summarize", arguments: { text: "MCP has two generations." } }));
    expect(seen.samplings.length === before + 1, `the sampling handler ran ${seen.samplings.length - before} times; summarize returned ${JSON.stringify(text)}`);
    expect(text === "A short summary.", `summarize returned ${JSON.stringify(text)}`);
    return text;
  });
  if (report.serverCapabilities?.tools?.listChanged) {
    await step("tools list change", async () => {
      // Modern servers deliver changes only on a listen stream; legacy ones send them unsolicited.
      const subscription = report.era === "modern" ? await client.listen({ toolsListChanged: true }) : undefined;
      const before = seen.toolsChanged;
      try {
        const toggled = await client.callTool({ name: "toggle_extra", arguments: {} });
        expect(toggled.isError !== true, `toggle_extra failed: ${textOf(toggled)}`);
        const started = Date.now();
        while (seen.toolsChanged === before && Date.now() - started < CHANGE_WAIT_MS) await new Promise((r) => setTimeout(r, 20));
        // Put the list back, so the next run (or the next client of an HTTP server) sees the same tools.
        await client.callTool({ name: "toggle_extra", arguments: {} });
      } finally {
        await subscription?.close();
      }
      expect(seen.toolsChanged > before, `no notifications/tools/list_changed within ${CHANGE_WAIT_MS} ms`);
      return subscription ? { honoredFilter: subscription.honoredFilter, changes: seen.toolsChanged - before } : { unsolicited: seen.toolsChanged - before };
    });
  }
}

await client.close().catch(() => {});
process.stdout.write(JSON.stringify(report) + "\n");
process.exit(report.failed.length === 0 ? 0 : 1);
