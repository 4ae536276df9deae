// The client's MCP Apps option (ClientOptions.apps): it declares `io.modelcontextprotocol/ui` with
// its mimeTypes under capabilities.extensions, in initialize (handshake era) and in every
// 2026-07-28 request's envelope, and the demo server, which shows views only to a client that
// declared the extension, then shows add's _meta.ui; without the option it does not.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (Client<>Server Capability Negotiation)
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { CALCULATOR_URI } from "../../src/demo/apps.js";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "../../src/mcp/apps.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import type { Sent } from "../helpers/client-modern-peer.js";

const info = { name: "test-client", version: "1.0.0" };
const CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
const DECLARED = { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } };

async function session(protocolVersion: "2026-07-28" | "2025-11-25", apps: boolean) {
  const [clientEnd, serverEnd] = createMemoryPair();
  const sent: Sent[] = [];
  const send = clientEnd.send.bind(clientEnd);
  clientEnd.send = (message, options) => { sent.push(JSON.parse(JSON.stringify(message))); return send(message, options); };
  createDemoServer().connect(serverEnd);
  const client = new McpClient(info, { protocolVersion, ...(apps ? { apps: { mimeTypes: [UI_MIME_TYPE] } } : {}) });
  await client.connect(clientEnd);
  return { client, sent };
}

for (const version of ["2026-07-28", "2025-11-25"] as const) {
  test(`apps option (${version}): the extension is declared, and the server shows add's view`, async () => {
    const { client, sent } = await session(version, true);
    const add = (await client.listAllTools()).find((tool) => tool.name === "add");
    assert.deepEqual(add?._meta, { ui: { resourceUri: CALCULATOR_URI } });
    if (version === "2025-11-25") {
      const initialize = sent.find((message) => message.method === "initialize");
      assert.deepEqual((initialize?.params?.capabilities as { extensions?: unknown }).extensions, DECLARED);
    } else {
      const requests = sent.filter((message) => message.method !== undefined && message.id !== undefined);
      assert.ok(requests.length >= 2);
      for (const request of requests) {
        const meta = request.params?._meta as { [key: string]: { extensions?: unknown } };
        assert.deepEqual(meta[CAPABILITIES_KEY]?.extensions, DECLARED, `${request.method} carries the extension`);
      }
    }
    const read = await client.readResource(CALCULATOR_URI);
    assert.equal(read.contents[0]?.mimeType, UI_MIME_TYPE);
    await client.close();
  });

  test(`no apps option (${version}): nothing declared, add has no _meta.ui`, async () => {
    const { client, sent } = await session(version, false);
    const add = (await client.listAllTools()).find((tool) => tool.name === "add");
    assert.ok(add);
    assert.equal(add._meta, undefined);
    assert.doesNotMatch(JSON.stringify(sent), /io\.modelcontextprotocol\/ui/);
    await client.close();
  });
}

test("apps option: mimeTypes must name a view type", () => {
  assert.throws(() => new McpClient(info, { apps: { mimeTypes: [] } }), /apps\.mimeTypes must name at least one view type/);
});
