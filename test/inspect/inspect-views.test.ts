// The MCP Apps view policy of `mcp-wire inspect` (cli/inspect-views.ts): the Content-Security-Policy
// header built from a view resource's `_meta.ui.csp`, the lists as applied (malformed origins and
// the inspector's own left out), and the view content checks. The proxy documents it is served
// with: test/inspect/inspect-sandbox.test.ts.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (UI Resource Format: Host Behavior; Security Implications: Content Security Policy Enforcement)
import { test } from "node:test";
import assert from "node:assert/strict";
import { appliedCsp, viewContent, viewPolicy, VIEW_LIMITS } from "../../src/cli/inspect-views.js";
import { UI_MIME_TYPE } from "../../src/mcp/apps.js";

const OWN = ["http://127.0.0.1:4321", "http://localhost:4321"];
const directives = (policy: string) => Object.fromEntries(policy.split("; ").map((part) => [part.split(" ")[0], part.split(" ").slice(1).join(" ")]));

test("no ui.csp: the spec's restrictive default, less 'self': no network, frames, objects or base URI; the proxy keeps its origin", () => {
  const policy = directives(viewPolicy(appliedCsp(undefined, OWN)));
  assert.deepEqual(policy, {
    "default-src": "'none'",
    "script-src": "'unsafe-inline'",
    "style-src": "'unsafe-inline'",
    "img-src": "data:",
    "font-src": "'none'",
    "media-src": "data:",
    "connect-src": "'none'",
    "frame-src": "'none'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'none'",
    "sandbox": "allow-scripts allow-same-origin allow-forms",
  });
});

test("each declared list maps to its directives (Content Security Policy Enforcement)", () => {
  const csp = appliedCsp({
    connectDomains: ["https://api.example.com", "wss://live.example.com"],
    resourceDomains: ["https://cdn.example.com", "https://*.cloudflare.com"],
    frameDomains: ["https://www.youtube.com"],
    baseUriDomains: ["https://cdn.example.com"],
  }, OWN);
  const policy = directives(viewPolicy(csp));
  assert.equal(policy["connect-src"], "https://api.example.com wss://live.example.com");
  for (const name of ["script-src", "style-src"]) assert.equal(policy[name], "'unsafe-inline' https://cdn.example.com https://*.cloudflare.com");
  for (const name of ["img-src", "media-src"]) assert.equal(policy[name], "data: https://cdn.example.com https://*.cloudflare.com");
  assert.equal(policy["font-src"], "https://cdn.example.com https://*.cloudflare.com");
  assert.equal(policy["frame-src"], "https://www.youtube.com");
  assert.equal(policy["base-uri"], "https://cdn.example.com");
  assert.equal(policy["default-src"], "'none'");
});

test("what is not an origin never reaches the header, nor the inspector's own origin", () => {
  const csp = appliedCsp({
    connectDomains: ["https://ok.example", "'unsafe-eval'", "https://a.example; script-src *", "*", "https://x.example/path", "javascript:alert(1)", 42, "HTTP://127.0.0.1:4321", "http://localhost:4321"],
    resourceDomains: "https://not-a-list.example",
    frameDomains: [],
  }, OWN);
  assert.deepEqual(csp, { connectDomains: ["https://ok.example"] });
  const header = viewPolicy(csp);
  assert.doesNotMatch(header, /unsafe-eval|script-src \*|4321|javascript/);
  assert.equal(header.split("; ").length, 12, "no directive of the server's own");
});

test("each list is cut at its bound", () => {
  const many = Array.from({ length: VIEW_LIMITS.originsPerList + 5 }, (_, i) => `https://h${i}.example`);
  assert.equal(appliedCsp({ connectDomains: many }, OWN).connectDomains?.length, VIEW_LIMITS.originsPerList);
});

test("view content: a ui:// URI, the profile's MIME type, text or base64 blob, within the size bound", () => {
  const html = "<!DOCTYPE html><p>hi</p>";
  assert.deepEqual(viewContent("ui://v", { contents: [{ uri: "ui://v", mimeType: UI_MIME_TYPE, text: html, _meta: { ui: { prefersBorder: false } } }] }), { html, ui: { prefersBorder: false } });
  assert.equal(viewContent("ui://v", { contents: [{ uri: "ui://v", mimeType: UI_MIME_TYPE, blob: Buffer.from(html).toString("base64") }] }).html, html);
  assert.throws(() => viewContent("https://v", { contents: [{ uri: "https://v", mimeType: UI_MIME_TYPE, text: html }] }), /not a view/);
  assert.throws(() => viewContent("ui://v", { contents: [{ uri: "ui://v", mimeType: "text/html", text: html }] }), /not of type text\/html;profile=mcp-app/);
  assert.throws(() => viewContent("ui://v", { contents: [] }), /not of type/);
  assert.throws(() => viewContent("ui://v", { contents: [{ uri: "ui://v", mimeType: UI_MIME_TYPE, text: "x".repeat(VIEW_LIMITS.htmlBytes + 1) }] }), /over/);
});
