// `--record`: the Go SDK's sessions, recorded with our own recorder, become goldens in
// fixtures/peers/go/, replayed by test/golden/peers.test.ts without Go. Their client: the demo
// over stdio in both eras and over Streamable HTTP, the textbook over stdio, each through
// `mcp-wire record` (a stdio proxy the client spawns, or an HTTP reverse proxy). Their server:
// our CLI, as `# drive:` says, through `mcp-wire record` in front of the Go server over stdio.
// Each recording must pass `mcp-wire check` (a violation is ours, or the peer's deviation).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, PEER_FIXTURES, runCommand, tailOf, type PeerContext } from "../harness.js";
import { promptFlags } from "./client-expectations.js";
import { GO_SDK_VERSION, LANGUAGE, peerBinary, runPeer, startDemoHttp, startListening } from "./toolchain.js";

const FOLDER = join(PEER_FIXTURES, "go");
/** The prompt embeds a section of the notes, which change with every edit of PROTOCOL_NOTES.md. */
const NOTES_TEXT = ["/result/messages/*/content/resource/text"];

/** Puts our header lines after the recorder's first line (its date), replacing its own fields. */
function withHeader(file: string, lines: string[]): void {
  const text = readFileSync(file, "utf8");
  const cut = text.indexOf("-- session --");
  const kept = text.slice(0, cut).split("\n").filter((line) => line.startsWith("# Recorded by"));
  writeFileSync(file, [...kept, ...lines, text.slice(cut)].join("\n"));
}

async function checked(file: string): Promise<void> {
  const checkedBy = await runCommand(process.execPath, [CLI, "check", file], { timeoutMs: 60_000 });
  if (checkedBy.code !== 0) throw new Error(`mcp-wire check ${file} (exit ${checkedBy.code}):\n${tailOf(checkedBy.stdout + checkedBy.stderr, 30)}`);
}

interface ClientGolden { name: string; server: "demo" | "textbook"; version: string; http?: boolean }

const CLIENT_GOLDENS: ClientGolden[] = [
  { name: "client-demo-stdio-2026-07-28", server: "demo", version: "" },
  { name: "client-demo-stdio-2025-11-25", server: "demo", version: "2025-11-25" },
  { name: "client-textbook-stdio-2026-07-28", server: "textbook", version: "" },
  { name: "client-demo-http-2026-07-28", server: "demo", version: "", http: true },
  { name: "client-demo-http-2025-11-25", server: "demo", version: "2025-11-25", http: true },
];

async function recordClient(ctx: PeerContext, golden: ClientGolden): Promise<void> {
  const file = join(FOLDER, `${golden.name}.recording`);
  const command = golden.server === "demo" ? "node dist/server.js" : "node dist/textbook/demo.js";
  const args = golden.server === "demo" ? ["--roots-tool"] : [];
  const script = ["client", "-script", "golden", ...(golden.server === "demo" ? ["-two-way"] : []), ...(golden.version ? ["-version", golden.version] : []), ...promptFlags(golden.server)];
  let ran;
  if (golden.http) {
    const demo = await startDemoHttp(args);
    try {
      const proxy = await startListening(process.execPath, [CLI, "record", "--out", file, "--listen", "127.0.0.1:0", "--target", demo.url], /listening on (http:\/\/\S+\/mcp)/);
      try {
        // No ping over modern HTTP: the SDK sends it without the envelope, under the header the
        // recording notes but replay does not send (it derives headers from the body).
        ran = await runPeer(ctx.cacheDir, [...script, ...(golden.version ? [] : ["-skip-ping"]), "-url", proxy.url]);
      } finally {
        await proxy.stop();
      }
    } finally {
      await demo.stop();
    }
  } else {
    // Relative paths (the peer runs in the project's root), so that # command: is the project's.
    ran = await runPeer(ctx.cacheDir, [...script, "--", "node", "dist/cli.cjs", "record", "--out", file, ...command.split(" "), ...args]);
  }
  if (ran.code !== 0) throw new Error(`the client failed (exit ${ran.code}):\n${tailOf(ran.stderr)}`);
  withHeader(file, [
    `# peer: go-sdk (mcp.Client) ${GO_SDK_VERSION} (${LANGUAGE})`,
    "# direction: their client",
    `# server: ${golden.server}`,
    `# transport: ${golden.http ? "http" : "stdio"}`,
    `# command: ${command}`,
    ...(args.length ? [`# args: ${args.join(" ")}`] : []),
    ...NOTES_TEXT.map((pointer) => `# ignore: ${pointer}`),
  ]);
  await checked(file);
}

interface ServerGolden { name: string; drive: string[]; flags: string[] }

const SERVER_GOLDENS: ServerGolden[] = [
  { name: "server-dual-era-discover-auto", drive: ["discover"], flags: [] },
  { name: "server-dual-era-call-add-auto", drive: ["call", "add", "a=3", "b=4"], flags: [] },
  { name: "server-dual-era-call-countdown-2025-11-25", drive: ["--protocol-version", "2025-11-25", "call", "countdown", "steps=3"], flags: [] },
  { name: "server-dual-era-read-2026-07-28", drive: ["--protocol-version", "2026-07-28", "read", "info://go-peer/notes"], flags: [] },
  { name: "server-legacy-tools-auto", drive: ["tools"], flags: ["-legacy"] },
  { name: "server-legacy-get-greet-auto", drive: ["get", "greet", "name=Ada"], flags: ["-legacy"] },
  { name: "server-legacy-discover-2026-07-28", drive: ["--protocol-version", "2026-07-28", "discover"], flags: ["-legacy"] },
];

async function recordServer(ctx: PeerContext, golden: ServerGolden): Promise<void> {
  const file = join(FOLDER, `${golden.name}.recording`);
  const ran = await runCommand(process.execPath, [CLI, ...golden.drive, "--", process.execPath, CLI, "record", "--out", file, peerBinary(ctx.cacheDir), "server", ...golden.flags], { timeoutMs: 60_000 });
  withHeader(file, [
    `# peer: go-sdk (mcp.Server) ${GO_SDK_VERSION} (${LANGUAGE})`,
    "# direction: their server",
    "# transport: stdio",
    `# server: scripts/peers/go's program, as: peer server${golden.flags.map((flag) => ` ${flag}`).join("")}`,
    `# drive: ${golden.drive.join(" ")}`,
    `# exit: ${ran.code}`,
  ]);
  await checked(file);
}

export async function recordGoldens(ctx: PeerContext): Promise<void> {
  mkdirSync(FOLDER, { recursive: true });
  const row = { peer: "go-sdk (goldens)", version: GO_SDK_VERSION, language: LANGUAGE, direction: "their client" as const, transport: "stdio", era: "-" };
  for (const golden of CLIENT_GOLDENS) await ctx.check(row, `record ${golden.name}`, () => recordClient(ctx, golden));
  for (const golden of SERVER_GOLDENS) await ctx.check({ ...row, direction: "their server" }, `record ${golden.name}`, () => recordServer(ctx, golden));
}
