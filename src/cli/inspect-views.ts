// MCP Apps views in `mcp-wire inspect`: a tool's `ui://` view, read from the server and checked,
// and the Content-Security-Policy built from the resource's `_meta.ui.csp`. The sandbox proxy's
// document is served with that policy as its header (cli/inspect-sandbox.ts), and the view's
// srcdoc frame inside it inherits it.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (UI Resource Format: Host Behavior; Security Implications: Content Security Policy Enforcement).
// Leaves out `_meta.ui.domain` (a dedicated origin: every view here has the same opaque one) and
// `permissions` (none is granted: the iframe's `allow` is empty, which the spec lets a host do).

import { isObject } from "../jsonrpc/messages.js";
import { UI_CSP_LISTS, UI_MIME_TYPE, UI_SCHEME, type McpUiResourceCsp } from "../mcp/apps.js";
import type { ReadResourceResult } from "../mcp/resources.js";

/** The bounds on views; PROTOCOL_NOTES.md "Limits" lists them with the page's. */
export const VIEW_LIMITS = {
  /** Bytes of one view's HTML; a bigger one is refused. */
  htmlBytes: 4 * 1024 * 1024,
  /** Origins one CSP list may name; the rest are left out. */
  originsPerList: 32,
} as const;

/**
 * One origin a view may declare: a scheme, a host (its first label may be `*`, the spec's wildcard
 * subdomains) and a port. Anything else, such as a `'unsafe-eval'` keyword, a path, or a `;` that
 * would start a directive of its own, never reaches the header.
 */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;

/** A view's CSP lists as applied: each declared origin that is well formed and not the inspector's own (the page's, the proxy's). */
export function appliedCsp(declared: unknown, ownOrigins: readonly string[]): McpUiResourceCsp {
  const applied: McpUiResourceCsp = {};
  if (!isObject(declared)) return applied;
  for (const list of UI_CSP_LISTS) {
    const given = declared[list];
    if (!Array.isArray(given)) continue;
    // The inspector's own origins are left out whatever a view declares: the page's session, the proxy's documents.
    const kept = given.filter((origin): origin is string => typeof origin === "string" && ORIGIN.test(origin) && !ownOrigins.includes(origin.toLowerCase()));
    if (kept.length > 0) applied[list] = kept.slice(0, VIEW_LIMITS.originsPerList);
  }
  return applied;
}

/**
 * The view's Content-Security-Policy. The spec's construction (Content Security Policy
 * Enforcement) with one restriction more, which the spec allows (No Loosening: a host MAY further
 * restrict): no `'self'` anywhere. The policy is the proxy document's, which the view's srcdoc
 * frame inherits; the view has no files at the proxy's origin, and `'self'` would only reach other
 * proxy documents. So the default without `ui.csp` is the spec's restrictive one less `'self'`:
 * inline script and style, `data:` images and media, no network, no frames, no objects, no base
 * URI. The proxy's server adds `frame-ancestors`, naming the page.
 */
export function viewPolicy(csp: McpUiResourceCsp): string {
  const list = (origins: string[] | undefined, otherwise: string): string => (origins && origins.length > 0 ? origins.join(" ") : otherwise);
  const resources = csp.resourceDomains ?? [];
  const withResources = (first: string): string => [first, ...resources].join(" ");
  return [
    "default-src 'none'",
    `script-src ${withResources("'unsafe-inline'")}`,
    `style-src ${withResources("'unsafe-inline'")}`,
    `img-src ${withResources("data:")}`,
    `font-src ${list(csp.resourceDomains, "'none'")}`,
    `media-src ${withResources("data:")}`,
    // Spec (Host Behavior): the default is connect-src 'none'; undeclared domains MUST be blocked.
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    // Spec (Sandbox proxy, 5): frame-src 'none' unless frameDomains is declared.
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    // Spec (Sandbox proxy, 5): dangerous features blocked.
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains, "'none'")}`,
    // The frame allows forms for their submit event (apps-host.js); none may send anything.
    "form-action 'none'",
    // The proxy keeps its origin (Sandbox proxy, 2), and forms for the view's submit events; the
    // flags also bound the view's frame, whose own are fewer (no same origin).
    "sandbox allow-scripts allow-same-origin allow-forms",
  ].join("; ");
}

/** The view resource in a resources/read result: its HTML and its `_meta.ui`, or why it is not one. */
export function viewContent(uri: string, result: ReadResourceResult): { html: string; ui: { [key: string]: unknown } } {
  if (!uri.startsWith(UI_SCHEME)) throw new Error(`${uri} is not a view: a view's URI starts with ${UI_SCHEME}`);
  const content = result.contents.find((item) => item.uri === uri) ?? result.contents[0];
  // Spec (UI Resource Format, Content Requirements): mimeType MUST be text/html;profile=mcp-app, with text or blob.
  if (content === undefined || content.mimeType !== UI_MIME_TYPE) throw new Error(`${uri}: the server's content is not of type ${UI_MIME_TYPE}`);
  const html = "text" in content ? content.text : Buffer.from(content.blob, "base64").toString("utf8");
  if (Buffer.byteLength(html) > VIEW_LIMITS.htmlBytes) throw new Error(`${uri}: the view is over ${VIEW_LIMITS.htmlBytes} bytes`);
  const meta = content._meta?.ui;
  return { html, ui: isObject(meta) ? meta : {} };
}
