// Soak cases for the stdio server (issue 7, items 5 and 16): a host that does not read the
// server's stdout while it keeps asking, and a host that ends stdin while answers are still owed.

import { judge, mib, NotHeld, RSS_BOUND, serverChecks, sleep, type CaseContext, type SoakCase, type Tracked } from "./harness.js";
import { awaitAll, INITIALIZED, initialize, LineReader, notOnce, NOTES_URI, request, writeLine } from "./wire.js";

/** A stdio server past its handshake, with a reader counting its answers. */
async function handshake(context: CaseContext, what: string): Promise<{ server: Tracked; reader: LineReader }> {
  const server = context.stdioServer();
  const reader = new LineReader(server.child.stdout!);
  server.child.stdin!.on("error", () => {});
  server.child.stdin!.write(JSON.stringify(initialize()) + "\n");
  if (!(await reader.answered(0, 10_000, context.signal))) throw new NotHeld(`${what}: no answer to initialize: ${server.describeEnd()}`);
  server.child.stdin!.write(JSON.stringify(INITIALIZED) + "\n");
  return { server, reader };
}

export const stdioUnreadCase: SoakCase = {
  name: "stdio-unread",
  title: "stdio: the host never reads the server's stdout while it sends many resources/read",
  bound: `server peak RSS < ${mib(RSS_BOUND)}; once the host reads again, every request sent is answered exactly once`,
  limitMs: 120_000,
  async run(context) {
    const { server, reader } = await handshake(context, "handshake");
    server.child.stdout!.pause();
    const count = context.scaled(20_000, 6_000);
    const ids: number[] = [];
    let stalled = false;
    for (let id = 1; id <= count && server.alive && !context.signal.aborted; id++) {
      ids.push(id);
      // A write that stays unaccepted for 2 s means the server stopped reading: that is the bound working.
      if (!(await writeLine(server.child.stdin!, request(id, "resources/read", { uri: NOTES_URI }), 2000))) {
        stalled = true;
        break;
      }
    }
    await sleep(1000, context.signal);
    context.sampleAll();
    const peakWhileUnread = server.peakRss;
    server.child.stdout!.resume();
    await awaitAll(reader, ids, 60_000, context.signal);
    const wrong = notOnce(reader, ids);
    return judge([
      [true, `${ids.length} requests sent${stalled ? ", then the server stopped reading stdin" : ""}; peak RSS while unread ${mib(peakWhileUnread)}`],
      [wrong === "", wrong || "every request answered once after reading resumed"],
      ...serverChecks(server),
    ]);
  },
};

export const stdinEofCase: SoakCase = {
  name: "stdin-eof",
  title: "stdio: stdin ends right after a 2 s countdown call; and right after many pings whose answers are read 2.5 s late",
  bound: "every answer owed arrives before the server exits, and it exits 0",
  limitMs: 60_000,
  async run(context) {
    const checks: [boolean, string][] = [];

    const first = await handshake(context, "countdown");
    first.server.child.stdin!.end(JSON.stringify(request("countdown", "tools/call", { name: "countdown", arguments: { steps: 20, intervalMs: 100 } })) + "\n");
    await Promise.race([first.server.exited, sleep(15_000, context.signal)]);
    checks.push([first.reader.answers.get("countdown") === 1, `countdown: ${first.reader.answers.has("countdown") ? "answered" : "no answer"}; ${first.server.describeEnd()}`]);
    checks.push([first.server.exit?.code === 0, `countdown: exit ${first.server.exit?.code ?? "none within 15 s"}`]);

    const second = await handshake(context, "pings");
    second.server.child.stdout!.pause();
    // 20,000 at any scale: fewer do not reproduce the loss, and they take only seconds.
    const ids = Array.from({ length: context.scaled(20_000, 20_000) }, (_, i) => `p${i}`);
    second.server.child.stdin!.end(ids.map((id) => JSON.stringify(request(id, "ping"))).join("\n") + "\n");
    await sleep(2500, context.signal);
    second.server.child.stdout!.resume();
    await Promise.race([second.server.exited, sleep(30_000, context.signal)]);
    // The exit can come before the last of stdout is read here.
    await sleep(200, context.signal);
    const wrong = notOnce(second.reader, ids);
    checks.push([wrong === "", `${ids.length} pings: ${wrong || "all answered once"}`]);
    checks.push([second.server.exit?.code === 0, `pings: exit ${second.server.exit?.code ?? "none within 30 s"}`]);
    checks.push(...serverChecks(second.server).slice(1));
    return judge(checks);
  },
};
