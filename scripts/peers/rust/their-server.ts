// Our CLI against rmcp's server (src/server.rs) on stdio and Streamable HTTP: tools, call, read,
// get, discover, in auto and pinned versions. rmcp 3.11's server speaks both generations, so auto
// must pick 2026-07-28 (server/discover); with --legacy it supports 2025-11-25 and older only, and
// answers server/discover with -32022 (unsupported version), so auto must fall back to initialize
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning#backward-compatibility-with-initialization-based-versions).
import assert from "node:assert/strict";
import { CLI, runCommand, tailOf, type PeerContext, type Ran } from "../harness.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRecorderProxy, startRmcpHttp } from "./processes.js";
import { goldenPath, labelGolden } from "./goldens.js";
import { RMCP } from "./their-client.js";

interface Target { transport: "stdio" | "streamable-http"; legacy: boolean; url?: string }

const NOTES_URI = "rmcp-peer://notes";

function cliArgs(binary: string, target: Target, words: string[]): string[] {
  const server = ["server", ...(target.legacy ? ["--legacy"] : [])];
  return target.url ? [CLI, "--url", target.url, ...words] : [CLI, ...words, "--", binary, ...server];
}

async function cli(binary: string, target: Target, words: string[]): Promise<Ran & { json: Record<string, unknown> }> {
  const ran = await runCommand("node", cliArgs(binary, target, words), { timeoutMs: 60_000 });
  let json: Record<string, unknown> = {};
  try { json = JSON.parse(ran.stdout) as Record<string, unknown>; } catch { /* not JSON: the checks say so */ }
  return { ...ran, json };
}

function exited(ran: Ran, code: number): void {
  assert.equal(ran.code, code, `exit ${ran.code}:\n${tailOf(ran.stdout + ran.stderr)}`);
}

/** 2026-07-28 results carry resultType (https://modelcontextprotocol.io/specification/2026-07-28/basic); handshake-era ones do not. */
function spokeEra(json: Record<string, unknown>, era: string): void {
  if (era === "2026-07-28") assert.equal(json.resultType, "complete", "a 2026-07-28 result has resultType");
  else assert.equal(json.resultType, undefined, "a handshake-era result has no resultType");
}

async function checksFor(ctx: PeerContext, binary: string, target: Target): Promise<void> {
  const row = (era: string) => ({ ...RMCP, direction: "their server" as const, transport: target.transport, era });
  const name = (words: string) => `mcp-wire ${words} (rmcp server${target.legacy ? " --legacy" : ""})`;
  const autoEra = target.legacy ? "2025-11-25" : "2026-07-28";

  await ctx.check(row(autoEra), name("discover, auto"), async () => {
    const ran = await cli(binary, target, ["discover"]);
    exited(ran, 0);
    if (target.legacy) {
      assert.match(ran.stderr, /fell back to initialize/);
      assert.equal(ran.json.protocolVersion, "2025-11-25");
    } else {
      assert.ok((ran.json.supportedVersions as string[]).includes("2026-07-28"), ran.stdout);
      assert.doesNotMatch(ran.stderr, /fell back/);
    }
  });
  await ctx.check(row("2026-07-28"), name("--protocol-version 2026-07-28 discover"), async () => {
    const ran = await cli(binary, target, ["--protocol-version", "2026-07-28", "discover"]);
    // Demanded 2026-07-28 from a handshake-era server: the CLI must fail, not fall back.
    exited(ran, target.legacy ? 1 : 0);
  });
  await ctx.check(row(autoEra), name("tools, auto"), async () => {
    const ran = await cli(binary, target, ["tools"]);
    exited(ran, 0);
    const tools = ran.json.tools as { name: string; outputSchema?: { properties?: Record<string, unknown> } }[];
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ["add", "countdown", "echo"]);
    assert.ok(tools.find((tool) => tool.name === "add")?.outputSchema?.properties?.sum, "add's output schema has sum");
  });
  for (const version of ["auto", "2026-07-28", "2025-11-25"].filter((v) => !(target.legacy && v === "2026-07-28"))) {
    const era = version === "auto" ? autoEra : version;
    await ctx.check(row(era), name(`--protocol-version ${version} call add a=3 b=4`), async () => {
      const ran = await cli(binary, target, ["--protocol-version", version, "call", "add", "a=3", "b=4"]);
      exited(ran, 0);
      assert.deepEqual(ran.json.structuredContent, { sum: 7 });
      assert.equal(ran.json.isError ?? false, false);
      spokeEra(ran.json, era);
    });
  }
  await ctx.check(row(autoEra), name("call echo text=hi; call add with a bad argument"), async () => {
    const echo = await cli(binary, target, ["call", "echo", "text=hi"]);
    exited(echo, 0);
    assert.deepEqual(echo.json.content, [{ type: "text", text: "echo: hi" }]);
    // rmcp turns arguments it cannot deserialize into a tool execution error (isError), as the
    // spec has input validation errors (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling):
    // the CLI prints the result and exits 3.
    const bad = await cli(binary, target, ["call", "add", '{"a":"three","b":4}']);
    exited(bad, 3);
    assert.equal(bad.json.isError, true);
    assert.match((bad.json.content as { text: string }[])[0]?.text ?? "", /^failed to deserialize parameters: invalid type: string "three", expected f64/);
  });
  await ctx.check(row(autoEra), name("call countdown steps=3: progress"), async () => {
    const ran = await cli(binary, target, ["--trace", "call", "countdown", "steps=3"]);
    exited(ran, 0);
    assert.deepEqual(ran.json.content, [{ type: "text", text: "countdown: done after 3 steps" }]);
    // Every report arrives (--trace shows each); the CLI draws at most one line per 100 ms, the last always.
    const heard = ran.stderr.split("\n").filter((line) => line.includes("← ") && line.includes('"notifications/progress"'));
    assert.equal(heard.length, 3, `three notifications/progress:\n${tailOf(ran.stderr, 30)}`);
    assert.match(ran.stderr, /^progress 3\/3 0 to go$/m);
  });
  for (const version of ["auto", "2025-11-25"]) {
    const era = version === "auto" ? autoEra : version;
    await ctx.check(row(era), name(`--protocol-version ${version} read ${NOTES_URI}; get explain`), async () => {
      const read = await cli(binary, target, ["--protocol-version", version, "read", NOTES_URI]);
      exited(read, 0);
      const contents = read.json.contents as { uri: string; mimeType: string; text: string }[];
      assert.equal(contents[0]?.mimeType, "text/markdown");
      assert.ok(contents[0]?.text.startsWith("# rmcp-peer notes"));
      spokeEra(read.json, era);
      const got = await cli(binary, target, ["--protocol-version", version, "get", "explain", "topic=lifecycle"]);
      exited(got, 0);
      assert.deepEqual(got.json.messages, [{ role: "user", content: { type: "text", text: "Explain lifecycle in the Model Context Protocol." } }]);
    });
  }
}

/** Our CLI's session through our recorder (stdio, or HTTP via the recording proxy): `mcp-wire check` must find no violation in it. */
async function checkRecorded(ctx: PeerContext, binary: string, target: Target, scratch: string): Promise<void> {
  const era = target.legacy ? "2025-11-25" : "2026-07-28";
  const row = { ...RMCP, direction: "their server" as const, transport: target.transport, era };
  await ctx.check(row, `mcp-wire check finds no violation in a recorded call countdown (rmcp server${target.legacy ? " --legacy" : ""})`, async () => {
    const recording = join(scratch, `cli-${target.transport}-${target.legacy ? "legacy" : "modern"}.recording`);
    const words = ["call", "countdown", "steps=3"];
    let ran: Ran;
    if (target.url) {
      const proxy = await startRecorderProxy(recording, target.url);
      try { ran = await runCommand("node", [CLI, "--url", proxy.url, ...words], { timeoutMs: 60_000 }); } finally { await proxy.stop(); }
    } else {
      const server = ["server", ...(target.legacy ? ["--legacy"] : [])];
      ran = await runCommand("node", [CLI, ...words, "--", "node", CLI, "record", "--out", recording, "--", binary, ...server], { timeoutMs: 60_000 });
    }
    exited(ran, 0);
    const checked = await runCommand("node", [CLI, "check", recording], { timeoutMs: 60_000 });
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
  });
}

export async function theirServer(ctx: PeerContext, binary: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "mcp-wire-rmcp-server-"));
  for (const legacy of [false, true]) {
    await checksFor(ctx, binary, { transport: "stdio", legacy });
    await checkRecorded(ctx, binary, { transport: "stdio", legacy }, scratch);
    const http = await startRmcpHttp(binary, legacy ? ["--legacy"] : []);
    try {
      await checksFor(ctx, binary, { transport: "streamable-http", legacy, url: http.url });
      await checkRecorded(ctx, binary, { transport: "streamable-http", legacy, url: http.url }, scratch);
    } finally {
      await http.stop();
    }
  }
  if (ctx.record) await recordGoldens(ctx, binary);
}

/** Our CLI's stdio sessions with the rmcp server, through our recorder, as goldens. */
async function recordGoldens(ctx: PeerContext, binary: string): Promise<void> {
  const drives: { name: string; legacy: boolean; era: string; words: string[] }[] = [
    { name: "discover-auto", legacy: false, era: "2026-07-28", words: ["discover"] },
    { name: "tools-auto", legacy: false, era: "2026-07-28", words: ["tools"] },
    { name: "call-add-2025-11-25", legacy: false, era: "2025-11-25", words: ["--protocol-version", "2025-11-25", "call", "add", "a=3", "b=4"] },
    { name: "read-2026-07-28", legacy: false, era: "2026-07-28", words: ["--protocol-version", "2026-07-28", "read", NOTES_URI] },
    { name: "get-auto", legacy: false, era: "2026-07-28", words: ["get", "explain", "topic=lifecycle"] },
    { name: "legacy-tools-auto", legacy: true, era: "2025-11-25", words: ["tools"] },
    { name: "legacy-call-add-auto", legacy: true, era: "2025-11-25", words: ["call", "add", "a=3", "b=4"] },
  ];
  for (const drive of drives) {
    const path = goldenPath(`rmcp-server-${drive.name}`);
    await ctx.check({ ...RMCP, direction: "their server", transport: "stdio", era: drive.era }, `golden fixtures/peers/rust/rmcp-server-${drive.name}.recording`, async () => {
      const server = ["server", ...(drive.legacy ? ["--legacy"] : [])];
      const ran = await runCommand("node", [CLI, ...drive.words, "--", "node", CLI, "record", "--out", path, "--", binary, ...server], { timeoutMs: 60_000 });
      exited(ran, 0);
      const checked = await runCommand("node", [CLI, "check", path], { timeoutMs: 60_000 });
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
      labelGolden(path, {
        peer: `${RMCP.peer} ${RMCP.version} (${RMCP.language})`,
        direction: "their server",
        // The binary scripts/peers/rust builds (into the cache, so no path here).
        command: `rmcp-peer ${server.join(" ")}`,
        drive: drive.words.join(" "),
        exit: String(ran.code),
      });
    });
  }
}
