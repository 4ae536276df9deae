// MCP Apps on the server side: the checks a tool's `_meta.ui` and a `ui://` view resource get when
// registered, the negotiation of `io.modelcontextprotocol/ui`, and what a client that did not
// negotiate it is shown. One rule throughout: what is there only for views (a tool's `_meta.ui`,
// an app-only tool, a view in resources/list, the extension in the server's capabilities) goes only
// to a client whose capabilities name the extension with the view MIME type; everyone else gets
// the server as if it had no apps, which is what the spec asks (Server Behavior: check the client's
// capabilities before registering UI-enabled tools; Graceful Degradation: text content for all).
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// and https://modelcontextprotocol.io/extensions/overview#negotiation. The host's side (sandbox,
// CSP, the bridge) is not here: the host builds it from what this serves.

import { isObject } from "../jsonrpc/messages.js";
import type { Meta } from "../mcp/base.js";
import type { ClientCapabilities, ServerCapabilities } from "../mcp/lifecycle.js";
import type { Resource } from "../mcp/resources.js";
import type { Tool } from "../mcp/tools.js";
import {
  UI_CSP_LISTS, UI_EXTENSION_ID, UI_MIME_TYPE, UI_PERMISSIONS, UI_SCHEME,
  type McpUiResourceMeta, type McpUiToolMeta,
} from "../mcp/apps.js";

/** The extension's deprecated flat key for `_meta.ui.resourceUri` (Resource Discovery). */
const FLAT_RESOURCE_URI = "ui/resourceUri";

/**
 * True when the client declared `io.modelcontextprotocol/ui` with the HTML view type, in the
 * handshake (its session's capabilities) or in this 2026-07-28 request's envelope. The settings
 * are the client's untrusted JSON, so each step is checked.
 */
export function rendersApps(client: ClientCapabilities): boolean {
  const settings: unknown = client.extensions?.[UI_EXTENSION_ID];
  // Spec (Capability Negotiation): `mimeTypes` is REQUIRED; it names the content types the host renders.
  return isObject(settings) && Array.isArray(settings.mimeTypes) && settings.mimeTypes.includes(UI_MIME_TYPE);
}

/**
 * The extension as the server declares it (`{}`: no settings), when it has views (`ui://`
 * resources) and the client renders them.
 */
export function appsExtension(resources: readonly { resource: Resource }[], client: ClientCapabilities): ServerCapabilities["extensions"] | undefined {
  const hasViews = resources.some(({ resource }) => resource.uri.startsWith(UI_SCHEME));
  return hasViews && rendersApps(client) ? { [UI_EXTENSION_ID]: {} } : undefined;
}

/** A tool's `_meta.ui`, or undefined. */
export function toolUi(tool: { _meta?: Meta }): McpUiToolMeta | undefined {
  const ui = tool._meta?.ui;
  return isObject(ui) ? ui : undefined;
}

/** True when the tool is only for views (`visibility` without `"model"`). */
export function appOnly(tool: Tool): boolean {
  const visibility = toolUi(tool)?.visibility;
  return visibility !== undefined && !visibility.includes("model");
}

/**
 * Checks a tool's `_meta.ui` at registration, against the views registered so far (`findView`):
 * a view must be registered before the tools that name it.
 */
export function checkToolUi(tool: Tool, findView: (uri: string) => Resource | undefined): void {
  const meta = tool._meta;
  if (meta === undefined || (meta.ui === undefined && meta[FLAT_RESOURCE_URI] === undefined)) return;
  const where = `server: tool "${tool.name}"`;
  if (!isObject(meta.ui)) throw new Error(`${where}: _meta.ui must be an object ({ resourceUri, visibility })`);
  const { resourceUri, visibility } = meta.ui;
  if (resourceUri !== undefined) {
    // Spec (UI Resource Format): a view's URI MUST start with ui://.
    if (typeof resourceUri !== "string" || !resourceUri.startsWith(UI_SCHEME)) throw new Error(`${where}: _meta.ui.resourceUri must be a ui:// URI, not ${JSON.stringify(resourceUri)}`);
    // Spec (Resource Discovery): the resource a tool names MUST exist on the server.
    if (!findView(resourceUri)) throw new Error(`${where}: _meta.ui.resourceUri names no registered view: register ${resourceUri} (view()) before the tool`);
  }
  if (meta[FLAT_RESOURCE_URI] !== undefined && meta[FLAT_RESOURCE_URI] !== resourceUri) {
    throw new Error(`${where}: the deprecated _meta["ui/resourceUri"] must be left out, or equal _meta.ui.resourceUri`);
  }
  if (visibility !== undefined) {
    const known = Array.isArray(visibility) && visibility.length > 0 && visibility.every((who) => who === "model" || who === "app");
    if (!known) throw new Error(`${where}: _meta.ui.visibility must be a non-empty array of "model" and "app"`);
  }
}

/** Checks a `ui://` resource at registration: the scheme is reserved for views, which have one MIME type. */
export function checkViewResource(resource: Resource): void {
  if (!resource.uri.startsWith(UI_SCHEME)) return;
  // Spec (UI Resource Format): a view's mimeType is text/html;profile=mcp-app (Content Requirements: MUST on read).
  if (resource.mimeType !== UI_MIME_TYPE) throw new Error(`server: view ${resource.uri} must have mimeType "${UI_MIME_TYPE}"`);
  if (resource._meta?.ui !== undefined) checkViewMeta(resource.uri, resource._meta.ui);
}

/** Checks a view's `_meta.ui` (UIResourceMeta): known fields, of their types; origins as strings. */
export function checkViewMeta(uri: string, ui: unknown): asserts ui is McpUiResourceMeta {
  const where = `server: view ${uri}: _meta.ui`;
  if (!isObject(ui)) throw new Error(`${where} must be an object`);
  if (ui.csp !== undefined) {
    if (!isObject(ui.csp)) throw new Error(`${where}.csp must be an object`);
    for (const [list, origins] of Object.entries(ui.csp)) {
      if (!(UI_CSP_LISTS as readonly string[]).includes(list)) throw new Error(`${where}.csp has no list ${JSON.stringify(list)} (it has ${UI_CSP_LISTS.join(", ")})`);
      // An origin with a space or a semicolon would add a directive of its own to the host's CSP.
      if (!Array.isArray(origins) || !origins.every((origin) => typeof origin === "string" && /^[^\s;,]+$/.test(origin))) {
        throw new Error(`${where}.csp.${list} must be an array of origins (no spaces, commas or semicolons)`);
      }
    }
  }
  if (ui.permissions !== undefined) {
    if (!isObject(ui.permissions)) throw new Error(`${where}.permissions must be an object`);
    for (const [name, value] of Object.entries(ui.permissions)) {
      if (!(UI_PERMISSIONS as readonly string[]).includes(name) || !isObject(value)) throw new Error(`${where}.permissions.${name}: the permissions are ${UI_PERMISSIONS.join(", ")}, each {}`);
    }
  }
  if (ui.domain !== undefined && typeof ui.domain !== "string") throw new Error(`${where}.domain must be a string`);
  if (ui.prefersBorder !== undefined && typeof ui.prefersBorder !== "boolean") throw new Error(`${where}.prefersBorder must be a boolean`);
}

/**
 * A described tool, resource or view content as fitted to the client's version (`fitted`, made by
 * compat.ts from `original`), with `_meta.ui` as the client should see it: kept (and put back where
 * the version has no `_meta` on descriptors: the extension defines it) for a client that renders
 * apps, taken out for one that does not.
 */
export function uiMetaFor<T extends { _meta?: Meta }>(fitted: T, original: { _meta?: Meta }, renders: boolean): T {
  const ui = original._meta?.ui;
  if (ui === undefined) return fitted;
  const copy = { ...fitted };
  const meta: Meta = { ...copy._meta };
  if (renders) meta.ui = ui;
  else {
    delete meta.ui;
    delete meta[FLAT_RESOURCE_URI];
  }
  if (Object.keys(meta).length > 0) copy._meta = meta;
  else delete copy._meta;
  return copy;
}
