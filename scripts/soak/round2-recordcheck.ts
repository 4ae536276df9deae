// Soak case for issue 19 items 9 and 10: `mcp-wire record --listen` in front of the demo server,
// with many hosts at once driving it the way real ones do (a GET stream probe answered 405 or 400,
// /.well-known/ probes answered 404, every session from ids 0 and 1, a request in a session it
// just ended, 2026-07-28 requests that all reuse id 0 and "listen:0" across host processes), with
// --check, then `mcp-wire check` on the recording: no finding at all, live or after, neither on the
// server's side nor this legal client's. Bounded in sessions, in concurrency and in time.

import { judge, mib, serverChecks, type SoakCase } from "./harness.js";
import { envelope, MODERN, modernRequest } from "./modern-wire.js";
import { exchange, openSession, post, request, within, type Message } from "./wire.js";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** How many hosts drive the proxy at once. */
const CONCURRENCY = 8;

/** What a conforming 2026-07-28 client mirrors in headers (the method; the name when there is one). */
function mirrored(message: Message): Record<string, string> {
  const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": message.method! };
  if (typeof message.params?.name === "string") headers["mcp-name"] = message.params.name;
  return headers;
}

/** One host process of the handshake era: probes, a session from id 0, a call, its end, then a request in the ended session. */
async function handshakeHost(proxy: string, signal: AbortSignal): Promise<string | undefined> {
  const probe = await fetch(`${proxy}/mcp`, { headers: { accept: "text/event-stream" }, signal });
  await probe.body?.cancel();
  if (probe.status !== 400) return `the GET probe got ${probe.status}`;
  for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server"]) {
    const answer = await fetch(`${proxy}${path}`, { signal });
    await answer.body?.cancel();
    if (answer.status !== 404) return `${path} got ${answer.status}`;
  }
  const headers = await openSession(`${proxy}/mcp`, signal);
  if (typeof headers === "string") return headers;
  const listed = await exchange(`${proxy}/mcp`, request(1, "tools/list"), headers, signal);
  if (!listed.messages.some((m) => m.id === 1 && m.result)) return `tools/list got ${listed.status}`;
  const ended = await fetch(`${proxy}/mcp`, { method: "DELETE", headers, signal });
  await ended.body?.cancel();
  const late = await post(`${proxy}/mcp`, request(2, "tools/list"), headers, signal);
  await late.body?.cancel();
  return late.status === 404 ? undefined : `a request in the ended session got ${late.status}`;
}

/** One host process of 2026-07-28: a GET probe (405), discovery, a listen "listen:0" held over a call with id 0. */
async function modernHost(proxy: string, signal: AbortSignal): Promise<string | undefined> {
  const probe = await fetch(`${proxy}/mcp`, { headers: { accept: "text/event-stream", "mcp-protocol-version": MODERN }, signal });
  await probe.body?.cancel();
  if (probe.status !== 405) return `the 2026-07-28 GET probe got ${probe.status}`;
  const discover = modernRequest("server-discover-probe-1", "server/discover");
  if ((await exchange(`${proxy}/mcp`, discover, mirrored(discover), signal)).status !== 200) return "server/discover failed";
  const stream = new AbortController();
  signal.addEventListener("abort", () => stream.abort(), { once: true });
  const listen: Message = { jsonrpc: "2.0", id: "listen:0", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: envelope() } };
  const opened = await post(`${proxy}/mcp`, listen, mirrored(listen), stream.signal);
  try {
    const reader = opened.body!.getReader();
    if (!Buffer.from((await reader.read()).value ?? []).toString().includes("acknowledged")) return "the listen was not acknowledged";
    const call = modernRequest(0, "tools/call", { name: "add", arguments: { a: 1, b: 2 } });
    const answer = await exchange(`${proxy}/mcp`, call, mirrored(call), signal);
    return answer.messages.some((m) => m.id === 0 && m.result?.resultType === "complete") ? undefined : `tools/call got ${answer.status}`;
  } finally {
    stream.abort();
  }
}

export const recordSessionsCase: SoakCase = {
  name: "record-sessions",
  title: "record --listen before the demo server, many hosts at once (probes, sessions from id 0, ended sessions, 2026-07-28 ids reused across processes), then check",
  bound: "every host served; record --check says nothing and mcp-wire check on the recording exits 0 (no finding); record and server below 300 MiB; the recording below 16 KiB a host",
  limitMs: 180_000,
  async run(context) {
    const { server, url } = await context.httpServer();
    const dir = mkdtempSync(join(tmpdir(), "mcp-wire-soak-record-"));
    context.onEnd(() => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, "hosts.recording");
    const recorder = context.spawnNode("record", ["dist/cli.js", "record", "--check", "--out", out, "--listen", "127.0.0.1:0", "--target", url]);
    const listening = await recorder.awaitStderr(/listening on (http:\/\/127\.0\.0\.1:\d+)\//, 10_000);
    if (!listening) return { held: false, detail: `record did not listen: ${recorder.describeEnd()}` };
    const proxy = listening[1]!;
    const hosts = context.scaled(240, 24);
    const failures: string[] = [];
    let next = 0;
    const signal = within(context.signal, 150_000);
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < hosts && !signal.aborted) {
        const host = next++;
        try {
          const failed = await (host % 3 === 2 ? modernHost : handshakeHost)(proxy, signal);
          if (failed) failures.push(failed);
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        }
        context.sampleAll();
      }
    }));
    context.sampleAll();
    recorder.child.kill("SIGTERM");
    await recorder.exited;
    const bytes = statSync(out).size;
    const checked = await context.cli(["check", out], 60_000);
    const sessions = Math.ceil((hosts * 2) / 3);
    return judge([
      ...serverChecks(server),
      [failures.length === 0, `${hosts} hosts served${failures.length ? `; ${failures.length} not: ${failures.slice(0, 3).join(" | ")}` : ""}`],
      [recorder.exit?.code === 143, `record stopped by SIGTERM: ${recorder.describeEnd()}`],
      [!recorder.stderrText.includes("mcp-wire record --check:"), "record --check found nothing as the sessions passed"],
      [recorder.peakRss < 300 * 1024 * 1024, `record peak RSS ${mib(recorder.peakRss)} (bound 300 MiB)`],
      [bytes < hosts * 16 * 1024, `recording ${mib(bytes)} for ${hosts} hosts (bound 16 KiB a host)`],
      [!checked.timedOut && checked.cli.exit?.code === 0, `check over ${sessions}+ sessions: ${checked.cli.exit?.code === 0 ? "no finding" : checked.cli.describeEnd()} in ${checked.ms} ms`],
    ]);
  },
};
