// The CLI's half of the inspect page's MCP Apps host (cli/inspect-apps.ts), without a browser: a
// view is read, its HTML given to the page, and a proxy document made under its policy for the
// page's own origin only (neither the page's origins nor the proxy's in the policy); a view's tools/call reaches the server only
// for a tool visible to apps; resources/read is passed on; nothing else is; the running requests are
// bounded. Against a server defined here, over a memory pair, in both generations.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (Resource Discovery: Visibility; Sandbox proxy, 8)
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpClient } from "../../src/client/client.js";
import { AppRequests, MAX_RUNNING_APP_REQUESTS } from "../../src/cli/inspect-apps.js";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { UI_MIME_TYPE } from "../../src/mcp/apps.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { McpServer, text } from "../../src/server/definition.js";

function server(release: Promise<void>): McpServer {
  const defined = new McpServer({ name: "apps-server", version: "1.0.0" });
  defined.view({ uri: "ui://t/view", name: "view", ui: { csp: { connectDomains: ["https://api.example.com", "http://127.0.0.1:9", "http://localhost:10"] } } }, () => "<!DOCTYPE html><p>view</p>");
  const schema = { type: "object" as const, properties: {} };
  defined.tool({ name: "shown", description: "both", inputSchema: schema, _meta: { ui: { resourceUri: "ui://t/view" } } }, () => ({ content: [text("shown ran")] }));
  defined.tool({ name: "app_only", description: "app", inputSchema: schema, _meta: { ui: { visibility: ["app"] } } }, () => ({ content: [text("app_only ran")] }));
  defined.tool({ name: "model_only", description: "model", inputSchema: schema, _meta: { ui: { visibility: ["model"] } } }, () => ({ content: [text("model_only ran")] }));
  defined.tool({ name: "slow", description: "waits", inputSchema: schema }, async () => (await release, { content: [text("slow ran")] }));
  return defined;
}

for (const protocolVersion of ["2026-07-28", "2025-11-25"] as const) {
  test(`inspect apps (${protocolVersion}): views, visibility, the methods passed on, the bound`, async () => {
    let open!: () => void;
    const release = new Promise<void>((resolve) => { open = resolve; });
    const [clientEnd, serverEnd] = createMemoryPair();
    server(release).connect(serverEnd);
    const client = new McpClient({ name: "t", version: "1" }, { protocolVersion, apps: { mimeTypes: [UI_MIME_TYPE] } });
    await client.connect(clientEnd);
    const made: [string, string][] = [];
    const sandbox = { origins: ["http://127.0.0.1:10", "http://localhost:10"], add: (policy: string, pageOrigin: string) => (made.push([policy, pageOrigin]), "http://127.0.0.1:10/once") };
    const apps = new AppRequests(() => ["http://127.0.0.1:9"], () => sandbox);

    const opened = await apps.open(client, "ui://t/view", "http://127.0.0.1:9");
    assert.deepEqual(opened.csp, { connectDomains: ["https://api.example.com"] });
    assert.match(opened.policy, /connect-src https:\/\/api\.example\.com;/);
    assert.equal(opened.html, "<!DOCTYPE html><p>view</p>");
    assert.deepEqual([opened.proxy, opened.proxyOrigin], ["http://127.0.0.1:10/once", "http://127.0.0.1:10"]);
    assert.deepEqual(made, [[opened.policy, "http://127.0.0.1:9"]]);
    await assert.rejects(apps.open(client, "ui://t/view", "https://evil.example"), /is not the inspector's/);
    assert.equal(made.length, 1, "no proxy document for another origin");
    await assert.rejects(apps.open(client, "ui://t/none", "http://127.0.0.1:9"), /-32002|not found|no resource/i);

    // Not listed yet: the check lists the tools itself.
    assert.deepEqual(((await apps.proxy(client, "tools/call", { name: "shown" })) as { content: unknown }).content, [{ type: "text", text: "shown ran" }]);
    assert.deepEqual(((await apps.proxy(client, "tools/call", { name: "app_only" })) as { content: unknown }).content, [{ type: "text", text: "app_only ran" }]);
    await assert.rejects(apps.proxy(client, "tools/call", { name: "model_only" }), (error: unknown) => error instanceof RpcError && error.code === -32000 && /not visible to apps/.test(error.message));
    await assert.rejects(apps.proxy(client, "tools/call", { name: "missing" }), /the server has no tool "missing"/);
    await assert.rejects(apps.proxy(client, "tools/call", {}), /name must be a string/);
    assert.equal(((await apps.proxy(client, "resources/read", { uri: "ui://t/view" })) as { contents: unknown[] }).contents.length, 1);
    await assert.rejects(apps.proxy(client, "prompts/get", { name: "x" }), (error: unknown) => error instanceof RpcError && error.code === -32601);

    const running = Array.from({ length: MAX_RUNNING_APP_REQUESTS }, () => apps.proxy(client, "tools/call", { name: "slow" }));
    await assert.rejects(apps.proxy(client, "tools/call", { name: "shown" }), new RegExp(`${MAX_RUNNING_APP_REQUESTS} of the views' requests are running`));
    open();
    for (const result of await Promise.all(running)) assert.deepEqual((result as { content: unknown }).content, [{ type: "text", text: "slow ran" }]);
    await client.close();
  });
}
