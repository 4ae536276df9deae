// The `x-mcp-header` declarations of a 2026-07-28 server's tools, as the client keeps them: a tool
// whose declarations are invalid is dropped from what tools/list shows (with a warning), and each
// tools/call of a valid one carries its `Mcp-Param-{Name}` headers (RequestOptions.headers; the
// HTTP transport sends them, stdio has no headers and ignores them). Since 2026-07-28.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header and
// basic/transports/streamable-http#custom-headers-from-tool-parameters (#client-behavior). The rules
// themselves live in http/mcp-headers.ts, shared with the server's check.
// After a -32020 the session clears them, fetches tools/list again and retries the call once (session.ts).

import { headerParams, mirroredHeaders, type HeaderParam } from "../../http/mcp-headers.js";
import type { ListToolsResult } from "../../mcp/tools.js";

const PARAM_PREFIX = "mcp-param-";

/**
 * The most tools whose declarations are kept (the least recently listed go first): a server that
 * lists new tools on every list_changed must not grow this without end. As many as one listing
 * may hold (DEFAULT_LISTING_LIMITS.maxItems); a tool forgotten sends no Mcp-Param-*, and the
 * server's -32020 makes the session list again and retry once.
 */
export const MAX_TOOLS_WITH_HEADERS = 10_000;

export class ToolHeaders {
  /** By tool name, from the latest tools/list pages seen; a tool never listed sends no Mcp-Param-*. */
  readonly #byTool = new Map<string, HeaderParam[]>();

  /** The page without the tools whose declarations are invalid, each reported to `onProblem`. */
  fromList(page: ListToolsResult, onProblem: (message: string) => void): ListToolsResult {
    const tools = page.tools.filter((tool) => {
      const found = headerParams(tool.inputSchema);
      // Spec (server/tools#x-mcp-header): a client MUST drop a tool with an invalid declaration (SHOULD warn).
      if (!found.ok) {
        this.#byTool.delete(tool.name);
        onProblem(`tools/list: left out the tool ${JSON.stringify(tool.name)}: its x-mcp-header declarations are invalid (${found.reason})`);
        return false;
      }
      this.#byTool.delete(tool.name);
      if (found.params.length > 0) this.#keep(tool.name, found.params);
      return true;
    });
    return tools.length === page.tools.length ? page : { ...page, tools };
  }

  /** How many tools' declarations are kept. */
  get size(): number {
    return this.#byTool.size;
  }

  /** Kept as the newest (a Map keeps insertion order), the oldest forgotten past the bound. */
  #keep(tool: string, params: HeaderParam[]): void {
    this.#byTool.set(tool, params);
    for (const oldest of this.#byTool.keys()) {
      if (this.#byTool.size <= MAX_TOOLS_WITH_HEADERS) break;
      this.#byTool.delete(oldest);
    }
  }

  /** Forgets every declaration: the tools/list that follows says what holds now. */
  clear(): void {
    this.#byTool.clear();
  }

  /** The Mcp-Param-* headers of a tools/call with these params, if its tool declared any. */
  forCall(params: { [key: string]: unknown }): Record<string, string> | undefined {
    const declared = typeof params.name === "string" ? this.#byTool.get(params.name) : undefined;
    if (!declared) return undefined;
    const headers = Object.entries(mirroredHeaders({ method: "tools/call", params }, declared)).filter(([name]) => name.startsWith(PARAM_PREFIX));
    return headers.length > 0 ? Object.fromEntries(headers) : undefined;
  }
}
