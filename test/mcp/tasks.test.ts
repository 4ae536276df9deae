// Tasks (experimental in 2025-11-25) are shown as types only: what mcp/tasks.ts's header says of
// the server holds (no `tasks` capability, -32601 for every tasks/* method, a `task` param ignored
// and the request served as usual), and the types take the spec's own examples.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CreateTaskResult, GetTaskResult, ServerTasksCapability, TaskStatusNotificationParams } from "../../src/mcp/tasks.js";
import { McpServer, text } from "../../src/server/definition.js";
import { RawPeer } from "../helpers/raw-peer.js";

async function operating() {
  const peer = new RawPeer();
  new McpServer({ name: "t", version: "1" }).tool({ name: "echo", inputSchema: { type: "object" } }, () => ({ content: [text("done")] })).connect(peer);
  peer.write({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { tasks: { list: {}, cancel: {} } }, clientInfo: { name: "t", version: "1" } } });
  await peer.waitForSent(1);
  peer.write({ jsonrpc: "2.0", method: "notifications/initialized" });
  return peer;
}

/** The message the server sent with this id. */
function answer(peer: RawPeer, id: number) {
  return peer.sent.flat().find((message) => "id" in message && message.id === id);
}

test("tasks: the server declares no tasks capability", async () => {
  const peer = await operating();
  const initialized = answer(peer, 0);
  assert.ok(initialized && "result" in initialized);
  const capabilities = initialized.result.capabilities as { [key: string]: unknown };
  assert.ok(capabilities.tools, "the server does declare what it offers");
  assert.equal("tasks" in capabilities, false);
});

test("tasks: tasks/get, tasks/result, tasks/list and tasks/cancel are answered -32601", async () => {
  const peer = await operating();
  const methods = ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"];
  methods.forEach((method, at) => peer.write({ jsonrpc: "2.0", id: at + 1, method, params: method === "tasks/list" ? {} : { taskId: "t-1" } }));
  await peer.waitForSent(1 + methods.length);
  for (const [at, method] of methods.entries()) {
    const reply = answer(peer, at + 1);
    assert.ok(reply && "error" in reply, method);
    assert.equal(reply.error.code, -32601, method);
  }
});

test("tasks: a tools/call with a task param is served as an ordinary call (a CallToolResult, no task)", async () => {
  const peer = await operating();
  peer.write({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {}, task: { ttl: 60_000 } } });
  await peer.waitForSent(2);
  assert.deepEqual(peer.sent[1], { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "done" }] } });
});

test("tasks: the types take the spec's examples and refuse a status it does not have (checked by the compiler)", () => {
  const task = {
    taskId: "786512e2-9e0d-44bd-8f29-789f320fe840",
    status: "working",
    statusMessage: "The operation is now in progress.",
    createdAt: "2025-11-25T10:30:00Z",
    lastUpdatedAt: "2025-11-25T10:40:00Z",
    ttl: 60_000,
    pollInterval: 5_000,
  } as const;
  const created: CreateTaskResult = { task };
  const polled: GetTaskResult = { ...task, ttl: null };
  const notified: TaskStatusNotificationParams = { ...task, status: "completed" };
  const offered: ServerTasksCapability = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
  // @ts-expect-error: "done" is not a TaskStatus.
  const wrong: GetTaskResult = { ...task, status: "done" };
  assert.deepEqual([created.task.status, polled.ttl, notified.status, Object.keys(offered.requests!), wrong.taskId], ["working", null, "completed", ["tools"], task.taskId]);
});
