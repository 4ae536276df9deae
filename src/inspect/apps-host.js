// The page of `mcp-wire inspect` as an MCP Apps host: a call of a tool that names a `ui://` view
// opens that view as the call starts, behind a sandbox proxy, as the spec has a web host do: a
// frame of another origin (the CLI's second listener, cli/inspect-sandbox.ts), sandboxed to scripts
// and its own origin, served under the view's policy (cli/inspect-views.ts). The proxy says it is
// ready, this page sends it the view's HTML, and it renders that in an inner frame of an opaque
// origin, relaying the bridge both ways. This file speaks the host's side of the bridge, JSON-RPC
// 2.0 over postMessage: ui/initialize answered with the host context, the tool's input, then its
// result or its cancellation once the call ends, size changes, the view's tools/call and
// resources/read sent on through the CLI (which checks the tool's visibility), the requests a page
// without a chat or a model declines, and ui/resource-teardown.
// Each bridge message is shown in the wire list, marked as the bridge's. Bounds: APP_LIMITS.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// Uses el, act and appendRow from inspect.js (both files are the page's classic scripts).
"use strict";

/** PROTOCOL_NOTES.md "Limits" lists these. */
const APP_LIMITS = {
  /** Characters of one message from a view (its JSON); a bigger one is refused. */
  messageChars: 1024 * 1024,
  /** Messages one view may send per second; the rest of that second's are dropped. */
  messagesPerSecond: 50,
  /** Views open at once; opening one more tears down the oldest. */
  openViews: 4,
  /** How long a teardown waits for the view's answer before removing it. */
  teardownWaitMs: 2000,
  /** The tallest a view is drawn, whatever size it asks for (containerDimensions.maxHeight). */
  maxHeight: 600,
  /** Characters of a bridge message the wire list shows. */
  shownChars: 16 * 1024,
};
const BRIDGE_VERSION = "2026-01-26";
/** The sandbox proxy's own notifications (Sandbox proxy, 3-4), which it does not forward. */
const SANDBOX_PREFIX = "ui/notifications/sandbox-";
/** Open views by their proxy frame's window: a message whose source is none of these is not a view's. */
const views = new Map();
let hostRequestSeq = 0;

/** The view a tool names (Resource Discovery), the flat deprecated key as a fallback. */
function viewUriOf(tool) {
  const meta = tool && tool._meta;
  const uri = meta && meta.ui && typeof meta.ui.resourceUri === "string" ? meta.ui.resourceUri : meta && meta["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : undefined;
}

/** What the tool's card says of its `_meta.ui`: the view its results open, and who may call it. */
function appNote(tool) {
  const uri = viewUriOf(tool);
  const visibility = tool && tool._meta && tool._meta.ui && Array.isArray(tool._meta.ui.visibility) ? tool._meta.ui.visibility : undefined;
  const words = [];
  if (uri) words.push(`results open the view ${uri}`);
  // Spec (Resource Discovery, Visibility): a host's model never sees a tool without "model"; a person here does.
  if (visibility && !visibility.includes("model")) words.push("for views only (a model is not shown it)");
  if (visibility && !visibility.includes("app")) words.push("views may not call it");
  return words.length === 0 ? undefined : el("p", { className: "app-note", text: `MCP Apps: ${words.join("; ")}` });
}

function bridgeRow(view, dir, message, note) {
  const method = message && typeof message.method === "string" ? message.method : undefined;
  const label = method ?? (message && message.error ? `error ${message.error.code}` : "result");
  const peer = method && method.startsWith(SANDBOX_PREFIX) ? "sandbox proxy" : "view";
  let text;
  try { text = JSON.stringify(message, null, 2) ?? String(message); } catch { text = String(message); }
  const raw = el("details", {}, el("summary", { text: "raw JSON" }), el("pre", { text: text.slice(0, APP_LIMITS.shownChars) }));
  appendRow(el("div", { className: `msg bridge ${dir}${message && message.error ? " error" : ""}`, "data-view": String(view.id) },
    el("div", { className: "head" },
      el("span", { className: "dir", text: dir === "to-view" ? `→ ${peer}` : `← ${peer}` }),
      el("span", { className: "label", text: label }),
      el("span", { className: "era", text: `bridge ${view.uri}` })),
    note ? el("div", { className: "note", text: note }) : undefined,
    raw));
}

/** A line about a view: what happened to it (`notice`), or what it was refused (`problem`). */
function bridgeNote(view, text, kind = "notice") {
  appendRow(el("div", { className: `msg bridge ${kind}`, "data-view": String(view.id), text: `bridge ${view.uri}: ${text}` }));
}

function post(view, message, note) {
  if (!views.has(view.window)) return;
  bridgeRow(view, "to-view", message, note);
  // To the proxy's origin alone; it passes the message on to the view (whose origin is opaque).
  view.window.postMessage(message, view.proxyOrigin);
}

/**
 * Opens the view of `tool` as a call of it starts, in `card` (a view already there goes first):
 * the view, or undefined when the tool names none or it could not be read. Spec (Lifecycle, 2): the
 * call and the view's initialization run side by side, so that a tool waiting on its own view (it
 * calls a tool of the server's back) can finish; settleView gives it the call's end.
 */
async function openView(tool, args, card) {
  const uri = viewUriOf(tool);
  if (uri === undefined) return undefined;
  for (const open of [...views.values()]) if (open.card === card) await teardown(open, "the tool was called again");
  while (views.size >= APP_LIMITS.openViews) await teardown(views.values().next().value, `at most ${APP_LIMITS.openViews} views are open at once`);
  const answer = await act({ action: "view", uri, origin: location.origin });
  const id = ++hostRequestSeq;
  if (!answer.ok) return void bridgeNote({ id, uri }, `could not open the view: ${answer.error}`, "problem");
  const opened = answer.result;
  const iframe = el("iframe", {
    // Spec (Sandbox proxy, 1-2): the proxy is of another origin (another port) and keeps it, with
    // scripts. And forms: a frame inside has no more flags than this one, and without allow-forms a
    // sandboxed form never fires submit (the demo's calculator is a form; the view's policy,
    // form-action 'none', lets no form send anything). No popups, no top navigation. The view's
    // frame inside is sandboxed to scripts and forms, without the same origin. Nothing granted of
    // _meta.ui.permissions (an empty allow, here and inside).
    sandbox: "allow-scripts allow-same-origin allow-forms", allow: "", referrerpolicy: "no-referrer",
    src: opened.proxy, title: `MCP Apps view ${uri}`, "data-view-frame": String(id),
  });
  const close = el("button", { type: "button", text: "Close view" });
  const box = el("div", { className: "app" + (opened.prefersBorder === false ? " borderless" : "") },
    el("div", { className: "app-head" }, el("span", { text: `view ${uri} (sandboxed, behind a sandbox proxy; bridge messages in the wire list)` }), close), iframe);
  card.append(box);
  // `outcome`: the call's end once it came (settleView), { result } or { cancelled }.
  const view = { id, uri, csp: opened.csp, html: opened.html, proxyOrigin: opened.proxyOrigin, tool, args, outcome: undefined, card, box, iframe, window: iframe.contentWindow,
    sent: false, initialized: false, pending: new Map(), second: 0, count: 0, dropped: 0, loads: 0 };
  views.set(view.window, view);
  close.addEventListener("click", () => teardown(view, "closed from the page"));
  // A view that navigates its frame elsewhere is no longer the view that was read: it goes (the
  // proxy leaves its document when the view's frame loads again, so this frame loads again).
  iframe.addEventListener("load", () => { if (++view.loads > 1) remove(view, "the view navigated away from its document"); });
  // Spec (UI Resource Format, Host Behavior): the host SHOULD log CSP configurations for review.
  bridgeNote(view, `opened behind the sandbox proxy ${opened.proxyOrigin}; its Content-Security-Policy: ${opened.policy}`);
  return view;
}

/**
 * The call of `view`'s tool ended, with the page's `answer`: a result (an `isError` one too) is the
 * view's tool-result; anything else (the call cancelled, or refused with an error) its tool-cancelled,
 * since the view will never see a result. Told at once, or after its initialization if not yet done.
 */
function settleView(view, answer) {
  if (!views.has(view.window) || view.outcome) return;
  // Spec (ui/notifications/tool-cancelled): the host MUST send it if the tool execution was cancelled, for any reason.
  view.outcome = answer.ok ? { result: answer.result } : { cancelled: String(answer.error) };
  if (view.initialized) tellOutcome(view);
}

function tellOutcome(view) {
  if (view.outcome.result) post(view, { jsonrpc: "2.0", method: "ui/notifications/tool-result", params: view.outcome.result });
  else post(view, { jsonrpc: "2.0", method: "ui/notifications/tool-cancelled", params: { reason: view.outcome.cancelled } });
}

/** The host context (Host Context in McpUiInitializeResult): where and how the view is shown. */
function hostContext(view) {
  const media = (query) => window.matchMedia(query).matches;
  return {
    toolInfo: { tool: view.tool },
    theme: media("(prefers-color-scheme: dark)") ? "dark" : "light",
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    // A fixed width (the card's), a height the view chooses up to maxHeight (Container Dimensions).
    containerDimensions: { width: view.iframe.clientWidth, maxHeight: APP_LIMITS.maxHeight },
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: "mcp-wire inspect",
    platform: "web",
    deviceCapabilities: { touch: media("(pointer: coarse)"), hover: media("(hover: hover)") },
    safeAreaInsets: { top: 0, right: 0, bottom: 0, left: 0 },
  };
}

class BridgeError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

/** A view's request: its result, or a BridgeError. */
async function answerRequest(view, method, params) {
  switch (method) {
    case "ui/initialize":
      return {
        protocolVersion: BRIDGE_VERSION,
        // No openLinks: the page opens nothing for a view (ui/open-link is declined below).
        hostCapabilities: { serverTools: {}, serverResources: {}, logging: {}, sandbox: { permissions: {}, csp: view.csp || {} } },
        hostInfo: { name: "mcp-wire inspect", version: "0.1.0" },
        hostContext: hostContext(view),
      };
    case "ping": return {};
    case "tools/call":
    case "resources/read": {
      // Spec (Sandbox proxy, 8): the host MAY forward the view's non-ui/ requests to the server; the
      // CLI refuses a tool not visible to apps (Resource Discovery, Visibility).
      const answer = await act({ action: "app", method, params });
      if (!answer.ok) throw new BridgeError(typeof answer.code === "number" ? answer.code : -32603, answer.error);
      return answer.result;
    }
    case "ui/request-display-mode":
      // Spec (Display Modes): the host returns the resulting mode; inline is the only one here.
      return { mode: "inline" };
    case "ui/open-link":
      bridgeNote(view, `the view asks to open ${String(params && params.url).slice(0, 2000)} (not opened: copy it into a browser if you trust it)`);
      throw new BridgeError(-32000, "Link opening denied: mcp-wire inspect opens no links for a view");
    case "ui/message": throw new BridgeError(-32000, "Message sending denied: mcp-wire inspect has no conversation");
    case "ui/update-model-context": throw new BridgeError(-32000, "Context update denied: mcp-wire inspect has no model");
    default: throw new BridgeError(-32601, `mcp-wire inspect does not handle ${method} from a view`);
  }
}

/** The proxy's own notification: once it is ready, the view's HTML (Sandbox proxy, 3-4). */
function onSandbox(view, method) {
  if (method !== "ui/notifications/sandbox-proxy-ready" || view.sent) return bridgeNote(view, `${method} ignored: the proxy has its view`, "problem");
  view.sent = true;
  // Spec (Sandbox proxy, 4): the raw HTML, and the CSP lists the proxy's policy applies (McpUiSandboxResourceReadyNotification).
  post(view, { jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html: view.html, csp: view.csp || {} } });
}

function onNotification(view, method, params) {
  if (method === "ui/notifications/initialized" && !view.initialized) {
    view.initialized = true;
    // Spec (Notifications, Host -> View): tool-input after the initialize request, then the
    // result (or the cancellation) once the call has ended, which may be later.
    post(view, { jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: view.args || {} } });
    if (view.outcome) tellOutcome(view);
  } else if (method === "ui/notifications/size-changed" && params && Number.isFinite(params.height)) {
    // Spec (Container Dimensions, Host Behavior): a flexible height follows size-changed.
    view.iframe.style.height = `${Math.max(16, Math.min(APP_LIMITS.maxHeight, Math.ceil(params.height)))}px`;
  }
}

/** Within the view's budget for this second? Each second's drops are said once, when it ends. */
function withinRate(view) {
  const second = Math.floor(performance.now() / 1000);
  if (second !== view.second) {
    sayDropped(view);
    view.second = second;
    view.count = 0;
  }
  if (++view.count <= APP_LIMITS.messagesPerSecond) return true;
  // The first drop of a second is said when that second ends, even if the view sends nothing
  // more (a flood that stops would otherwise never be told of).
  if (view.dropped++ === 0) setTimeout(() => { if (view.second === second) sayDropped(view); }, 1000 - (performance.now() % 1000));
  return false;
}

function sayDropped(view) {
  if (view.dropped > 0) bridgeNote(view, `${view.dropped} messages dropped: a view may send ${APP_LIMITS.messagesPerSecond} a second`, "problem");
  view.dropped = 0;
}

window.addEventListener("message", (event) => {
  // Spec (Security Implications, Auditable Communication): only a view's own proxy frame is heard,
  // from the proxy's origin (a view posting to this window directly is neither).
  const view = event.source === null ? undefined : views.get(event.source);
  if (view === undefined || event.origin !== view.proxyOrigin || !withinRate(view)) return;
  const message = event.data;
  let text;
  try { text = JSON.stringify(message); } catch { text = undefined; }
  const isObject = typeof message === "object" && message !== null && !Array.isArray(message);
  const hasId = isObject && (typeof message.id === "string" || typeof message.id === "number");
  if (text === undefined || text.length > APP_LIMITS.messageChars) {
    bridgeNote(view, `a message of ${text === undefined ? "no JSON" : `${text.length} characters`} refused (at most ${APP_LIMITS.messageChars})`, "problem");
    if (hasId) post(view, { jsonrpc: "2.0", id: message.id, error: { code: -32600, message: `a view's message is at most ${APP_LIMITS.messageChars} characters` } });
    return;
  }
  if (!isObject || message.jsonrpc !== "2.0") return bridgeNote(view, `not a JSON-RPC 2.0 message, ignored: ${text.slice(0, 200)}`, "problem");
  bridgeRow(view, "from-view", message, typeof message.method === "string" ? undefined : "the view's answer to the host's request");
  if (typeof message.method !== "string") {
    // An answer to one of our requests (ui/resource-teardown).
    const waiting = hasId ? view.pending.get(message.id) : undefined;
    if (waiting) { view.pending.delete(message.id); waiting(message); }
    return;
  }
  if (message.method.startsWith(SANDBOX_PREFIX)) return onSandbox(view, message.method);
  if (!hasId) return onNotification(view, message.method, message.params);
  answerRequest(view, message.method, message.params).then(
    (result) => post(view, { jsonrpc: "2.0", id: message.id, result }, `the answer to ${message.method}`),
    (error) => post(view, { jsonrpc: "2.0", id: message.id, error: { code: error instanceof BridgeError ? error.code : -32603, message: String(error.message) } }, `the answer to ${message.method}`),
  );
});

/** Spec (ui/notifications/host-context-changed): the host MAY say what changed; here the theme and the width. */
function contextChanged(change) {
  for (const view of views.values()) if (view.initialized) post(view, { jsonrpc: "2.0", method: "ui/notifications/host-context-changed", params: change(view) });
}
window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", (event) => contextChanged(() => ({ theme: event.matches ? "dark" : "light" })));
let resizeTimer;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => contextChanged((view) => ({ containerDimensions: { width: view.iframe.clientWidth, maxHeight: APP_LIMITS.maxHeight } })), 200);
});

/** Spec (ui/resource-teardown): sent before the view goes, its answer awaited (a bounded wait). */
async function teardown(view, reason) {
  if (!views.has(view.window)) return;
  if (view.initialized) {
    const id = `host-${++hostRequestSeq}`;
    const answered = new Promise((resolve) => view.pending.set(id, resolve));
    post(view, { jsonrpc: "2.0", id, method: "ui/resource-teardown", params: { reason } });
    await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, APP_LIMITS.teardownWaitMs))]);
  }
  remove(view, reason);
}

function remove(view, reason) {
  if (!views.delete(view.window)) return;
  view.box.remove();
  bridgeNote(view, `torn down: ${reason}`);
}
