// A client driver written with the official TypeScript SDK v2 (@modelcontextprotocol/client): it
// connects in the era mode it is told, runs what an application would (discover, tools/list, echo,
// add, greet answered by an elicitation handler, summarize answered by a sampling handler, a tools
// list change heard through subscriptions/listen or, on a legacy connection, unsolicited), and prints
// one JSON report on stdout. Exit 0 if every step passed, 1 if one failed, 2 on a usage error.
// --session textbook runs the textbook edition's whole session instead (issue 20): tools/list,
// each tool with good arguments, add with bad ones (isError), an unknown tool (a protocol error),
// resources/read, prompts/get, ping, close.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients)
// Usage: node sdk-client.mjs [--steps a,b] [--session textbook] <stdio|http> <auto|2026-07-28|legacy> <command [args...] | url>
// SDK v2 defaults to legacy mode (no probe unless versionNegotiation asks for one), so every mode
// here is set explicitly.
// scripts/interop-modern.ts copies this file next to the pinned SDK so its imports resolve there.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const STEP_TIMEOUT_MS = 15_000;
const CHANGE_WAIT_MS = 5_000;

const args = process.argv.slice(2);
// --steps a,b: run only these steps after connecting (the wire transcripts keep each one small).
const only = args[0] === "--steps" ? new Set(args.splice(0, 2)[1].split(",")) : undefined;
const session = args[0] === "--session" ? args.splice(0, 2)[1] : "demo";
const [kind, mode, ...target] = args;
if (!["demo", "textbook"].includes(session) || !["stdio", "http"].includes(kind) || !["auto", "legacy"].includes(mode) && !/^\d{4}-\d{2}-\d{2}$/.test(mode ?? "") || target.length === 0) {
  process.stderr.write("usage: node sdk-client.mjs [--steps a,b] [--session textbook] <stdio|http> <auto|2026-07-28|legacy> <command [args...] | url>\n");
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
  if (only && name !== "connect" && name !== "close" && !only.has(name)) return false;
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

/** The two calls every server named like ours answers the same: echo, and add's structured sum. */
async function echoAndAdd() {
  await step("echo", async () => {
    const text = textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }));
    expect(text === "echo: hi", `echo returned ${JSON.stringify(text)}`);
    return text;
  });
  await step("add", async () => {
    const result = await client.callTool({ name: "add", arguments: { a: 3, b: 4 } });
    expect(result.structuredContent?.sum === 7 && result.isError !== true, `add returned ${JSON.stringify(result)}`);
    return result.structuredContent;
  });
}

/** The textbook edition's session (src/textbook/demo.ts): its four tools, its notes, its prompt. */
async function textbookSession() {
  if (report.era === "modern") await step("discover", async () => client.getDiscoverResult() ?? (await client.discover()));
  await step("tools/list", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(JSON.stringify(names) === JSON.stringify(["echo", "add", "get_time", "countdown"]), `tools/list returned ${names}`);
    return names;
  });
  await echoAndAdd();
  await step("get_time", async () => {
    const text = textOf(await client.callTool({ name: "get_time", arguments: {} }));
    expect(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(text ?? ""), `get_time returned ${JSON.stringify(text)}`);
    return text;
  });
  // Arguments the schema refuses are the tool's error (isError), not a protocol error.
  await step("add, bad arguments", async () => {
    const result = await client.callTool({ name: "add", arguments: { a: "three", b: 4 } });
    const text = textOf(result);
    expect(result.isError === true && text === "tools/call add: invalid arguments: a: must be number, got string", `add returned ${JSON.stringify(result)}`);
    return text;
  });
  // An unknown tool is a protocol error, -32602 (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling).
  await step("unknown tool", async () => {
    const outcome = await client.callTool({ name: "no_such_tool", arguments: {} }).then((result) => ({ result }), (error) => ({ error }));
    expect(outcome.error?.code === -32602, `no_such_tool gave ${JSON.stringify(outcome.result ?? { code: outcome.error?.code, message: outcome.error?.message })}`);
    return { code: outcome.error.code, message: outcome.error.message };
  });
  await step("resources/read", async () => {
    const { contents } = await client.readResource({ uri: "docs://demo/protocol-notes" });
    expect(contents?.length === 1 && contents[0].uri === "docs://demo/protocol-notes" && contents[0].mimeType === "text/markdown", `resources/read returned ${JSON.stringify(contents?.map(({ uri, mimeType }) => ({ uri, mimeType })))}`);
    expect(/^## /m.test(contents[0].text ?? ""), "the notes have no ## section");
    return { uri: contents[0].uri, mimeType: contents[0].mimeType, characters: contents[0].text.length };
  });
  // Its one prompt, review_message (the production demo's explain_topic is not in the textbook).
  await step("prompts/get", async () => {
    const result = await client.getPrompt({ name: "review_message", arguments: { message: "{}", version: "2024-11-05" } });
    expect(result.description === "Review one MCP message", `prompts/get returned ${JSON.stringify(result.description)}`);
    const text = result.messages?.length === 1 ? result.messages[0].content?.text ?? "" : "";
    expect(text.startsWith("Here is an MCP message sent under protocol version 2024-11-05:\n{}\n"), `prompts/get returned ${JSON.stringify(result.messages)}`);
    return { description: result.description, messages: result.messages.length };
  });
  // ping is a handshake-era method: 2026-07-28 has none, and SDK v2 refuses to send it there, so a
  // modern session checks that refusal and asks server/discover again, its one always-there method.
  await step("ping", async () => {
    const pinged = await client.ping().then((result) => ({ result }), (error) => ({ error }));
    if (report.era !== "modern") {
      expect(JSON.stringify(pinged.result) === "{}", `ping gave ${JSON.stringify(pinged.result ?? pinged.error?.message)}`);
      return pinged.result;
    }
    expect(pinged.error?.code === "METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION", `ping under 2026-07-28 gave ${JSON.stringify(pinged.result ?? pinged.error?.message)}`);
    const again = await client.discover();
    expect(again.supportedVersions?.includes("2026-07-28"), `server/discover returned ${JSON.stringify(again)}`);
    return { ping: "not a 2026-07-28 method (the SDK sends none)", discover: again.supportedVersions };
  });
}

if (connected && session === "textbook") await textbookSession();
else if (connected) {
  if (report.era === "modern") await step("discover", async () => client.getDiscoverResult() ?? (await client.discover()));
  await step("tools/list", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ["echo", "add", "greet", "summarize"]) expect(names.includes(name), `no tool ${name} in ${names}`);
    return names;
  });
  await echoAndAdd();
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

if (session === "textbook") {
  // [B]/lifecycle#shutdown on stdio: the client closes the server's input and the server exits, 0.
  // The SDK's transport keeps its child in _process (not public API): read it to see the exit code.
  const child = transport._process;
  await step("close", async () => {
    await client.close();
    expect(child?.exitCode === 0, `the server ended with code ${child?.exitCode}, signal ${child?.signalCode}`);
    return `exit ${child.exitCode}`;
  });
} else {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(report) + "\n");
process.exit(report.failed.length === 0 ? 0 : 1);
