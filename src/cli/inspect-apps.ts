// The CLI's half of the MCP Apps host in `mcp-wire inspect`: it reads a tool's view for the page
// (resources/read, its policy from `_meta.ui.csp`, cli/inspect-views.ts, and a one-time sandbox
// proxy document of another origin served under that policy, cli/inspect-sandbox.ts), and it
// sends a view's requests on to the server, as the page's bridge (src/inspect/apps-host.js) passes
// them: `tools/call` only for a tool visible to apps, and `resources/read`. The page checks the
// view's messages first; the visibility rule is enforced here, where the server's tools are known.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (Resource Discovery: Behavior, Visibility; Sandbox proxy, 8; Standard MCP Messages).

import { toolUi } from "../apps/server.js";
import type { McpClient } from "../client/client.js";
import { ErrorCode, isObject, RpcError } from "../jsonrpc/messages.js";
import type { McpUiResourceCsp } from "../mcp/apps.js";
import type { Tool } from "../mcp/tools.js";
import type { SandboxServer } from "./inspect-sandbox.js";
import { appliedCsp, viewContent, viewPolicy } from "./inspect-views.js";

/** Requests of views running at once; more are refused until one ends (a view cannot queue without end). */
export const MAX_RUNNING_APP_REQUESTS = 8;

/** What the page is told about a view it may now load. */
export interface OpenedView {
  /** The sandbox proxy document's address, valid once, and its origin (the only one the page hears from). */
  proxy: string;
  proxyOrigin: string;
  /** The view's HTML, which the page sends the proxy in sandbox-resource-ready. */
  html: string;
  uri: string;
  /** The CSP lists applied (the declared ones, less any refused), and the whole header. */
  csp: McpUiResourceCsp;
  policy: string;
  prefersBorder?: boolean;
}

export class AppRequests {
  /** The server's tools as last listed, by name: whose visibility an app's call is checked against. */
  #tools = new Map<string, Tool>();
  #running = 0;

  /**
   * @param pageOrigins the page's own origins: a proxy document is made for one of these only.
   * @param sandbox the proxy's listener; its origins, like the page's, no view's policy may name.
   */
  constructor(private readonly pageOrigins: () => string[], private readonly sandbox: () => Pick<SandboxServer, "origins" | "add">) {}

  /** The tools the page listed: kept for the visibility check. */
  remember(tools: Tool[]): void {
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** Reads the view `uri` for the page at `pageOrigin`, and makes the proxy document it is to be loaded in. */
  async open(client: McpClient, uri: string, pageOrigin: string): Promise<OpenedView> {
    const pages = this.pageOrigins();
    if (!pages.includes(pageOrigin)) throw new Error(`the page's origin ${pageOrigin} is not the inspector's (${pages.join(", ")})`);
    // Spec (Resource Discovery, Behavior): the host MUST use resources/read to fetch the view.
    const { html, ui } = viewContent(uri, await client.readResource(uri));
    const sandbox = this.sandbox();
    const csp = appliedCsp(ui.csp, [...pages, ...sandbox.origins]);
    const policy = viewPolicy(csp);
    const proxy = sandbox.add(policy, pageOrigin);
    return { proxy, proxyOrigin: new URL(proxy).origin, html, uri, csp, policy, ...(typeof ui.prefersBorder === "boolean" ? { prefersBorder: ui.prefersBorder } : {}) };
  }

  /** A view's request, sent on to the server; anything but tools/call and resources/read is not ours to send. */
  async proxy(client: McpClient, method: unknown, params: unknown): Promise<unknown> {
    const given = isObject(params) ? params : {};
    if (this.#running >= MAX_RUNNING_APP_REQUESTS) throw new RpcError(-32000, `${MAX_RUNNING_APP_REQUESTS} of the views' requests are running already: try again when one has ended`);
    this.#running++;
    try {
      if (method === "tools/call") {
        const name = given.name;
        if (typeof name !== "string") throw new RpcError(ErrorCode.InvalidParams, "tools/call: name must be a string");
        await this.#checkVisible(client, name);
        return await client.callTool(name, isObject(given.arguments) ? given.arguments : undefined);
      }
      if (method === "resources/read") {
        if (typeof given.uri !== "string") throw new RpcError(ErrorCode.InvalidParams, "resources/read: uri must be a string");
        return await client.readResource(given.uri);
      }
      throw new RpcError(ErrorCode.MethodNotFound, `mcp-wire inspect does not pass ${String(method)} from a view to the server`);
    } finally {
      this.#running--;
    }
  }

  async #checkVisible(client: McpClient, name: string): Promise<void> {
    // A tool not seen yet (the page has not listed tools, or the server added one): listed again once.
    if (!this.#tools.has(name)) this.remember(await client.listAllTools());
    const tool = this.#tools.get(name);
    if (tool === undefined) throw new RpcError(ErrorCode.InvalidParams, `tools/call: the server has no tool "${name}"`);
    // Spec (Resource Discovery, Visibility): default ["model", "app"]; the host MUST reject an app's
    // tools/call of a tool whose visibility does not include "app".
    const declared: unknown = toolUi(tool)?.visibility;
    const visibility = Array.isArray(declared) ? declared : ["model", "app"];
    if (!visibility.includes("app")) throw new RpcError(-32000, `tools/call: "${name}" is not visible to apps (its _meta.ui.visibility is ${JSON.stringify(visibility)})`);
  }
}
