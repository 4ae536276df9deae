// Records real 2026-07-28 wire transcripts for golden tests: the SDK v2 client driver against a
// server over stdio, with tap.mjs between them logging each line as {"dir","msg"}. Each recording
// runs a few driver steps only, so that it stays short (at most MAX_LINES lines).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr (and
// basic/versioning, basic/patterns/subscriptions)
// The ids, key order and timing are SDK v2's own; nothing here edits a recorded line.

import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run, tail } from "../interop.js";

const MAX_LINES = 30;
const OUR_SERVER = fileURLToPath(new URL("../../dist/server.js", import.meta.url));

interface Recording {
  file: string;
  /** The driver's era mode: auto, a pinned version, or legacy. */
  mode: string;
  steps: string;
  /** Which server: the SDK v2 peer, or mcp-wire's own demo server. */
  server: "sdk-v2" | "ours";
  /** Whether the driver must succeed (an unsupported version is meant to fail). */
  succeeds: boolean;
}

const RECORDINGS: Recording[] = [
  { file: "sdk-v2-discover-and-calls.jsonl", mode: "auto", steps: "tools/list,echo,add", server: "sdk-v2", succeeds: true },
  { file: "sdk-v2-mrtr-elicitation.jsonl", mode: "auto", steps: "greet", server: "sdk-v2", succeeds: true },
  { file: "sdk-v2-mrtr-sampling.jsonl", mode: "auto", steps: "summarize", server: "sdk-v2", succeeds: true },
  { file: "sdk-v2-listen-list-changed.jsonl", mode: "auto", steps: "tools list change", server: "sdk-v2", succeeds: true },
  // A pinned version the server does not serve: the probe gets -32022 and, pinned, the client stops.
  { file: "sdk-v2-unsupported-version.jsonl", mode: "2099-01-01", steps: "none", server: "sdk-v2", succeeds: false },
  // Recorded against mcp-wire's demo server before it spoke 2026-07-28; kept as that record of the
  // fallback and no longer re-recorded (our server is dual-era now: it would show a modern session).

];

export async function captureTranscripts(peers: string, into: string): Promise<string> {
  mkdirSync(into, { recursive: true });
  const done: string[] = [];
  for (const r of RECORDINGS) {
    const log = join(into, r.file);
    rmSync(log, { force: true });
    const server = r.server === "ours" ? [OUR_SERVER] : [join(peers, "sdk-server.mjs"), "stdio"];
    const args = [join(peers, "sdk-client.mjs"), "--steps", r.steps, "stdio", r.mode, process.execPath, join(peers, "tap.mjs"), log, process.execPath, ...server];
    const result = await run(process.execPath, args, { cwd: peers, timeoutMs: 60_000 });
    assert.equal(result.code === 0, r.succeeds, `${r.file}: the driver ${result.failure}\n${tail(result.stdout + result.stderr)}`);
    const lines = readFileSync(log, "utf8").trim().split("\n");
    assert.ok(lines.length <= MAX_LINES, `${r.file}: ${lines.length} lines, more than ${MAX_LINES}`);
    done.push(`${r.file} (${lines.length})`);
  }
  return done.join(", ");
}
