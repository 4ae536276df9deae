// Reconnecting dropped SSE streams (issue 7, item 14): `retry: 0` and a stream that ends at once
// must not make the client spin. A floor on the wait, backoff for quiet streams in a row, and a
// bounded number of them for a response stream. Counts reconnects, never measures speed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerResponse } from "node:http";
import { McpClient } from "../../src/client/client.js";
import { HttpProtocolError } from "../../src/http/client-fetch.js";
import { Reconnects } from "../../src/http/client-reconnect.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import { initializeResult, json, routine, scriptedServer, wait } from "../helpers/scripted-http.js";

const info = { name: "reconnect-tests", version: "1" };

/** A priming event with `retry: 0`, then the end of the stream: the worst a server can ask for. */
const endAtOnce = (response: ServerResponse, id: string) =>
  response.writeHead(200, { "content-type": "text/event-stream" }).end(`id: ${id}\nretry: 0\ndata: \n\n`);

/**
 * tools/call and every GET get a stream that ends at once. Resuming with GET and Last-Event-ID is
 * the handshake era's (a 2026-07-28 stream is never resumed): the clients below pin it.
 */
function spinningServer() {
  let n = 0;
  return scriptedServer((seen, response) => {
    if (seen.method === "GET") return endAtOnce(response, `e${n++}`);
    if (routine(seen, response)) return;
    if (seen.rpc === "initialize") return json(response, initializeResult(seen.body!.id), { "mcp-session-id": "s1" });
    endAtOnce(response, `e${n++}`);
  });
}

test("streamable http: a response stream that keeps ending without a message is given up after maxQuietReconnects", async () => {
  const server = await spinningServer();
  try {
    const client = new McpClient(info, { protocolVersion: "2025-11-25" });
    await client.connect(new StreamableHttpClientTransport(server.url, { listen: false, minRetryMs: 5, maxQuietReconnects: 3 }));
    await assert.rejects(client.callTool("t"), (error: unknown) =>
      error instanceof HttpProtocolError && /^tools\/call: the server ended the response stream 4 times in a row without a message; gave up$/.test(error.message));
    const resumes = server.seen.filter((s) => s.method === "GET");
    assert.equal(resumes.length, 3);
    assert.deepEqual(resumes.map((s) => s.headers["last-event-id"]), ["e0", "e1", "e2"]);
    await client.close();
  } finally {
    await server.close();
  }
});

test("streamable http: with the default floor, retry: 0 does not make the GET stream spin", async () => {
  const server = await spinningServer();
  try {
    const client = new McpClient(info, { protocolVersion: "2025-11-25" });
    await client.connect(new StreamableHttpClientTransport(server.url));
    await wait(() => server.seen.some((s) => s.method === "GET"));
    await sleep(700);
    const gets = server.seen.filter((s) => s.method === "GET").length;
    // Waits of 250 ms, then 500 ms: at most two reconnects after the first GET (without the floor: hundreds).
    assert.ok(gets <= 3, `${gets} GET requests`);
    await client.close();
  } finally {
    await server.close();
  }
});

/** The waits a Reconnects policy gives for streams ending one after another, each [delivered, retry]. */
function sequence(options: ConstructorParameters<typeof Reconnects>[0], bounded: boolean, ends: [boolean, number | undefined][]) {
  const reconnects = new Reconnects(options, bounded);
  return ends.map(([delivered, retry]) => reconnects.ended(delivered, retry));
}
const quiet = (retry?: number): [boolean, number | undefined] => [false, retry];
const delivered = (retry?: number): [boolean, number | undefined] => [true, retry];

test("reconnect policy: the server's retry, a floor, doubling for quiet streams up to a cap, never under retry", () => {
  assert.deepEqual(sequence({}, true, [quiet(0), quiet(), quiet(), quiet(), quiet(), quiet()]), [250, 500, 1000, 2000, 4000, undefined]);
  assert.deepEqual(sequence({}, false, [quiet(0), quiet(), quiet(), quiet(), quiet(), quiet(), quiet(), quiet(), quiet()]), [250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  assert.deepEqual(sequence({}, true, [[true, 2000], quiet(), [true, undefined]]), [2000, 2000, 2000], "a stream that brought a message starts over");
  assert.deepEqual(sequence({ maxRetryMs: 1000 }, false, [quiet(60_000), quiet()]), [60_000, 60_000], "the server's retry wins over the cap");
  assert.deepEqual(sequence({ retryMs: 100, minRetryMs: 10 }, true, [[true, undefined]]), [100]);
});

const policyCases: { name: string; options: ConstructorParameters<typeof Reconnects>[0]; bounded: boolean; ends: [boolean, number | undefined][]; waits: (number | undefined)[] }[] = [
  { name: "without a retry from the server, the default wait is 1000 ms", options: {}, bounded: true, ends: [delivered(), delivered()], waits: [1000, 1000] },
  { name: "maxQuietReconnects 0: the first quiet stream gives up", options: { maxQuietReconnects: 0 }, bounded: true, ends: [delivered(), quiet()], waits: [1000, undefined] },
  {
    name: "a message between quiet streams starts the count again, so a bounded stream that delivers never gives up",
    options: { maxQuietReconnects: 2, retryMs: 100 },
    bounded: true,
    ends: [quiet(), quiet(), delivered(), quiet(), quiet(), quiet()],
    waits: [250, 500, 250, 250, 500, undefined],
  },
  { name: "the GET stream only backs off, past any maxQuietReconnects", options: { maxQuietReconnects: 0, maxRetryMs: 1000 }, bounded: false, ends: [quiet(0), quiet(), quiet(), quiet()], waits: [250, 500, 1000, 1000] },
  { name: "a floor above the cap: the floor holds (maxRetryMs 0 must not spin)", options: { minRetryMs: 500, maxRetryMs: 0 }, bounded: false, ends: [quiet(0), quiet()], waits: [500, 500] },
];
for (const c of policyCases) {
  test(`reconnect policy: ${c.name}`, () => {
    assert.deepEqual(sequence(c.options, c.bounded, c.ends), c.waits);
  });
}

test("reconnect policy: quiet counts the streams in a row that ended without a message", () => {
  const reconnects = new Reconnects({}, false);
  assert.equal(reconnects.quiet, 0);
  reconnects.ended(false, undefined);
  reconnects.ended(false, undefined);
  assert.equal(reconnects.quiet, 2);
  reconnects.ended(true, undefined);
  assert.equal(reconnects.quiet, 0);
});
