// The demo's one MCP Apps view: a calculator for the tool `add`, the hand-written HTML file
// apps/calculator.html (next to this module in src/demo/ and, copied by scripts/bundle.ts, in
// dist/demo/), read when first asked for. Hosts that render apps show it for add's results;
// others never see it (apps/server.ts) and get add's text as before.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { McpServer } from "../server/definition.js";

export const CALCULATOR_URI = "ui://mcp-wire-demo/calculator";
export const CALCULATOR_PATH = fileURLToPath(new URL("./apps/calculator.html", import.meta.url));

/** Registers the calculator view; the tool add names it in its `_meta.ui.resourceUri`. */
export function addCalculatorView(server: McpServer): void {
  let html: string | undefined;
  server.view(
    {
      uri: CALCULATOR_URI,
      name: "calculator",
      title: "Calculator",
      description: "A view for the tool add: shows the call's numbers and sum, and adds again through the host.",
      // Nothing beyond the default CSP: no network, no external scripts or styles. A border, since
      // the view is a small form that would otherwise blend into the conversation.
      ui: { prefersBorder: true },
    },
    () => (html ??= readFileSync(CALCULATOR_PATH, "utf8")),
    // The file does not change while the server runs.
    { ttlMs: 3_600_000, cacheScope: "public" },
  );
}
