// MCP Apps, the extension `io.modelcontextprotocol/ui` (SEP-1865, stable 2026-01-26): a tool names a
// `ui://` resource holding an HTML view, which a host renders in a sandboxed iframe that talks
// JSON-RPC to the host over postMessage. This file holds the shapes the server side uses (the
// tool's and the resource's `_meta.ui`, the capability settings); apps-bridge.ts holds the view's
// messages. Field names exactly as the extension spells them.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (section names below are its headings) and https://modelcontextprotocol.io/extensions/apps/overview.
// Negotiation: https://modelcontextprotocol.io/extensions/overview#negotiation (SEP-2133).

/** The extension's identifier, the key under `capabilities.extensions` (Extension Identifier). */
export const UI_EXTENSION_ID = "io.modelcontextprotocol/ui";

/**
 * The MIME type of an HTML view: a `ui://` resource's `mimeType`, in its listing and in every
 * `resources/read` content (UI Resource Format, Content Requirements). Other types are reserved.
 */
export const UI_MIME_TYPE = "text/html;profile=mcp-app";

/** The URI scheme every view uses, reserved for MCP Apps (Reservations in MCP). */
export const UI_SCHEME = "ui://";

/**
 * Who may call a tool (Resource Discovery, Visibility): `"model"`, the agent (the host lists it to
 * its model); `"app"`, a view from the same server connection, through the host. Default both.
 */
export type McpUiToolVisibility = "model" | "app";

/** What a tool's `_meta.ui` holds (Resource Discovery, `McpUiToolMeta`). */
export interface McpUiToolMeta {
  /**
   * The `ui://` resource the host renders this tool's results with. It MUST exist on the server;
   * the host fetches it with `resources/read` (and MAY prefetch and cache it).
   */
  resourceUri?: string;
  /**
   * Who may call the tool; default `["model", "app"]`. A host MUST NOT list to its model a tool
   * without `"model"`, and MUST refuse an app's `tools/call` of a tool without `"app"`.
   */
  visibility?: McpUiToolVisibility[];
}

/**
 * The origins a view may reach, from which the host builds the iframe's Content Security Policy
 * (UI Resource Format, `McpUiResourceCsp`). Each list empty or absent: nothing beyond the
 * restrictive default (inline script and style, `data:` images and media, no network).
 */
export interface McpUiResourceCsp {
  /** Origins for fetch, XHR and WebSocket (CSP `connect-src`), e.g. `https://api.example.com`. */
  connectDomains?: string[];
  /** Origins for images, scripts, styles, fonts and media (`img-src`, `script-src`, ...); `https://*.example.com` allowed. */
  resourceDomains?: string[];
  /** Origins for nested iframes (`frame-src`); absent: `frame-src 'none'`. */
  frameDomains?: string[];
  /** Allowed base URIs of the document (`base-uri`); absent: `base-uri 'self'`. */
  baseUriDomains?: string[];
}

/**
 * Browser features a view asks for (UI Resource Format, `permissions`), each `{}` when asked. The
 * host MAY grant them through the iframe's `allow` attribute; a view SHOULD NOT assume it did.
 */
export interface McpUiPermissions {
  /** Permission Policy `camera`. */
  camera?: object;
  /** Permission Policy `microphone`. */
  microphone?: object;
  /** Permission Policy `geolocation`. */
  geolocation?: object;
  /** Permission Policy `clipboard-write`. */
  clipboardWrite?: object;
}

/** The permissions a view may ask for, as the spec names them. */
export const UI_PERMISSIONS: readonly (keyof McpUiPermissions)[] = ["camera", "microphone", "geolocation", "clipboardWrite"];

/** The CSP lists a view may declare, as the spec names them. */
export const UI_CSP_LISTS: readonly (keyof McpUiResourceCsp)[] = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"];

/**
 * What a view resource's `_meta.ui` holds, on its `resources/read` contents (and MAY be on its
 * listing): how the host must sandbox and frame it (UI Resource Format, `UIResourceMeta`).
 */
export interface McpUiResourceMeta {
  /** The external origins the view needs; the host MUST NOT allow undeclared ones. */
  csp?: McpUiResourceCsp;
  /** Browser features the view asks for. */
  permissions?: McpUiPermissions;
  /**
   * A dedicated origin for the view's sandbox (for OAuth callbacks, CORS, API key allowlists). Its
   * form is the host's to define (e.g. `{hash}.claudemcpcontent.com`); absent, the host picks one.
   */
  domain?: string;
  /** `true`: the host draws a border and background around the view; `false`: none; absent: the host decides. */
  prefersBorder?: boolean;
}

/**
 * The client's settings under `capabilities.extensions["io.modelcontextprotocol/ui"]`
 * (Client<>Server Capability Negotiation): the view content types it renders. REQUIRED, e.g.
 * `["text/html;profile=mcp-app"]`. The server declares the extension with `{}` (no settings).
 */
export interface McpUiClientCapabilities {
  mimeTypes: string[];
}
