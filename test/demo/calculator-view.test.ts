// The demo's MCP Apps view (src/demo/apps/calculator.html) without a browser: a host played here
// finds the view as a host would (tools/list names it in add's _meta.ui, resources/read serves it),
// runs the view's script in node:vm against a fake window, parent and document, and speaks the
// host's side of the bridge to it, proxying the view's tools/call to the real demo server. What is
// checked is the view's side, from the extension's spec (specification/2026-01-26/apps.mdx in
// modelcontextprotocol/ext-apps): ui/initialize with appInfo, appCapabilities and protocolVersion
// 2026-01-26; ui/notifications/initialized after the answer and nothing before it but requests;
// tool-input and tool-result shown; tools/call through the host; size-changed on a change only.
// A real browser renders it in the inspect tests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { CALCULATOR_PATH, CALCULATOR_URI } from "../../src/demo/apps.js";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "../../src/mcp/apps.js";
import { ModernPeer } from "../helpers/modern-peer.js";

type Json = { [key: string]: any };
type Listener = (event: Json) => void;

/** A stand-in for one element: the properties and the one method the view uses. */
class FakeElement {
  value = "";
  textContent = "";
  className = "";
  disabled = false;
  readonly listeners: { [type: string]: Listener[] } = {};
  addEventListener(type: string, listener: Listener): void {
    (this.listeners[type] ??= []).push(listener);
  }
}

/** The view's script, run against fakes; `posted` is what it sent its parent, as postMessage would clone it. */
function runView(html: string) {
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
  assert.ok(script, "the view has one inline <script>");
  const posted: Json[] = [];
  const parent = { postMessage: (message: unknown, origin: string) => { assert.equal(origin, "*"); posted.push(JSON.parse(JSON.stringify(message))); } };
  const ids = ["calculator", "a", "b", "add", "sum", "status"];
  const elements: { [id: string]: FakeElement } = Object.fromEntries(ids.map((id) => [id, new FakeElement()]));
  elements.add!.disabled = true;
  const root = { width: 320, height: 90, style: {} as Json, getBoundingClientRect() { return { width: this.width, height: this.height - 0.4 }; } };
  const messageListeners: Listener[] = [];
  const observers: (() => void)[] = [];
  const window = { parent, addEventListener: (type: string, listener: Listener) => type === "message" && messageListeners.push(listener) };
  const document = { documentElement: root, getElementById: (id: string) => elements[id] ?? null };
  class ResizeObserver {
    constructor(readonly callback: () => void) {}
    observe(target: unknown) { assert.equal(target, root); observers.push(this.callback); }
  }
  runInNewContext(script, { window, document, ResizeObserver });
  const deliver = (data: unknown, source: unknown = parent) => { for (const listener of messageListeners) listener({ source, data }); };
  return { posted, elements, root, deliver, observers };
}

/** Lets the view's promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const UI_ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } },
  "io.modelcontextprotocol/clientInfo": { name: "fake-host", version: "1" },
};

test("calculator view: found through add's _meta.ui, it initializes, shows the tool's input and result, and adds again through the host", async () => {
  const server = new ModernPeer(createDemoServer());
  const ask = async (method: string, params: Json) => (await server.modern(method, params, UI_ENVELOPE)).result as Json;
  const add = ((await ask("tools/list", {})).tools as Json[]).find((tool) => tool.name === "add")!;
  assert.deepEqual(add._meta, { ui: { resourceUri: CALCULATOR_URI } });
  const [content] = (await ask("resources/read", { uri: add._meta.ui.resourceUri })).contents as Json[];
  assert.equal(content!.mimeType, UI_MIME_TYPE);
  assert.deepEqual(content!._meta, { ui: { prefersBorder: true } });
  assert.match(content!.text, /^<!DOCTYPE html>/);
  // Spec (UI Resource Format, Host Behavior): no ui.csp means the restrictive default, so the view
  // may use nothing external: no src= or href= to anything, no url() in its style.
  assert.doesNotMatch(content!.text, /\b(src|href)\s*=|url\(|@import/);

  const view = runView(content!.text);
  // Spec (Transport Layer; App Capabilities): the view opens with ui/initialize, its capabilities included.
  assert.deepEqual(view.posted, [{
    jsonrpc: "2.0", id: 1, method: "ui/initialize",
    params: { protocolVersion: "2026-01-26", appInfo: { name: "mcp-wire-calculator", version: "0.1.0" }, appCapabilities: { availableDisplayModes: ["inline"] } },
  }]);
  assert.equal(view.elements.add!.disabled, true);
  view.deliver({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2026-01-26", hostCapabilities: { serverTools: {} }, hostInfo: { name: "fake-host", version: "1" }, hostContext: { theme: "dark" } } });
  await settle();
  assert.deepEqual(view.posted.slice(1), [
    { jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} },
    { jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { width: 320, height: 90 } },
  ]);
  assert.equal(view.elements.add!.disabled, false);
  assert.equal(view.root.style.colorScheme, "dark");

  // The host's own call of add, passed to the view (Data Passing).
  const called = await ask("tools/call", { name: "add", arguments: { a: 2, b: 3 } });
  view.deliver({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: { a: 2, b: 3 } } });
  assert.deepEqual([view.elements.a!.value, view.elements.b!.value], ["2", "3"]);
  view.deliver({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: called });
  assert.equal(view.elements.sum!.textContent, "5");

  // The person changes a and presses =: the view calls add through the host, which proxies it.
  view.elements.a!.value = "40";
  const before = view.posted.length;
  for (const listener of view.elements.calculator!.listeners.submit!) listener({ preventDefault() {} });
  const call = view.posted[before]!;
  assert.deepEqual({ ...call, id: undefined }, { jsonrpc: "2.0", id: undefined, method: "tools/call", params: { name: "add", arguments: { a: 40, b: 3 } } });
  assert.notEqual(call.id, 1, "a new id for each request");
  view.deliver({ jsonrpc: "2.0", id: call.id, result: await ask("tools/call", call.params) });
  await settle();
  assert.equal(view.elements.sum!.textContent, "43");
  assert.equal(view.elements.status!.className, "");
});

test("calculator view: it answers the host's ping and teardown, refuses unknown requests, ignores other senders, and reports size only on a change", async () => {
  const view = runView(readFileSync(CALCULATOR_PATH, "utf8"));
  // Before the host answers ui/initialize the view reports nothing.
  view.root.height = 100;
  assert.equal(view.posted.length, 1);
  view.deliver({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2026-01-26", hostCapabilities: {}, hostInfo: { name: "h", version: "1" } } }, { postMessage() {} });
  await settle();
  assert.equal(view.posted.length, 1, "an answer from anyone but the parent is ignored");
  view.deliver({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2026-01-26", hostCapabilities: {}, hostInfo: { name: "h", version: "1" } } });
  await settle();
  const sized = () => view.posted.filter((m) => m.method === "ui/notifications/size-changed").map((m) => m.params);
  assert.deepEqual(sized(), [{ width: 320, height: 100 }]);
  assert.equal(view.observers.length, 1);
  view.observers[0]!();
  assert.deepEqual(sized(), [{ width: 320, height: 100 }], "no change, no notification");
  view.root.height = 140;
  view.observers[0]!();
  assert.deepEqual(sized(), [{ width: 320, height: 100 }, { width: 320, height: 140 }]);

  view.deliver({ jsonrpc: "2.0", id: "p1", method: "ping" });
  view.deliver({ jsonrpc: "2.0", id: "t1", method: "ui/resource-teardown", params: { reason: "closed" } });
  view.deliver({ jsonrpc: "2.0", id: "x1", method: "ui/unknown" });
  view.deliver({ jsonrpc: "2.0", method: "ui/notifications/unknown" });
  assert.deepEqual(view.posted.slice(-3), [
    { jsonrpc: "2.0", id: "p1", result: {} },
    { jsonrpc: "2.0", id: "t1", result: {} },
    { jsonrpc: "2.0", id: "x1", error: { code: -32601, message: "the calculator view does not handle ui/unknown" } },
  ]);
  // A failed call is shown as an error, and cancellation is said.
  view.deliver({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { content: [{ type: "text", text: "add: the sum of 1e308 and 1e308 is not a finite number" }], isError: true } });
  assert.equal(view.elements.status!.className, "error");
  assert.match(view.elements.status!.textContent, /^add failed: add: the sum/);
  view.deliver({ jsonrpc: "2.0", method: "ui/notifications/tool-cancelled", params: { reason: "user" } });
  assert.equal(view.elements.status!.textContent, "the call was cancelled: user");
});

test("demo: a host without the extension gets add as before: no _meta.ui, no view listed, the sum as text and structured content", async () => {
  const server = new ModernPeer(createDemoServer());
  const initialized = await server.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "plain", version: "1" } });
  assert.equal((initialized.result as Json).capabilities.extensions, undefined);
  server.write({ jsonrpc: "2.0", method: "notifications/initialized" });
  const add = (((await server.request("tools/list", {})).result as Json).tools as Json[]).find((tool) => tool.name === "add")!;
  assert.equal(add._meta, undefined);
  const resources = ((await server.request("resources/list", {})).result as Json).resources as Json[];
  assert.ok(!resources.some((resource) => resource.uri.startsWith("ui://")));
  const called = (await server.request("tools/call", { name: "add", arguments: { a: 3, b: 4 } })).result as Json;
  assert.deepEqual(called, { content: [{ type: "text", text: "{\"sum\":7}" }], structuredContent: { sum: 7 } });
});
