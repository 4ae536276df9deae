// The server side of the MCP Apps peer: OUR library (McpServer.view(), a tool's _meta.ui) serving
// the view built with the official SDK (app/, bundled by prepare.ts into one HTML file), over
// stdio. A host that renders apps finds count_letters' view in its _meta.ui.resourceUri, reads it,
// renders it, and proxies the view's own tools/call of count_letters back here.
// Run: `node <cache>/server.mjs <view.html>` (prepare.ts bundles this file and names both paths).
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
import "../../../src/transports/stdout-guard.js";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { McpServer, serveStdio, text } from "../../../src/index.js";

export const VIEW_URI = "ui://mcp-wire-ext-apps-peer/letters";
export const TOOL = "count_letters";

/** The server, serving the view read from `htmlPath` (read once: the file does not change while it runs). */
export function createPeerServer(htmlPath: string): McpServer {
  const html = readFileSync(htmlPath, "utf8");
  const server = new McpServer({ name: "mcp-wire-ext-apps-peer", version: "1.0.0" });
  // The SDK's bundle is inline; the view needs nothing beyond the default CSP. A border, since it is a small form.
  server.view({ uri: VIEW_URI, name: "letters", title: "Letter counter", description: "Shows count_letters' result and counts again through the host.", ui: { prefersBorder: true } }, () => html);
  server.tool(
    {
      name: TOOL,
      title: "Count letters",
      description: "Counts the letters and the vowels (a, e, i, o, u) of a text; structured content { text, letters, vowels }.",
      inputSchema: { type: "object", properties: { text: { type: "string", maxLength: 1000, description: "The text to count." } }, required: ["text"] },
      outputSchema: {
        type: "object",
        properties: { text: { type: "string" }, letters: { type: "integer" }, vowels: { type: "integer" } },
        required: ["text", "letters", "vowels"],
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: { ui: { resourceUri: VIEW_URI } },
    },
    (args) => {
      const counted = { text: args.text, letters: args.text.match(/\p{L}/gu)?.length ?? 0, vowels: args.text.match(/[aeiou]/gi)?.length ?? 0 };
      // Spec (server/tools#structured-content): structured content SHOULD come with its JSON as text too.
      return { content: [text(JSON.stringify(counted))], structuredContent: counted };
    },
  );
  return server;
}

// Started as a program (the bundle prepare.ts makes, or this file under tsx): serve stdio. Imported: nothing runs.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const htmlPath = process.argv[2];
  if (!htmlPath) throw new Error("usage: node server.mjs VIEW.html");
  serveStdio(createPeerServer(htmlPath), { programName: "mcp-wire-ext-apps-peer" });
}
