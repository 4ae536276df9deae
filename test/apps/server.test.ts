// MCP Apps on the server side, from the extension's spec (specification/2026-01-26/apps.mdx in
// modelcontextprotocol/ext-apps): a tool names its ui:// view in `_meta.ui`, the view is read with
// the profile MIME type and its `_meta.ui`, registration refuses what the spec forbids, and the
// extension is negotiated in `capabilities.extensions` in both generations: in initialize and its
// result (SEP-2133), and per request in the 2026-07-28 envelope and server/discover. A client that
// did not declare it is served as if the server had no apps, and still gets the tool's text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "../../src/server/definition.js";
import { rendersApps } from "../../src/apps/server.js";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "../../src/mcp/apps.js";
import { envelope, ModernPeer } from "../helpers/modern-peer.js";

type Json = { [key: string]: any };

const VIEW = "ui://t/dashboard";
const UI_CLIENT = { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } };
const VIEW_META = { csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://cdn.example.com"] }, permissions: { clipboardWrite: {} }, prefersBorder: true };

function server(): McpServer {
  const definition = new McpServer({ name: "t", version: "1" });
  definition.view({ uri: VIEW, name: "dashboard", ui: VIEW_META }, () => "<!DOCTYPE html><html><body>hi</body></html>");
  definition.resource({ uri: "mem://plain", name: "plain" }, (uri) => [{ uri, text: "plain" }]);
  definition.tool(
    { name: "show", description: "Shows a number", inputSchema: { type: "object", properties: { n: { type: "number" } } }, _meta: { ui: { resourceUri: VIEW } } },
    (args) => ({ content: [{ type: "text", text: `n is ${String(args.n)}` }] }),
  );
  definition.tool(
    { name: "refresh", description: "For the view only", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: VIEW, visibility: ["app"] } } },
    () => ({ content: [{ type: "text", text: "refreshed" }] }),
  );
  definition.tool({ name: "plain", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "plain" }] }));
  return definition;
}

/** A handshake session at `version` whose client declared `capabilities`. */
async function handshake(capabilities: Json, version = "2025-11-25") {
  const peer = new ModernPeer(server());
  const initialized = await peer.request("initialize", { protocolVersion: version, capabilities, clientInfo: { name: "host", version: "1" } });
  peer.write({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { peer, initialized: initialized.result as Json };
}

const byName = (tools: Json[]) => Object.fromEntries(tools.map((tool) => [tool.name, tool]));

test("apps: a host that declares the extension gets _meta.ui on tools/list, app-only tools included, and the extension in the initialize result", async () => {
  const { peer, initialized } = await handshake(UI_CLIENT);
  // Spec (Capability Negotiation; SEP-2133 extensions#server-capabilities): the server's settings are {}.
  assert.deepEqual(initialized.capabilities.extensions, { [UI_EXTENSION_ID]: {} });
  const tools = byName(((await peer.request("tools/list", {})).result as Json).tools);
  assert.deepEqual(tools.show._meta, { ui: { resourceUri: VIEW } });
  assert.deepEqual(tools.refresh._meta, { ui: { resourceUri: VIEW, visibility: ["app"] } });
  assert.equal(tools.plain._meta, undefined);
});

test("apps: resources/read of a view gives text/html;profile=mcp-app, the HTML as text, and _meta.ui with the CSP, permissions and border", async () => {
  const { peer } = await handshake(UI_CLIENT);
  const read = (await peer.request("resources/read", { uri: VIEW })).result as Json;
  assert.deepEqual(read.contents, [{ uri: VIEW, mimeType: UI_MIME_TYPE, text: "<!DOCTYPE html><html><body>hi</body></html>", _meta: { ui: VIEW_META } }]);
  const listed = ((await peer.request("resources/list", {})).result as Json).resources as Json[];
  assert.deepEqual(listed.map((r) => [r.uri, r.mimeType]), [[VIEW, UI_MIME_TYPE], ["mem://plain", undefined]]);
});

test("apps: a host without the extension sees no _meta.ui, no app-only tool, no view in resources/list, no extension; the tool still answers with text", async () => {
  for (const capabilities of [{}, { extensions: {} }, { extensions: { [UI_EXTENSION_ID]: { mimeTypes: ["text/uri-list"] } } }, { extensions: { [UI_EXTENSION_ID]: {} } }]) {
    const { peer, initialized } = await handshake(capabilities);
    assert.equal(initialized.capabilities.extensions, undefined, JSON.stringify(capabilities));
    const tools = ((await peer.request("tools/list", {})).result as Json).tools as Json[];
    assert.deepEqual(tools.map((tool) => tool.name), ["show", "plain"]);
    assert.equal(tools[0]!._meta, undefined);
    const listed = ((await peer.request("resources/list", {})).result as Json).resources as Json[];
    assert.deepEqual(listed.map((r) => r.uri), ["mem://plain"]);
    // Spec (Resource Discovery, Behavior): without MCP Apps the tool behaves as a standard tool (text-only fallback).
    const called = (await peer.request("tools/call", { name: "show", arguments: { n: 3 } })).result as Json;
    assert.deepEqual(called.content, [{ type: "text", text: "n is 3" }]);
    // A view is still a resource: reading it asks for it by name, and gets it without _meta.ui.
    const read = (await peer.request("resources/read", { uri: VIEW })).result as Json;
    assert.equal(read.contents[0].mimeType, UI_MIME_TYPE);
    assert.equal(read.contents[0]._meta, undefined);
  }
});

test("apps: a 2024-11-05 host that declares the extension gets _meta.ui all the same, though that version has no _meta on tools", async () => {
  // The extension's own initialize example is at 2024-11-05 (Capability Negotiation).
  const { peer, initialized } = await handshake(UI_CLIENT, "2024-11-05");
  assert.deepEqual(initialized.capabilities.extensions, { [UI_EXTENSION_ID]: {} });
  const tools = byName(((await peer.request("tools/list", {})).result as Json).tools);
  assert.deepEqual(tools.show._meta, { ui: { resourceUri: VIEW } });
  const read = (await peer.request("resources/read", { uri: VIEW })).result as Json;
  assert.deepEqual(read.contents[0]._meta, { ui: VIEW_META });
});

test("apps: 2026-07-28 negotiates per request: server/discover and tools/list follow each request's envelope", async () => {
  const peer = new ModernPeer(server());
  const discover = async (capabilities: Json) => ((await peer.modern("server/discover", {}, envelope(capabilities))).result as Json).capabilities;
  assert.deepEqual((await discover(UI_CLIENT)).extensions, { [UI_EXTENSION_ID]: {} });
  assert.equal((await discover({})).extensions, undefined);
  const list = async (capabilities: Json) => ((await peer.modern("tools/list", {}, envelope(capabilities))).result as Json).tools as Json[];
  assert.deepEqual(byName(await list(UI_CLIENT)).show._meta, { ui: { resourceUri: VIEW } });
  assert.deepEqual((await list({})).map((tool) => [tool.name, tool._meta]), [["show", undefined], ["plain", undefined]]);
  const read = (await peer.modern("resources/read", { uri: VIEW }, envelope(UI_CLIENT))).result as Json;
  assert.deepEqual(read.contents[0]._meta, { ui: VIEW_META });
});

test("apps: rendersApps reads the client's untrusted settings: mimeTypes must be an array naming the profile", () => {
  assert.equal(rendersApps(UI_CLIENT), true);
  for (const settings of [undefined, null, "yes", [], { mimeTypes: "text/html;profile=mcp-app" }, { mimeTypes: ["text/html"] }]) {
    assert.equal(rendersApps({ extensions: { [UI_EXTENSION_ID]: settings as object } }), false, JSON.stringify(settings));
  }
});

test("apps: registration refuses what the spec forbids", () => {
  const definition = new McpServer({ name: "t", version: "1" });
  const tool = (ui: unknown, extra: Json = {}) => () =>
    definition.tool({ name: "x", inputSchema: { type: "object" }, _meta: { ui, ...extra } }, () => ({ content: [] }));
  // Spec (UI Resource Format): a view's URI MUST start with ui://; (Resource Discovery) it MUST exist.
  assert.throws(tool({ resourceUri: "https://example.com/view" }), /must be a ui:\/\/ URI/);
  assert.throws(tool({ resourceUri: "ui://t/missing" }), /names no registered view: register ui:\/\/t\/missing/);
  assert.throws(tool("ui://t/view"), /_meta.ui must be an object/);
  definition.view({ uri: "ui://t/view", name: "view" }, () => "<!DOCTYPE html><html></html>");
  assert.throws(tool({ resourceUri: "ui://t/view", visibility: ["agent"] }), /visibility must be a non-empty array of "model" and "app"/);
  assert.throws(tool({ resourceUri: "ui://t/view", visibility: [] }), /visibility/);
  assert.throws(tool({ resourceUri: "ui://t/view" }, { "ui/resourceUri": "ui://t/other" }), /deprecated _meta\["ui\/resourceUri"\]/);
  tool({ resourceUri: "ui://t/view", visibility: ["model", "app"] })();
  // Spec (UI Resource Format): the ui:// scheme is for views, whose mimeType is the profile's.
  assert.throws(() => definition.resource({ uri: "ui://t/page", name: "page", mimeType: "text/html" }, (uri) => [{ uri, text: "" }]), /must have mimeType "text\/html;profile=mcp-app"/);
  const view = (ui: unknown) => () => definition.view({ uri: "ui://t/v2", name: "v2", ui: ui as object }, () => "");
  assert.throws(view({ csp: { scriptDomains: ["https://a.example"] } }), /has no list "scriptDomains"/);
  assert.throws(view({ csp: { connectDomains: ["https://a.example; script-src *"] } }), /array of origins/);
  assert.throws(view({ permissions: { camera: true } }), /permissions.camera/);
  assert.throws(view({ prefersBorder: "yes" }), /prefersBorder must be a boolean/);
  assert.throws(view({ domain: 42 }), /domain must be a string/);
  // The view a tool names cannot go while the tool stays.
  assert.throws(() => definition.removeResource("ui://t/view"), /named by tool "x": remove the tool first/);
  assert.equal(definition.removeTool("x"), true);
  assert.equal(definition.removeResource("ui://t/view"), true);
});

test("apps: a ui:// reader that answers without the profile MIME type is the server's bug, never sent as a view", async () => {
  const definition = new McpServer({ name: "t", version: "1" });
  definition.resource({ uri: "ui://t/bad", name: "bad", mimeType: UI_MIME_TYPE }, (uri) => [{ uri, mimeType: "text/html", text: "<html></html>" }]);
  const peer = new ModernPeer(definition);
  const answer = await peer.modern("resources/read", { uri: "ui://t/bad" }, envelope(UI_CLIENT));
  assert.equal((answer.error as Json).code, -32603);
});
