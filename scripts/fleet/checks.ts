// The protocol checks of `npm run fleet`, each against the fleet behind nginx (or one instance
// directly, where the check is that another process answers): both generations of the official
// SDK v2 client and of ours, an input round split across processes, a replayed requestState
// refused by every process, a list change heard on another process's listen, a stream resumed on
// another process. Each returns its one-line detail, or throws.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr,
// .../2026-07-28/basic/patterns/subscriptions, .../2025-11-25/basic/transports#resumability-and-redelivery

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { McpClient } from "../../src/client/client.js";
import { HttpClientTransport } from "../../src/http/client.js";
import { mirroredHeaders } from "../../src/http/mcp-headers.js";
import { SseParser } from "../../src/http/sse-parser.js";
import type { CallToolResult } from "../../src/mcp/tools.js";
import { sleep } from "../interop.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
  "io.modelcontextprotocol/clientInfo": { name: "fleet-checks", version: "1.0.0" },
};

type Message = { id?: unknown; method?: string; params?: any; result?: any; error?: any };

/** POSTs one 2026-07-28 request; the answer, and which upstream nginx chose (X-Fleet-Upstream). */
export async function modern(url: string, id: number | string, method: string, params: object, signal?: AbortSignal): Promise<{ message: Message; upstream: string; response: Response }> {
  const message = { jsonrpc: "2.0", id, method, params: { ...params, _meta: ENVELOPE } };
  const response = await fetch(url, {
    method: "POST", signal, body: JSON.stringify(message),
    headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...mirroredHeaders(message) },
  });
  const upstream = response.headers.get("x-fleet-upstream") ?? "direct";
  if (method === "subscriptions/listen") return { message: {}, upstream, response };
  return { message: (await response.json()) as Message, upstream, response };
}

/** The SDK v2 client program of scripts/interop-modern, in one era mode, against the fleet. */
export function sdkClient(peers: string, mode: "2026-07-28" | "legacy", url: string): string {
  const run = spawnSync(process.execPath, [join(peers, "sdk-client.mjs"), "http", mode, url], { cwd: peers, encoding: "utf8", timeout: 90_000 });
  const report = JSON.parse(run.stdout || "{}");
  assert.equal(run.status, 0, `exit ${run.status}: failed ${JSON.stringify(report.failed)} ${run.stderr.slice(-500)}`);
  return `era ${report.era}, protocol ${report.protocolVersion}, every step passed (${Object.keys(report.steps).join(", ")})`;
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");

/** Our client, in one generation, through the fleet: greet and summarize through its handlers, a list change heard. */
export async function ourClient(url: string, generation: "2026-07-28" | "2025-11-25"): Promise<string> {
  let changes = 0;
  const client = new McpClient({ name: "fleet-our-client", version: "0.1.0" }, {
    protocolVersion: generation,
    elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }) },
    sampling: () => ({ role: "assistant", content: { type: "text", text: "A short summary." }, model: "fleet-stub", stopReason: "endTurn" }),
  });
  client.on("toolsChanged", () => changes++);
  const transport = new HttpClientTransport(url);
  try {
    await client.connect(transport);
    assert.equal(textOf(await client.callTool("greet", {})), "Hello, Ada!");
    assert.equal(textOf(await client.callTool("summarize", { text: "MCP has two generations." })), "A short summary.");
    await client.callTool("toggle_extra", {});
    for (let waited = 0; changes === 0 && waited < 5000; waited += 20) await sleep(20);
    await client.callTool("toggle_extra", {});
    assert.ok(changes > 0, "no toolsChanged within 5 s");
    return `protocol ${client.protocolVersion}: greet, summarize, toggle_extra heard`;
  } finally {
    await client.close();
  }
}

/** The first greet round through nginx, its retry until it lands on another process. */
export async function splitRound(url: string): Promise<{ detail: string; retry: object; name: string }> {
  const first = await modern(url, 1, "tools/call", { name: "greet", arguments: {} });
  assert.equal(first.message.result?.resultType, "input_required", JSON.stringify(first.message));
  const key = Object.keys(first.message.result.inputRequests)[0]!;
  const retry = { inputResponses: { [key]: { action: "accept", content: { name: "Lin" } } }, requestState: first.message.result.requestState };
  // Round-robin: a ping in between moves the next request along if it would land on the same one.
  for (let attempt = 0; attempt < 6; attempt++) {
    const probe = await modern(url, 100 + attempt, "ping", {});
    if (probe.upstream === first.upstream) continue;
    const done = await modern(url, 2, "tools/call", { name: "greet", arguments: {}, ...retry });
    if (done.upstream === first.upstream) throw new Error(`the retry came back to ${done.upstream}`);
    assert.equal(done.message.result?.content?.[0]?.text, "Hello, Lin!", JSON.stringify(done.message));
    return { detail: `first round on ${first.upstream}, retry answered by ${done.upstream}`, retry, name: "greet" };
  }
  throw new Error("could not make the retry land on another process");
}

/** The used state again, straight to every instance: each refuses it as replayed. */
export async function replayEverywhere(origins: string[], retry: object): Promise<string> {
  for (const origin of origins) {
    const again = await modern(`${origin}/mcp`, 3, "tools/call", { name: "greet", arguments: {}, ...retry });
    assert.deepEqual(again.message.error?.data, { reason: "replayed" }, `${origin}: ${JSON.stringify(again.message)}`);
  }
  return `refused (-32602, reason replayed) by all ${origins.length} processes`;
}

/** Reads an SSE response into messages as they come, each with the last event id of its chunk (where a resume would start). */
function messages(response: Response, onMessage: (message: Message, id: string | undefined) => void): Promise<void> {
  const parser = new SseParser();
  return (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      for (const event of parser.push(decoder.decode(chunk, { stream: true }))) if (event.data !== "") onMessage(JSON.parse(event.data), parser.lastEventId);
    }
  })().catch(() => {});
}

/** A listen on `listener` hears toggle_extra called on `changer`. */
export async function listenElsewhere(listener: string, changer: string): Promise<string> {
  const stop = new AbortController();
  const listen = await modern(`${listener}/mcp`, "fleet-listen", "subscriptions/listen", { notifications: { toolsListChanged: true } }, stop.signal);
  let acknowledged = false, heard = false;
  void messages(listen.response, (message) => {
    if (message.method === "notifications/subscriptions/acknowledged") acknowledged = true;
    if (message.method === "notifications/tools/list_changed") heard = true;
  });
  for (let waited = 0; !acknowledged && waited < 5000; waited += 10) await sleep(10);
  assert.ok(acknowledged, "the listen was not acknowledged");
  await modern(`${changer}/mcp`, 5, "tools/call", { name: "toggle_extra", arguments: {} });
  for (let waited = 0; !heard && waited < 5000; waited += 10) await sleep(10);
  await modern(`${changer}/mcp`, 6, "tools/call", { name: "toggle_extra", arguments: {} });
  stop.abort();
  assert.ok(heard, "the listen heard nothing within 5 s");
  return `listen on ${listener.split(":").at(-1)} heard a change made on ${changer.split(":").at(-1)}`;
}

const HANDSHAKE = { accept: "application/json, text/event-stream", "content-type": "application/json" };

/**
 * A handshake-era session opened through nginx; a countdown call on it whose stream the client
 * drops after the first progress; the rest of that stream, answer included, resumed (GET with
 * Last-Event-ID) on another process, which replays it from Redis. Returns the session's process.
 */
export async function resumeElsewhere(url: string, origins: string[]): Promise<string> {
  const opened = await fetch(url, { method: "POST", headers: HANDSHAKE, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fleet-resume", version: "1" } } }) });
  const session = opened.headers.get("mcp-session-id");
  assert.ok(session, "initialize: no Mcp-Session-Id");
  await opened.text();
  const headers = { ...HANDSHAKE, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
  await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  const home = opened.headers.get("x-fleet-upstream") ?? "";
  const stop = new AbortController();
  const call = await fetch(url, { method: "POST", headers, signal: stop.signal, body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "countdown", arguments: { steps: 4, intervalMs: 100 }, _meta: { progressToken: "t" } } }) });
  let lastEventId: string | undefined;
  void messages(call, (message, id) => {
    if (message.method === "notifications/progress" && lastEventId === undefined) lastEventId = id;
  });
  for (let waited = 0; lastEventId === undefined && waited < 5000; waited += 10) await sleep(10);
  stop.abort();
  assert.ok(lastEventId, "no progress event with an id");
  // The call goes on without its reader, and ends: its answer is kept in Redis.
  await sleep(1000);
  const other = origins.find((origin) => !home.endsWith(`:${new URL(origin).port}`))!;
  const resumed = await fetch(`${other}/mcp`, { headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25", "last-event-id": lastEventId } });
  assert.equal(resumed.status, 200, `resume on another process: HTTP ${resumed.status} ${await resumed.clone().text()}`);
  const replayed: Message[] = [];
  await messages(resumed, (message) => replayed.push(message));
  const answers = replayed.filter((message) => message.id === 7);
  assert.equal(answers.length, 1, `one answer replayed, got ${JSON.stringify(replayed)}`);
  assert.match(answers[0]!.result?.content?.[0]?.text ?? "", /countdown: done/);
  return `session on ${home}, its dropped stream resumed on ${other.split(":").at(-1)}: ${replayed.length} events after ${lastEventId}, the answer once`;
}
