// Sticky handshake-era sessions behind a balancer that routes on the instance a session id names
// (test/helpers/sticky-balancer.ts, as scripts/fleet's nginx does): a session stays on its instance;
// when that instance is gone, its next request reaches another, which answers 404, and our client
// opens a new session there and sets up again its subscriptions and log level.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { NOTES_URI } from "../../src/demo/server-definition.js";
import { StreamableHttpClientTransport } from "../../src/http/client-transport.js";
import type { LoggingMessageNotificationParams } from "../../src/mcp/logging.js";
import { serve } from "../helpers/http-peer.js";
import { stickyBalancer, type Backend } from "../helpers/sticky-balancer.js";

test("sticky sessions: a session stays on the instance its id names; once it is gone, the client renews on another and restores its setup", { timeout: 15_000 }, async () => {
  const a = await serve({ instance: "a" });
  const b = await serve({ instance: "b" });
  const backends: Backend[] = [{ name: "a", origin: a.origin, up: true }, { name: "b", origin: b.origin, up: true }];
  const balancer = await stickyBalancer(backends);
  try {
    const transport = new StreamableHttpClientTransport(balancer.url);
    const client = new McpClient({ name: "sticky", version: "1" }, { protocolVersion: "2025-11-25" });
    await client.connect(transport);
    const home = transport.sessionId!.split(".")[0]!;
    const [mine, other] = home === "a" ? [a, b] : [b, a];
    await client.subscribe(NOTES_URI);
    await client.setLoggingLevel("debug");
    for (let i = 0; i < 4; i++) await client.callTool("add", { a: i, b: 1 });
    assert.equal(mine.http.streamable.sessionCount, 1, "every call stayed on the session's instance");
    assert.equal(other.http.streamable.sessionCount, 0);

    // The session's instance goes away; the balancer sends its id elsewhere.
    backends.find((backend) => backend.name === home)!.up = false;
    await mine.close();
    const renewed = new Promise<Error[]>((resolve) => client.once("sessionRenewed", resolve));
    const answer = await client.callTool("add", { a: 2, b: 3 });
    assert.equal(answer.isError, undefined);
    assert.deepEqual(await renewed, [], "the subscription and the log level were set up again");
    assert.match(transport.sessionId!, new RegExp(`^${home === "a" ? "b" : "a"}\\.`), "the new session names the other instance");

    const updated = new Promise<string>((resolve) => client.once("resourceUpdated", resolve));
    other.mcp.resourceUpdated(NOTES_URI);
    assert.equal(await updated, NOTES_URI);
    const logs: LoggingMessageNotificationParams[] = [];
    client.on("log", (params: LoggingMessageNotificationParams) => logs.push(params));
    await client.callTool("echo", { text: "hi" });
    assert.ok(logs.some((log) => log.level === "debug"), "the debug level holds in the new session");
    await client.close();
  } finally {
    await balancer.close();
    await Promise.all([a.close(), b.close()].map((closing) => closing.catch(() => {})));
  }
});
