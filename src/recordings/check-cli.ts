// `mcp-wire check FILE [--json]`: reads a recording in any form (recordings/recording.ts) and prints each
// violation of the spec (recordings/check.ts) as `FILE:#N c2s|s2c rule: what is wrong (spec link)`, with
// `[session]` after the direction when the recording holds several, or with --json an array of
// {index, dir, rule, message, spec, session?}. Exit 0: none; 1: some; 2: usage, or a file that
// cannot be read as a recording.

import { readFile } from "node:fs/promises";
import { checkRecording, formatFinding } from "./check.js";
import { parseRecording, RecordingFormatError } from "./recording.js";

export const CHECK_USAGE = `usage: mcp-wire check FILE [--json]

Checks a recording (a golden transcript, a session recording, or JSON lines) against the spec of
the protocol version its session negotiated, and prints each violation:
  FILE:#N c2s|s2c rule: what is wrong (spec link)
N counts the recording's messages from 1. A golden transcript keeps each side's order but not the
order between them, so the rules that need that order skip it. A recording of several HTTP sessions
(record --listen notes each message's exchange) is checked a session at a time, and each finding
names its session: FILE:#N c2s|s2c [session] rule: ...

options:
  --json      print an array of {index, dir, rule, message, spec, session?} instead
  -h, --help  print this help

exit codes: 0 no violation, 1 violations found, 2 usage error or unreadable recording`;

export async function run(argv: string[]): Promise<number> {
  const json = argv.includes("--json");
  const files = argv.filter((arg) => arg !== "--json");
  if (files.includes("--help") || files.includes("-h")) {
    process.stdout.write(`${CHECK_USAGE}\n`);
    return 0;
  }
  if (files.length !== 1 || files[0]!.startsWith("-")) {
    process.stderr.write(`mcp-wire check: ${files.length === 1 ? `unknown option ${files[0]}` : "expected one FILE"}\n(mcp-wire check --help shows the usage)\n`);
    return 2;
  }
  const file = files[0]!;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    process.stderr.write(`mcp-wire check: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  let findings;
  try {
    findings = checkRecording(parseRecording(text, file));
  } catch (error) {
    if (!(error instanceof RecordingFormatError)) throw error;
    process.stderr.write(`mcp-wire check: ${error.message}\n`);
    return 2;
  }
  if (json) process.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
  else for (const f of findings) process.stdout.write(`${formatFinding(file, f)}\n`);
  return findings.length > 0 ? 1 : 0;
}
