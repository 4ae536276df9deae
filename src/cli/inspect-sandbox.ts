// The sandbox proxy of `mcp-wire inspect`'s MCP Apps host: a second loopback listener, on a port of
// its own (so an origin other than the page's), that serves nothing but proxy documents, each at a
// random path that works once and soon expires. The page asks the CLI for one per view (behind its
// token, cli/inspect-apps.ts), frames it, and sends it the view's HTML; the proxy renders that in an
// inner srcdoc frame, which inherits the proxy document's policy: the view's own (inspect-views.ts).
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (Sandbox proxy, 1-7). Leaves out `permissions` (the inner frame's `allow` is empty) and the
// `sandbox` override of sandbox-resource-ready (the inner frame's flags are fixed here).

import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** PROTOCOL_NOTES.md "Limits" lists these. */
export const SANDBOX_LIMITS = {
  /** Proxy documents made and not yet loaded; past this the oldest address stops working. */
  outstanding: 8,
  /** How long an address works if it is not loaded (the page frames it at once). */
  lifetimeMs: 30_000,
} as const;

/**
 * The proxy's own script. It knows the page's exact origin (written in by the CLI) and talks to no
 * one else: it says it is ready, takes the view's HTML from the page's window alone, and relays.
 * It creates no message of its own besides sandbox-proxy-ready (Sandbox proxy, 7). Runs under the
 * view's policy, whose script-src has 'unsafe-inline' (the spec's default): a nonce or hash here
 * would switch 'unsafe-inline' off for the view too, whose srcdoc document inherits the policy.
 */
const PROXY_SCRIPT = `"use strict";
(() => {
  const SANDBOX_PREFIX = "ui/notifications/sandbox-";
  const isSandboxMessage = (data) => typeof data === "object" && data !== null && typeof data.method === "string" && data.method.startsWith(SANDBOX_PREFIX);
  let inner;
  let loads = 0;
  function load(html) {
    inner = document.createElement("iframe");
    // Scripts and forms, no same origin: the view's origin is opaque, so it cannot reach this
    // document, the page, or anything else of the proxy's origin. No popups, no top navigation.
    inner.setAttribute("sandbox", "allow-scripts allow-forms");
    inner.setAttribute("allow", "");
    inner.setAttribute("title", document.title);
    // A view that navigates its frame away is no longer the view that was read: the proxy leaves
    // its own document too, and the page, seeing its frame load again, removes the view.
    inner.addEventListener("load", () => { if (++loads > 1) { inner.remove(); location.replace("about:blank"); } });
    // A srcdoc document inherits this document's Content-Security-Policy: the view's.
    inner.srcdoc = html;
    document.body.append(inner);
  }
  window.addEventListener("message", (event) => {
    const data = event.data;
    if (event.source === window.parent && event.origin === PAGE_ORIGIN) {
      if (!isSandboxMessage(data)) {
        // The view's origin is opaque: there is no origin to name.
        if (inner !== undefined) inner.contentWindow.postMessage(data, "*");
      } else if (data.method === "ui/notifications/sandbox-resource-ready" && inner === undefined && data.params && typeof data.params.html === "string") {
        load(data.params.html);
      }
      return;
    }
    // Spec (Sandbox proxy, 6): every message but the sandbox's own is forwarded; a view's sandbox-* is dropped.
    if (inner !== undefined && event.source === inner.contentWindow && !isSandboxMessage(data)) window.parent.postMessage(data, PAGE_ORIGIN);
  });
  // Spec (Sandbox proxy, 3): ready for sandbox-resource-ready; said to the page's origin only.
  window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, PAGE_ORIGIN);
})();`;

/** The proxy document for a page at `pageOrigin` (one of the CLI's own loopback origins). */
export function proxyDocument(pageOrigin: string): string {
  // The origin is ours (checked by the caller), but it is written into a script: as a JSON string, with no "<".
  const origin = JSON.stringify(pageOrigin).replace(/</g, "\\u003c");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>mcp-wire inspect: MCP Apps view</title>
<style>html, body { margin: 0; height: 100%; overflow: hidden; } iframe { display: block; border: 0; width: 100%; height: 100%; }</style>
</head><body><script>const PAGE_ORIGIN = ${origin};
${PROXY_SCRIPT}</script></body></html>`;
}

interface Waiting {
  policy: string;
  pageOrigin: string;
  expires: number;
}

/** The proxy documents made and not yet loaded, by their random path: each is taken once. */
export class ProxyDocuments {
  readonly #waiting = new Map<string, Waiting>();
  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps a document to be served under `policy` to a frame of `pageOrigin`; returns its path. */
  add(policy: string, pageOrigin: string): string {
    const id = randomBytes(18).toString("base64url");
    this.#waiting.set(id, { policy, pageOrigin, expires: this.now() + SANDBOX_LIMITS.lifetimeMs });
    while (this.#waiting.size > SANDBOX_LIMITS.outstanding) this.#waiting.delete(this.#waiting.keys().next().value as string);
    return `/${id}`;
  }

  /** The document at `path`, once, if it has not expired. */
  take(path: string): Waiting | undefined {
    const id = path.slice(1);
    const found = this.#waiting.get(id);
    this.#waiting.delete(id);
    return found !== undefined && found.expires > this.now() ? found : undefined;
  }
}

export interface SandboxServer {
  port: number;
  /** Its origins, as the page may name them (127.0.0.1 and localhost). */
  origins: string[];
  /** A one-time proxy document for a page at `pageOrigin` under `policy`: its full URL. */
  add(policy: string, pageOrigin: string): string;
  close(): Promise<void>;
}

export async function startSandboxServer(documents = new ProxyDocuments()): Promise<SandboxServer> {
  let port = 0;
  const server = createServer((request, response) => {
    const refusal = refusedBySandbox(request, port);
    const found = refusal === undefined ? documents.take(new URL(request.url ?? "/", "http://127.0.0.1").pathname) : undefined;
    if (found === undefined) {
      response.writeHead(refusal?.status ?? 404, { ...HEADERS, "content-type": "text/plain; charset=utf-8", "content-security-policy": "default-src 'none'; frame-ancestors 'none'" });
      return void response.end(refusal?.reason ?? "inspect sandbox: no such document (each address works once)");
    }
    response.writeHead(200, {
      ...HEADERS,
      "content-type": "text/html; charset=utf-8",
      // Spec (Sandbox proxy, 5): the view's policy, which its srcdoc frame inherits; only the page frames it.
      "content-security-policy": `${found.policy}; frame-ancestors ${found.pageOrigin}`,
    });
    response.end(proxyDocument(found.pageOrigin));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    origins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`],
    add: (policy, pageOrigin) => `http://${new URL(pageOrigin).hostname}:${port}${documents.add(policy, pageOrigin)}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

const HEADERS = { "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "cache-control": "no-store" };

/** Why the sandbox listener refuses a request before looking for its document, if it does. */
export function refusedBySandbox(request: IncomingMessage, port: number): { status: number; reason: string } | undefined {
  const host = request.headers.host;
  // As the page's server (inspect-http.ts): a DNS-rebinding page sends its own name.
  if (host === undefined || ![`127.0.0.1:${port}`, `localhost:${port}`].includes(host)) return { status: 403, reason: "inspect sandbox: this server answers to 127.0.0.1 and localhost only" };
  if (request.method !== "GET") return { status: 405, reason: "inspect sandbox: documents are only fetched" };
  // A proxy document is only ever a frame's: a fetch (a view's, another site's) says otherwise when it says.
  const dest = request.headers["sec-fetch-dest"];
  if (dest !== undefined && dest !== "iframe") return { status: 403, reason: "inspect sandbox: a proxy document is loaded in a frame only" };
  return undefined;
}
