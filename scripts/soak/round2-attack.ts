// A soak case for what issue 19's second round did not reach, as an attacker would: 2026-07-28
// listens and handshake-era GET streams opened and never read (the TCP window fills, then the
// server's own buffers) while list changes are broadcast to them all. What they may make the server
// hold is bounded per stream and in total; the loopback kernel takes megabytes per socket first, so
// a stream may stay open for long, and what is measured is what the server retains. The mixed load
// is round2-attack-load.ts; hostile OAuth documents, round2-attack-oauth.ts.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http

import { connect, type Socket } from "node:net";
import { judge, MIB, mib, retainedCheck, serverChecks, sleep, type SoakCase } from "./harness.js";
import { MODERN, modernRequest, summarize } from "./modern-wire.js";
import { describe, exchange, openSession, request, within, type Message } from "./wire.js";

/** The headers a conforming client mirrors for a modern request (as in modern-http-cases.ts). */
function mirror(message: Message): Record<string, string> {
  const headers: Record<string, string> = { "mcp-protocol-version": MODERN, "mcp-method": message.method! };
  if (typeof message.params?.name === "string") headers["mcp-name"] = message.params.name;
  return headers;
}

/**
 * A request written by hand on its own socket, read until `marker` shows in what came back, then
 * never read again: the socket is paused, so the kernel's buffers fill and the server's writes
 * back up. `closed` resolves when the server (or anyone) ends the connection.
 */
interface StalledStream {
  socket: Socket;
  /** True once the marker came (the stream was open and acknowledged); false if the connection ended first. */
  opened: Promise<boolean>;
  closed: Promise<void>;
  isClosed: () => boolean;
}

function stalledStream(origin: string, head: string, body: string, marker: string): StalledStream {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  let text = "";
  let isClosed = false;
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve(void (isClosed = true))));
  socket.on("error", () => {});
  socket.setEncoding("utf8");
  const opened = new Promise<boolean>((resolve) => {
    const onData = (chunk: string) => {
      text += chunk;
      if (!text.includes(marker)) return;
      socket.off("data", onData);
      // From here on nothing is read: what the server writes fills the kernel's buffers, then its own.
      socket.pause();
      resolve(true);
    };
    socket.on("data", onData);
    void closed.then(() => resolve(false));
  });
  socket.write(`${head}Host: ${hostname}:${port}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  return { socket, opened, closed, isClosed: () => isClosed };
}

/** A 2026-07-28 listen for list changes, left unread once acknowledged. */
function unreadListen(origin: string, id: string): StalledStream {
  const message = modernRequest(id, "subscriptions/listen", { notifications: { toolsListChanged: true } });
  const headers = Object.entries(mirror(message)).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return stalledStream(origin, `POST /mcp HTTP/1.1\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n${headers}`, JSON.stringify(message), "notifications/subscriptions/acknowledged");
}

/** A handshake-era session's GET stream, left unread once its headers came. */
function unreadGetStream(origin: string, session: Record<string, string>): StalledStream {
  return stalledStream(origin, `GET /mcp HTTP/1.1\r\nAccept: text/event-stream\r\nmcp-session-id: ${session["mcp-session-id"]}\r\nmcp-protocol-version: ${session["mcp-protocol-version"]}\r\n`, "", "\r\n\r\n");
}

/** One toggle_extra call in `session`: every session and listen of the server hears tools/list_changed. */
async function toggle(url: string, session: Record<string, string>, id: string, signal: AbortSignal): Promise<string> {
  try {
    const reply = await exchange(url, request(id, "tools/call", { name: "toggle_extra", arguments: {} }), session, within(signal, 15_000));
    const answer = reply.messages.find((m) => m.id === id);
    return `HTTP ${reply.status} ${answer ? summarize(answer) : "no answer"}`;
  } catch (error) {
    return `failed: ${describe(error).slice(0, 60)}`;
  }
}

/** The demo server's maxListens (DEFAULT_MAX_LISTENS in server/definition.ts). */
const MAX_LISTENS = 64;
/** What the server's streams may hold unread together (maxStreamBacklogBytesTotal), and its replay store (maxReplayBytes). */
const BACKLOG_TOTAL = 64 * MIB;
const REPLAY_TOTAL = 64 * MIB;
/** Retained heap while the stalled streams are open: their backlog and the replay store, with room for the objects around them. */
const HELD_BOUND = BACKLOG_TOTAL + REPLAY_TOTAL;
/**
 * Peak RSS: the two bounds above at full occupancy, as JS strings and the objects around them, with
 * V8's slack over what it retains (a broadcast to every stream makes garbage fast).
 */
const PEAK_BOUND = 512 * MIB;
/** Retained heap (after a full GC) once the stalled clients are gone: their sessions stay, and so do their replay events. */
const RETAINED_BOUND = REPLAY_TOTAL + 16 * MIB;

export const unreadStreamsCase: SoakCase = {
  name: "unread-streams",
  title: `HTTP: ${MAX_LISTENS} 2026-07-28 listens and 300 sessions' GET streams opened and never read (the TCP window fills) while list changes are broadcast to them all`,
  bound: `a legitimate session keeps its answers; retained heap while they are open < ${mib(HELD_BOUND)} (what the streams may hold unread together, ${mib(BACKLOG_TOTAL)}, and the replay store); once they are gone, < +${mib(RETAINED_BOUND)} (their sessions' replay events stay) and ${MAX_LISTENS} new listens acknowledged; peak RSS < ${mib(PEAK_BOUND)}; server up`,
  limitMs: 240_000,
  async run(context) {
    const started = await context.httpServer();
    const idle = await started.server.heapAfterGc();
    const sessions = context.scaled(300, 100);
    const control = await openSession(started.url, within(context.signal, 10_000));
    if (typeof control === "string") return { held: false, detail: `control session: ${control}` };
    const streams: StalledStream[] = [];
    context.onEnd(() => streams.forEach((stream) => stream.socket.destroy()));
    streams.push(...Array.from({ length: MAX_LISTENS }, (_, i) => unreadListen(started.origin, `stalled-${i}`)));
    for (let i = 0; i < sessions && !context.signal.aborted; i++) {
      const session = await openSession(started.url, within(context.signal, 10_000));
      if (typeof session === "string") return { held: false, detail: `session ${i}: ${session}` };
      streams.push(unreadGetStream(started.origin, session));
    }
    const opened = (await Promise.all(streams.map((stream) => stream.opened))).filter(Boolean).length;
    // Broadcast until the budget of toggles or of time is spent.
    const budget = context.scaled(40_000, 30_000);
    const until = Date.now() + Math.max(60_000, 150_000 * context.scale);
    const outcomes = new Map<string, number>();
    let sent = 0;
    const began = Date.now();
    const worker = async () => {
      while (sent < budget && Date.now() < until && started.server.alive && !context.signal.aborted) {
        const got = await toggle(started.url, control, `toggle-${sent++}`, context.signal);
        outcomes.set(got, (outcomes.get(got) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const seconds = (Date.now() - began) / 1000;
    const held = await started.server.heapAfterGc();
    const heldGrowth = idle && held ? held.heapUsed - idle.heapUsed : Number.NaN;
    const closedByServer = streams.filter((stream) => stream.isClosed()).length;
    // The stalled clients leave: their listen slots free, and what the server held for them goes.
    streams.forEach((stream) => stream.socket.destroy());
    await sleep(1000, context.signal);
    const fresh = Array.from({ length: MAX_LISTENS }, (_, i) => unreadListen(started.origin, `fresh-${i}`));
    streams.push(...fresh);
    const acknowledged = (await Promise.race([Promise.all(fresh.map((stream) => stream.opened)), sleep(15_000, context.signal).then(() => [])])).filter(Boolean).length;
    fresh.forEach((stream) => stream.socket.destroy());
    await sleep(1000, context.signal);
    const answered = outcomes.get("HTTP 200 result complete") ?? 0;
    return judge([
      [opened === MAX_LISTENS + sessions, `${opened} of ${MAX_LISTENS + sessions} stalled streams opened (${MAX_LISTENS} listens, ${sessions} GET streams)`],
      [answered === sent, `${sent} broadcasts in ${seconds.toFixed(1)} s from a legitimate session: ${[...outcomes].map(([text, n]) => `${n} x ${text}`).join(", ")}`],
      [heldGrowth < HELD_BOUND, `retained heap with them open +${mib(heldGrowth)} (bound ${mib(HELD_BOUND)}); the server closed ${closedByServer} of them`],
      [acknowledged === MAX_LISTENS, `once they left, ${acknowledged} of ${MAX_LISTENS} new listens acknowledged`],
      await retainedCheck(started.server, idle, RETAINED_BOUND),
      ...serverChecks(started.server, PEAK_BOUND),
    ]);
  },
};
