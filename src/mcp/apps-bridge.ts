// MCP Apps: the messages between a view (the HTML in its iframe, acting as a client) and its host
// (acting as a server, proxying some requests to the MCP server), JSON-RPC 2.0 over postMessage.
// The view also sends the standard `tools/call`, `resources/read`, `notifications/message` and
// `ping`, typed in tools.ts, resources.ts, logging.ts. Field names exactly as the extension spells them.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (Communication Protocol, MCP Apps Specific Messages, Lifecycle). Leaves out theming's variable
// names (Theming), the sandbox proxy's reserved messages, and `ui/message`, `ui/open-link`,
// `ui/request-display-mode`, `ui/update-model-context`, which mcp-wire's demo view does not send.

import type { Implementation } from "./lifecycle.js";
import type { CallToolResult, Tool } from "./tools.js";
import type { McpUiPermissions, McpUiResourceCsp } from "./apps.js";

/** The bridge's own version, in `ui/initialize` (Transport Layer). */
export const UI_BRIDGE_VERSION = "2026-01-26";

/** Each bridge method the extension defines, by who sends it. */
export const UI_METHODS = {
  /** View -> host request: the handshake, answered with McpUiInitializeResult. */
  initialize: "ui/initialize",
  /** View -> host: the view has applied the answer; the host MUST NOT send it anything before. */
  initialized: "ui/notifications/initialized",
  /** Host -> view: the tool call's complete arguments, at most once, before its result. */
  toolInput: "ui/notifications/tool-input",
  /** Host -> view: arguments still streaming from the model, best effort; the view MAY ignore them. */
  toolInputPartial: "ui/notifications/tool-input-partial",
  /** Host -> view: the tool call's CallToolResult. */
  toolResult: "ui/notifications/tool-result",
  /** Host -> view: the tool call was cancelled. */
  toolCancelled: "ui/notifications/tool-cancelled",
  /** View -> host: the view's content size changed; the host MUST follow it where its container is flexible. */
  sizeChanged: "ui/notifications/size-changed",
  /** Host -> view: part of the host context changed; the view merges it. */
  hostContextChanged: "ui/notifications/host-context-changed",
  /** Host -> view request: the view is about to be removed; the host SHOULD wait for the answer. */
  resourceTeardown: "ui/resource-teardown",
} as const;

/** Display modes (Display Modes). */
export type McpUiDisplayMode = "inline" | "fullscreen" | "pip";

/** What the view can do, in `ui/initialize` (App Capabilities). */
export interface McpUiAppCapabilities {
  /** Non-standard features. */
  experimental?: object;
  /** The view offers tools the host can call. */
  tools?: { listChanged?: boolean };
  /** Every display mode the view supports (it MUST declare them all). */
  availableDisplayModes?: McpUiDisplayMode[];
}

/** Params of `ui/initialize`. The view MUST include its capabilities. */
export interface McpUiInitializeRequestParams {
  /** The bridge version the view speaks: `"2026-01-26"`. */
  protocolVersion: string;
  /** Who the view is. */
  appInfo: Implementation;
  appCapabilities: McpUiAppCapabilities;
}

/** What the host offers the view (Host Capabilities). */
export interface McpUiHostCapabilities {
  experimental?: object;
  /** The host opens links (`ui/open-link`). */
  openLinks?: object;
  /** The host proxies `tools/call` to the server. */
  serverTools?: { listChanged?: boolean };
  /** The host proxies `resources/read` to the server. */
  serverResources?: { listChanged?: boolean };
  /** The host takes `notifications/message` from the view. */
  logging?: object;
  /** What the host granted of the resource's `_meta.ui`. */
  sandbox?: { permissions?: McpUiPermissions; csp?: McpUiResourceCsp };
}

/** A container dimension: fixed (`height`/`width`) or flexible up to a maximum; absent, unbounded. */
export type McpUiContainerDimensions = ({ height: number } | { maxHeight?: number }) & ({ width: number } | { maxWidth?: number });

/** What the host tells the view of where it is shown (Host Context); every field optional. */
export interface McpUiHostContext {
  /** The tool call that made the view: its JSON-RPC id and the tool. */
  toolInfo?: { id?: string | number; tool: Tool };
  theme?: "light" | "dark";
  /** CSS variables (Theming) and font CSS for the view to apply. */
  styles?: { variables?: { [name: string]: string | undefined }; css?: { fonts?: string } };
  displayMode?: McpUiDisplayMode;
  availableDisplayModes?: string[];
  containerDimensions?: McpUiContainerDimensions;
  /** BCP 47, e.g. `"en-US"`. */
  locale?: string;
  /** IANA, e.g. `"Europe/Paris"`. */
  timeZone?: string;
  userAgent?: string;
  platform?: "web" | "desktop" | "mobile";
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
}

/** The host's answer to `ui/initialize`. */
export interface McpUiInitializeResult {
  protocolVersion: string;
  hostCapabilities: McpUiHostCapabilities;
  hostInfo: Implementation;
  /** The host SHOULD send it. */
  hostContext?: McpUiHostContext;
}

/** Params of `ui/notifications/tool-input` and `ui/notifications/tool-input-partial`. */
export interface McpUiToolInputParams {
  arguments: { [key: string]: unknown };
}

/** Params of `ui/notifications/tool-result`: the standard result. */
export type McpUiToolResultParams = CallToolResult;

/** Params of `ui/notifications/tool-cancelled`. */
export interface McpUiToolCancelledParams {
  reason?: string;
}

/** Params of `ui/notifications/size-changed`, in CSS pixels. */
export interface McpUiSizeChangedParams {
  width: number;
  height: number;
}

/** Params of `ui/resource-teardown`. */
export interface McpUiResourceTeardownParams {
  reason?: string;
}
