// Their clients against our servers: the MCP Java SDK client (as the Spring AI chapter wires it)
// and the Spring AI MCP client starter, over stdio (demo and textbook), Streamable HTTP (also
// session per post) and the old HTTP+SSE transport. The checks themselves are in the jar
// (src/main/java/peers/spring/sdkclient and springclient); here are the sessions and their goldens.
import { CLI, DEMO_SERVER, TEXTBOOK_SERVER, type PeerContext } from "../harness.js";
import { MCP_JAVA_SDK, SPRING_AI } from "./build.js";
import { checkRecording, goldenPath, notesPlaceholders, writeHeader } from "./goldens.js";
import { checksFromJava, type Row } from "./java-process.js";
import { startListening, type Started } from "./servers.js";

const SDK: Row = { peer: "MCP Java SDK client", version: MCP_JAVA_SDK, language: "java", direction: "their client", transport: "stdio", era: "-" };
const SPRING: Row = { peer: "Spring AI MCP client", version: SPRING_AI, language: "java", direction: "their client", transport: "stdio", era: "-" };

interface Golden { name: string; row: Row; server: "demo" | "textbook"; args: string[]; era: string }

/** A stdio server command, behind the recorder when goldens are being written. */
function stdioServer(ctx: PeerContext, server: "demo" | "textbook", args: string[], golden?: string): string[] {
  const command = ["node", server === "demo" ? DEMO_SERVER : TEXTBOOK_SERVER, ...args];
  return ctx.record && golden ? ["node", CLI, "record", "--out", goldenPath(golden), ...command] : command;
}

async function finishGolden(ctx: PeerContext, golden: Golden, transport: "stdio" | "http"): Promise<void> {
  if (!ctx.record) return;
  const file = goldenPath(golden.name);
  const placeholders = notesPlaceholders(file);
  writeHeader(file, [
    `peer: ${golden.row.peer} ${golden.row.version} (java)`,
    "direction: their client",
    `server: ${golden.server}`,
    `transport: ${transport}`,
    `command: node ${golden.server === "demo" ? "dist/server.js" : "dist/textbook/demo.js"}`,
    ...(golden.args.length > 0 ? [`args: ${golden.args.join(" ")}`] : []),
    ...placeholders,
  ]);
  await ctx.check({ ...golden.row, era: golden.era, transport: transport === "http" ? "streamable-http" : "stdio" }, `golden ${golden.name}: mcp-wire check`, () => checkRecording(file, "s2c"));
}

/** `era` is the version offered: a refused session negotiates none. */
async function sdkStdio(ctx: PeerContext, jar: string, server: "demo" | "textbook", era: string, flags: string[], golden?: string): Promise<void> {
  const args = server === "demo" ? ["--roots-tool"] : [];
  await checksFromJava(ctx, { ...SDK, era }, jar, ["sdk-client", "--transport", "stdio", ...flags, "--command", ...stdioServer(ctx, server, args, golden)]);
  if (golden) await finishGolden(ctx, { name: golden, row: SDK, server, args, era }, "stdio");
}

/** Our demo over HTTP (and, for a golden, the recorder in front of it); stopped after `body`. */
async function withDemoHttp(ctx: PeerContext, args: string[], golden: Golden | undefined, body: (origin: string) => Promise<void>): Promise<void> {
  const demo = await startListening("node", [DEMO_SERVER, "--http", "--port", "0", "--host", "127.0.0.1", ...args], /Streamable HTTP at (http:\/\/\S+)\/mcp/, 30_000);
  let proxy: Started | undefined;
  try {
    if (ctx.record && golden) {
      proxy = await startListening("node", [CLI, "record", "--out", goldenPath(golden.name), "--listen", "127.0.0.1:0", "--target", `${demo.url}/mcp`], /listening on (http:\/\/\S+)\/mcp/, 30_000);
    }
    await body(proxy?.url ?? demo.url);
  } finally {
    await proxy?.stop();
    await demo.stop();
  }
  if (golden) await finishGolden(ctx, golden, "http");
}

export async function theirClients(ctx: PeerContext, jar: string): Promise<void> {
  // The MCP Java SDK 0.17.0 knows 2024-11-05, 2025-03-26 and 2025-06-18; its stdio transport offers
  // 2024-11-05 unless told otherwise (--version sets the transport's protocolVersions()).
  await sdkStdio(ctx, jar, "demo", "2024-11-05", ["--two-way"], "sdk-client-stdio-demo-2024-11-05");
  await sdkStdio(ctx, jar, "demo", "2025-03-26", ["--version", "2025-03-26", "--handshake-only"]);
  await sdkStdio(ctx, jar, "demo", "2025-06-18", ["--version", "2025-06-18", "--two-way"], "sdk-client-stdio-demo-2025-06-18");
  // The textbook server speaks 2025-11-25 (and 2026-07-28) only: to each older version it answers
  // 2025-11-25, and the SDK, which does not know that one, stops (basic/lifecycle#version-negotiation).
  for (const version of ["2024-11-05", "2025-03-26", "2025-06-18"]) await sdkStdio(ctx, jar, "textbook", version, ["--version", version, "--expect-refusal"]);
  // What a user of the SDK can do about it: a transport may name its own versions (McpTransport's
  // protocolVersions()); offered 2025-11-25, the SDK's session with the textbook goes through.
  await sdkStdio(ctx, jar, "textbook", "2025-11-25", ["--version", "2025-11-25", "--textbook"], "sdk-client-stdio-textbook-2025-11-25");

  const sdkHttp = (transport: string, flags: string[]) => (origin: string) =>
    checksFromJava(ctx, { ...SDK, transport }, jar, ["sdk-client", ...flags, "--url", flags[1] === "sse" ? origin : `${origin}/mcp`]);
  const httpGolden: Golden = { name: "sdk-client-http-demo", row: SDK, server: "demo", args: ["--roots-tool"], era: "2025-06-18" };
  await withDemoHttp(ctx, ["--roots-tool"], httpGolden, sdkHttp("streamable-http", ["--transport", "streamable", "--two-way"]));
  await withDemoHttp(ctx, ["--session-per-post"], undefined, sdkHttp("streamable-http (session per post)", ["--transport", "streamable", "--stateless"]));
  await withDemoHttp(ctx, ["--roots-tool"], undefined, sdkHttp("http+sse", ["--transport", "sse", "--two-way"]));

  // The Spring AI client starter: connections by properties only.
  const stdioConnection = (server: "demo" | "textbook", golden?: string) => stdioServer(ctx, server, [], golden)
    .map((word, at) => at === 0 ? `--spring.ai.mcp.client.stdio.connections.peer.command=${word}` : `--spring.ai.mcp.client.stdio.connections.peer.args[${at - 1}]=${word}`);
  await checksFromJava(ctx, SPRING, jar, ["spring-client", ...stdioConnection("demo", "spring-client-stdio-demo")]);
  await finishGolden(ctx, { name: "spring-client-stdio-demo", row: SPRING, server: "demo", args: [], era: "2024-11-05" }, "stdio");
  await checksFromJava(ctx, { ...SPRING, era: "2024-11-05" }, jar, ["spring-client", "--expect-refusal", ...stdioConnection("textbook")]);
  await withDemoHttp(ctx, [], undefined, (origin) => checksFromJava(ctx, { ...SPRING, transport: "streamable-http" }, jar,
    ["spring-client", `--spring.ai.mcp.client.streamable-http.connections.peer.url=${origin}`]));
  await withDemoHttp(ctx, [], undefined, (origin) => checksFromJava(ctx, { ...SPRING, transport: "http+sse" }, jar,
    ["spring-client", `--spring.ai.mcp.client.sse.connections.peer.url=${origin}`]));
}
