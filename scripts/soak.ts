// `npm run soak`: the hostile cases of issues 7, 9 and 19 against the real programs, `node dist/server.js`
// over stdio and HTTP and `node dist/cli.js` against evil servers, all on 127.0.0.1. Prints one
// line per case: HELD or NOT HELD (and why), the peak RSS of the process under test (VmHWM from
// /proc, Linux only) and the time taken; exits 1 if any case did not hold. Every loop is bounded
// in count and time, every case has a time limit, and every process a case starts (each in its
// own process group) is killed when the case ends, so a crash or a hang is reported, not inherited.
// Flags: --list, --case NAME (repeatable), --scale F (default 1; 0.1 for a quick run), --textbook
// (the stdio server cases against the textbook edition, dist/textbook/demo.js, ending with a line
// that says which it does not survive: it has none of the production edition's bounds).
// Not run in CI: it takes minutes at scale 1 and pushes hundreds of MiB through the server.

import { setMaxListeners } from "node:events";
import { performance } from "node:perf_hooks";
import { existsSync } from "node:fs";
import { CaseContext, mib, NotHeld, ROOT, STDIO_SERVER, type SoakCase, type Verdict } from "./soak/harness.js";
import { batchCase, legacySessionsCase, legacyUnreadCase, replayCase, subscribeCase } from "./soak/http-memory.js";
import { emptyTokenCase, sessionSlotsCase, slowlorisCase } from "./soak/http-access.js";
import { endlessBodyCase, redirectCase, stdioServerFaultsCase, timeoutCase } from "./soak/client-cases.js";
import { stdinEofCase, stdioUnreadCase } from "./soak/stdio-cases.js";
import { modernHttpEnvelopeCase, modernHttpHeadersCase, modernHttpListensCase } from "./soak/modern-http-cases.js";
import { modernDualCase, modernEnvelopeCase, modernListensCase, modernRoundsCase, modernStateCase } from "./soak/modern-cases.js";
import { stateFloodStdioCase, statePrincipalHttpCase } from "./soak/round2-state.js";
import { credentialsInfinityCase, credentialsPlaceCase, credentialsRefreshCase, credentialsSigkillCase, credentialsStaleLockCase } from "./soak/round2-credentials.js";
import { crashLoopCase, endlessPagesCase, slowDiscoverCase } from "./soak/round2-client.js";
import { recordBareCommandCase, recordBr64Case, recordEarlyAnswerCase, recordGzip16Case, recordGzip64Case, recordGzipFloodCase } from "./soak/round2-record.js";
import { recordSessionsCase } from "./soak/round2-recordcheck.js";
import { unreadStreamsCase } from "./soak/round2-attack.js";
import { mixedLoadCase } from "./soak/round2-attack-load.js";
import { hostileIssuerCase, hostileMetadataCase } from "./soak/round2-attack-oauth.js";

/** Issue 7's cases in the order of its items, then issue 9's (the 2026-07-28 generation), then issue 19's. */
const CASES: SoakCase[] = [
  batchCase, replayCase, endlessBodyCase, legacyUnreadCase, legacySessionsCase, stdioUnreadCase, subscribeCase,
  emptyTokenCase, redirectCase, sessionSlotsCase, slowlorisCase, timeoutCase, stdinEofCase, stdioServerFaultsCase,
  modernEnvelopeCase, modernStateCase, modernRoundsCase, modernListensCase, modernDualCase, modernHttpEnvelopeCase,
  modernHttpHeadersCase, modernHttpListensCase,
  // Issue 19 (hardening, round 2): its items 1-2 (requestState), 3-5 and 13 (credentials), 6, 8 and 11
  // (the client), 7 and 12 (record), 9-10 (record and check, several sessions), then its attack.
  statePrincipalHttpCase, stateFloodStdioCase,
  credentialsInfinityCase, credentialsStaleLockCase, credentialsRefreshCase, credentialsSigkillCase, credentialsPlaceCase,
  endlessPagesCase, crashLoopCase, slowDiscoverCase,
  recordGzip16Case, recordGzip64Case, recordBr64Case, recordGzipFloodCase, recordEarlyAnswerCase, recordBareCommandCase,
  recordSessionsCase,
  mixedLoadCase, unreadStreamsCase, hostileMetadataCase, hostileIssuerCase,
];

const USAGE = "usage: npm run soak -- [--list] [--case NAME]... [--scale F] [--textbook]";
/** The hostile stdio cases that need nothing the textbook leaves out (input rounds, listen, greet). */
const TEXTBOOK_CASES = ["stdio-unread", "stdin-eof"];

function parseArguments(argv: string[]): { list: boolean; names: string[]; scale: number; textbook: boolean } {
  const options = { list: false, names: [] as string[], scale: 1, textbook: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--list") options.list = true;
    else if (flag === "--case") options.names.push(argv[++i] ?? "");
    else if (flag === "--scale") options.scale = Number(argv[++i]);
    else if (flag === "--textbook") options.textbook = true;
    else usage(`unknown option ${flag}`);
  }
  if (!(options.scale > 0 && options.scale <= 10)) usage("--scale needs a number above 0, at most 10");
  for (const name of options.names) if (!CASES.some((c) => c.name === name)) usage(`no case named ${JSON.stringify(name)} (--list shows them)`);
  return options;
}

function usage(message: string): never {
  process.stderr.write(`soak: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** Runs one case under its time limit; the context ends (killing what it started) in every outcome. */
async function runCase(soakCase: SoakCase, scale: number): Promise<{ verdict: Verdict; ms: number; peak: string }> {
  const limitMs = soakCase.limitMs;
  const abort = new AbortController();
  // Every request of the case listens on this one signal.
  setMaxListeners(0, abort.signal);
  const context = new CaseContext(scale, abort.signal);
  const sampler = setInterval(() => context.sampleAll(), 20);
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<Verdict>((resolve) => {
    timer = setTimeout(() => resolve({ held: false, detail: `the case did not finish within ${limitMs / 1000} s (a hang)` }), limitMs);
  });
  let verdict: Verdict;
  try {
    verdict = await Promise.race([soakCase.run(context), hung]);
  } catch (error) {
    verdict = error instanceof NotHeld
      ? { held: false, detail: error.message }
      : { held: false, detail: `the case failed: ${error instanceof Error ? error.stack?.split("\n").slice(0, 3).join(" ") : String(error)}` };
  } finally {
    clearTimeout(timer);
    abort.abort();
    context.sampleAll();
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  await context.end();
  // The process under test: the server if the case started one, else the CLI (the highest of each role).
  const roles = new Map<string, number>();
  for (const tracked of context.processes) roles.set(tracked.role, Math.max(roles.get(tracked.role) ?? 0, tracked.peakRss));
  const role = roles.has("server") ? "server" : "cli";
  return { verdict, ms, peak: roles.has(role) ? `${role} ${mib(roles.get(role)!)}` : "-" };
}

async function main(): Promise<number> {
  const options = parseArguments(process.argv.slice(2));
  if (options.list) {
    for (const c of CASES) console.log(`${c.name.padEnd(20)} ${c.title}\n${"".padEnd(20)} bound: ${c.bound}`);
    return 0;
  }
  if (!existsSync(`${ROOT}dist/server.js`)) usage("dist/server.js is missing: run npm run build first");
  if (options.textbook) STDIO_SERVER.program = "dist/textbook/demo.js";
  const names = options.names.length > 0 ? options.names : options.textbook ? TEXTBOOK_CASES : undefined;
  const chosen = names ? CASES.filter((c) => names.includes(c.name)) : CASES;
  const fallen: string[] = [];
  console.log(`soak: ${chosen.length} case(s) at scale ${options.scale}, node ${process.version}, loopback only`);
  console.log(`${"case".padEnd(20)} ${"verdict".padEnd(9)} ${"peak RSS".padEnd(18)} ${"time".padStart(7)}  details`);
  const started = performance.now();
  let notHeld = 0;
  for (const soakCase of chosen) {
    const { verdict, ms, peak } = await runCase(soakCase, options.scale);
    if (!verdict.held) notHeld++;
    if (!verdict.held) fallen.push(soakCase.name);
    console.log(`${soakCase.name.padEnd(20)} ${(verdict.held ? "HELD" : "NOT HELD").padEnd(9)} ${peak.padEnd(18)} ${`${(ms / 1000).toFixed(1)} s`.padStart(7)}  ${verdict.detail}`);
  }
  console.log(`soak: ${chosen.length - notHeld} held, ${notHeld} not held, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (options.textbook) {
    // Informational: the textbook is not meant to survive these; the line says what the bounds buy.
    console.log(`soak: the textbook edition does not survive ${fallen.join(", ") || "none"} of ${chosen.map((c) => c.name).join(", ")}`);
    return 0;
  }
  return notHeld > 0 ? 1 : 0;
}

// Exit at once: a case that was cut short may leave a socket or a timer behind.
process.exit(await main());
