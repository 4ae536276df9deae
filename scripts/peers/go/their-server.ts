// Our CLI against the Go SDK's server (server.go: add and countdown with output schemas, countdown
// reporting progress, a resource, a prompt), in four flavours: over stdio dual-era (the SDK's
// default) and handshake-only (-legacy), and over Streamable HTTP stateful (which the SDK serves in
// the handshake era only) and stateless (2026-07-28 too). `auto` must speak modern to the first and
// last and fall back to initialize with the others; pinned versions must do as told.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
import { CLI, runCommand, tailOf, type PeerContext, type Ran } from "../harness.js";
import { GO_SDK_VERSION, LANGUAGE, peerBinary, startGoServerHttp, type Running } from "./toolchain.js";

const PEER = "go-sdk (mcp.Server)";

interface Flavour {
  transport: "stdio" | "streamable-http";
  flags: string[];
  /** Whether the server speaks 2026-07-28, so that auto must. */
  modern: boolean;
  label: string;
}

const FLAVOURS: Flavour[] = [
  { transport: "stdio", flags: [], modern: true, label: "dual-era" },
  { transport: "stdio", flags: ["-legacy"], modern: false, label: "handshake only (-legacy)" },
  { transport: "streamable-http", flags: [], modern: false, label: "stateful (handshake only)" },
  { transport: "streamable-http", flags: ["-stateless"], modern: true, label: "stateless" },
];

type Json = { [key: string]: unknown };

function parsed(ran: Ran): Json {
  try {
    return JSON.parse(ran.stdout) as Json;
  } catch {
    throw new Error(`no JSON on stdout (exit ${ran.code}):\n${tailOf(ran.stdout)}\n${tailOf(ran.stderr)}`);
  }
}

function expectExit(ran: Ran, code: number): void {
  if (ran.code !== code) throw new Error(`expected exit ${code}, got ${ran.code}:\n${tailOf(ran.stdout)}\n${tailOf(ran.stderr)}`);
}

/** The era line of --trace: which generation auto (or a pin) chose, and why. */
function expectEra(ran: Ran, modern: boolean): string {
  const line = ran.stderr.split("\n").find((text) => text.includes("] era: "));
  const want = modern ? "era: modern 2026-07-28" : "era: handshake 2025-11-25";
  if (!line?.includes(want)) throw new Error(`expected "${want}" in the trace; got ${line ?? "no era line"}\n${tailOf(ran.stderr)}`);
  return line.slice(line.indexOf("era: "));
}

interface Drive { name: string; words: string[]; exit: number; judge: (result: Json, ran: Ran) => string }

function toolText(result: Json): string {
  const content = result.content as { text?: string }[] | undefined;
  return content?.map((block) => block.text ?? "").join("\n") ?? "";
}

/** What every flavour must answer, whatever the era. */
const DRIVES: Drive[] = [
  { name: "tools: add and countdown, each with an outputSchema", words: ["tools"], exit: 0, judge: (result) => {
    const tools = result.tools as { name: string; outputSchema?: { properties?: Json } }[];
    const add = tools.find((tool) => tool.name === "add");
    const countdown = tools.find((tool) => tool.name === "countdown");
    if (!add?.outputSchema?.properties?.sum || !countdown?.outputSchema?.properties?.done) throw new Error(`expected outputSchemas; got ${JSON.stringify(tools)}`);
    return tools.map((tool) => tool.name).join(", ");
  } },
  { name: "call add a=3 b=4: structuredContent", words: ["call", "add", "a=3", "b=4"], exit: 0, judge: (result) => {
    if ((result.structuredContent as Json | undefined)?.sum !== 7) throw new Error(`expected {sum: 7}; got ${JSON.stringify(result)}`);
    return "structuredContent {sum: 7}";
  } },
  { name: "call add a=x: the SDK's input validation, isError (exit 3)", words: ["call", "add", "a=x", "b=4"], exit: 3, judge: (result) => {
    if (result.isError !== true || !toolText(result).includes('validating /properties/a')) throw new Error(`expected isError from validation; got ${JSON.stringify(result)}`);
    return toolText(result);
  } },
  { name: "call countdown steps=3: progress on stderr, then the result", words: ["call", "countdown", "steps=3"], exit: 0, judge: (result, ran) => {
    if ((result.structuredContent as Json | undefined)?.done !== 3 || !ran.stderr.includes("progress 1/3")) throw new Error(`expected progress then {done: 3}; got ${JSON.stringify(result)}\n${tailOf(ran.stderr)}`);
    return "progress 1/3 ... then {done: 3}";
  } },
  { name: "read info://go-peer/notes", words: ["read", "info://go-peer/notes"], exit: 0, judge: (result) => {
    const contents = result.contents as { text?: string }[] | undefined;
    if (contents?.[0]?.text !== "Notes served by the Go SDK peer.") throw new Error(`expected the notes; got ${JSON.stringify(result)}`);
    return "text/plain";
  } },
  { name: "get greet name=Ada", words: ["get", "greet", "name=Ada"], exit: 0, judge: (result) => {
    const messages = result.messages as { content?: { text?: string } }[] | undefined;
    if (messages?.[0]?.content?.text !== "Say hello to Ada.") throw new Error(`expected the greeting; got ${JSON.stringify(result)}`);
    return "Say hello to Ada.";
  } },
];

async function cli(flavour: Flavour, running: Running | undefined, ctx: PeerContext, words: string[]): Promise<Ran> {
  const reach = running ? ["--url", running.url, ...words] : [...words, "--", peerBinary(ctx.cacheDir), "server", ...flavour.flags];
  return runCommand(process.execPath, [CLI, "--trace", ...reach], { timeoutMs: 60_000 });
}

async function checkFlavour(ctx: PeerContext, flavour: Flavour, running: Running | undefined): Promise<void> {
  const rowFor = (era: string) => ({ peer: PEER, version: GO_SDK_VERSION, language: LANGUAGE, direction: "their server" as const, transport: flavour.transport, era });
  const auto = flavour.modern ? "2026-07-28" : "2025-11-25";
  await ctx.check(rowFor(auto), `${flavour.label}: discover (auto) ${flavour.modern ? "speaks modern" : "falls back to initialize"}`, async () => {
    const ran = await cli(flavour, running, ctx, ["discover"]);
    expectExit(ran, 0);
    const result = parsed(ran);
    if (flavour.modern ? !(result.supportedVersions as string[] | undefined)?.includes("2026-07-28") : result.protocolVersion !== "2025-11-25") throw new Error(`unexpected discover result ${JSON.stringify(result)}`);
    return expectEra(ran, flavour.modern);
  });
  await ctx.check(rowFor("2026-07-28"), `${flavour.label}: discover --protocol-version 2026-07-28 ${flavour.modern ? "succeeds" : "fails (exit 1), no fallback"}`, async () => {
    const ran = await cli(flavour, running, ctx, ["--protocol-version", "2026-07-28", "discover"]);
    expectExit(ran, flavour.modern ? 0 : 1);
    return flavour.modern ? expectEra(ran, true) : tailOf(ran.stderr, 1);
  });
  for (const pin of ["auto", "2025-11-25", ...(flavour.modern ? ["2026-07-28"] : [])]) {
    const era = pin === "auto" ? auto : pin;
    for (const drive of DRIVES) {
      await ctx.check(rowFor(era), `${flavour.label}: ${drive.name} (--protocol-version ${pin})`, async () => {
        const ran = await cli(flavour, running, ctx, ["--protocol-version", pin, ...drive.words]);
        expectExit(ran, drive.exit);
        const said = drive.judge(parsed(ran), ran);
        return `${said}; ${expectEra(ran, era === "2026-07-28")}`;
      });
    }
  }
}

export async function runTheirServer(ctx: PeerContext): Promise<void> {
  for (const flavour of FLAVOURS) {
    const running = flavour.transport === "streamable-http" ? await startGoServerHttp(ctx.cacheDir, flavour.flags) : undefined;
    try {
      await checkFlavour(ctx, flavour, running);
    } finally {
      await running?.stop();
    }
  }
}
