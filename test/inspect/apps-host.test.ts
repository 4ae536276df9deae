// The MCP Apps host in `mcp-wire inspect`'s page (src/inspect/apps-host.js, cli/inspect-apps.ts),
// in headless Chromium: `add` called from its form opens the demo's calculator view behind a
// sandbox proxy (a frame of another origin, with scripts and its own origin, served once under the
// view's policy), inside which the view's srcdoc frame is sandboxed to scripts and forms (no same
// origin); the proxy says it is ready, gets the HTML, and relays; the view gets the call's input and
// result, and calls add again through the page; every bridge message is in the wire list, marked
// as the bridge's. Both generations. And a hostile view
// (test/helpers/hostile-app-server.ts) cannot reach the page's DOM, fetch the page's address with
// its token, navigate the top window, have a link opened, call a tool hidden from apps, flood the
// page into silence, or stay once it has navigated its frame away.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// The CSP header builder without a browser: test/inspect/inspect-views.test.ts.

import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { launch, missing, openInspectPage, screenshots, until } from "../helpers/inspect-browser.js";
import type { RunningInspect } from "../helpers/inspect-program.js";

const bridgeLabels = (page: Page) => page.locator(".msg.bridge .label").allInnerTexts();
const PROXY_ADDRESS = /^http:\/\/127\.0\.0\.1:(\d+)\/[A-Za-z0-9_-]{24}$/;

for (const generation of ["auto", "2025-11-25"] as const) {
  describe(`inspect hosts the demo's calculator view (--protocol-version ${generation})`, { skip: missing }, () => {
    let inspect: RunningInspect;
    let browser: Awaited<ReturnType<typeof launch>>;
    let page: Page;
    const add = () => page.locator('form[data-tool="add"]');
    before(async () => {
      ({ inspect, browser, page } = await openInspectPage(["node", "dist/server.js"], ["--protocol-version", generation]));
    });
    after(async () => {
      await browser?.close();
      await inspect?.stop();
    });

    it("declares the extension, so add names its view", async () => {
      await add().locator(".app-note", { hasText: "ui://mcp-wire-demo/calculator" }).waitFor();
    });

    it("calls add from the form: the view opens behind the sandbox proxy, under its own policy, and shows the sum", async () => {
      await add().locator('input[name="a"]').fill("3");
      await add().locator('input[name="b"]').fill("4");
      await add().locator('button[type="submit"]').click();
      const frame = add().locator("iframe");
      await frame.waitFor();
      // Spec (Sandbox proxy, 1-2): another origin (another port), scripts and its own origin (and
      // forms, which the view's frame inside could not have otherwise).
      assert.equal(await frame.getAttribute("sandbox"), "allow-scripts allow-same-origin allow-forms");
      const src = await frame.getAttribute("src");
      const port = PROXY_ADDRESS.exec(src ?? "")?.[1];
      assert.ok(port !== undefined && port !== new URL(inspect.url).port, `the proxy is at another origin: ${src}`);
      // The page may frame the proxy's origins and no other (its own included).
      const pagePolicy = (await browser.context.request.get(inspect.url)).headers()["content-security-policy"];
      assert.match(pagePolicy ?? "", new RegExp(`; frame-src http://127\\.0\\.0\\.1:${port} http://localhost:${port};`));
      const proxy = page.frameLocator('form[data-tool="add"] iframe');
      const inner = proxy.locator("iframe");
      await inner.waitFor();
      assert.equal(await inner.getAttribute("sandbox"), "allow-scripts allow-forms");
      const view = proxy.frameLocator("iframe");
      await view.locator("#sum", { hasText: "7" }).waitFor();
      assert.equal(await view.locator("#a").inputValue(), "3");
      assert.match(await view.locator("#status").innerText(), /^$|ready/);
      // The address worked once: asked again, it is gone (a frame's request, as the browser made it).
      const again = await browser.context.request.get(src!, { headers: { "sec-fetch-dest": "iframe" } });
      assert.equal(again.status(), 404);
      // The policy the CLI served it with, as logged for review: the spec's default, without 'self'.
      const opened = page.locator(".msg.bridge.notice", { hasText: "Content-Security-Policy" }).first();
      assert.match(await opened.innerText(), /default-src 'none'; script-src 'unsafe-inline'; .*connect-src 'none'; frame-src 'none'/);
      assert.doesNotMatch(await opened.innerText(), /'self'/);
      const labels = await bridgeLabels(page);
      // Spec (Sandbox proxy, 3-4): the proxy's ready first, then the HTML, then the view's own bridge.
      assert.deepEqual(labels.slice(0, 3), ["ui/notifications/sandbox-proxy-ready", "ui/notifications/sandbox-resource-ready", "ui/initialize"]);
      for (const method of ["ui/initialize", "ui/notifications/initialized", "ui/notifications/tool-input", "ui/notifications/tool-result", "ui/notifications/size-changed"]) {
        assert.ok(labels.includes(method), `${method} is in the wire list as a bridge message`);
      }
      // The frame follows the view's size (size-changed), within the page's bound.
      await until(() => frame.evaluate((node) => Reflect.get(Reflect.get(node, "style"), "height") !== ""));
      if (generation === "auto") {
        // The view in its card, and its bridge messages in the wire list beside it.
        await add().locator(".app").scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(screenshots, "inspect-app.png") });
      }
    });

    it("the view calls add again through the page, which sends it to the server", async () => {
      const view = page.frameLocator('form[data-tool="add"] iframe').frameLocator("iframe");
      await view.locator("#a").fill("40");
      await view.locator("#add").click();
      await view.locator("#sum", { hasText: "44" }).waitFor();
      // The view's tools/call crossed the wire as the client's own request.
      await page.locator(".msg.c2s .label", { hasText: "tools/call add" }).nth(1).waitFor();
      const fromView = page.locator(".msg.bridge.from-view .label", { hasText: "tools/call" });
      assert.equal(await fromView.count(), 1);
    });

    it("tells the view when the theme changes (host-context-changed)", async () => {
      await page.emulateMedia({ colorScheme: "dark" });
      await page.locator(".msg.bridge.to-view .label", { hasText: "ui/notifications/host-context-changed" }).first().waitFor();
      const view = page.frameLocator('form[data-tool="add"] iframe').frameLocator("iframe");
      await until(async () => (await view.locator("html").evaluate((root) => Reflect.get(Reflect.get(root, "style"), "colorScheme"))) === "dark");
      await page.emulateMedia({ colorScheme: "light" });
    });

    it("tears the view down (ui/resource-teardown, answered) when it is closed", async () => {
      await add().locator("button", { hasText: "Close view" }).click();
      await page.locator(".msg.bridge.notice", { hasText: "torn down: closed from the page" }).waitFor();
      assert.equal(await add().locator("iframe").count(), 0);
      const labels = await bridgeLabels(page);
      assert.ok(labels.includes("ui/resource-teardown"));
    });
  });
}

describe("inspect against a hostile view", { skip: missing }, () => {
  let inspect: RunningInspect;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  before(async () => {
    ({ inspect, browser, page } = await openInspectPage(["node", "--import", "tsx", "test/helpers/hostile-app-server.ts"]));
  });
  after(async () => {
    await browser?.close();
    await inspect?.stop();
  });

  it("refuses the view the proxy's DOM and the page's, the token's address, the proxy's origin, top navigation, links and chat, a hidden tool, posing as the proxy, a flood, and a frame navigated away; the page stays responsive", async () => {
    const attack = page.locator('form[data-tool="attack"]');
    await page.locator('form[data-tool="secret"] .app-note', { hasText: "views may not call it" }).waitFor();
    await attack.locator('input[name="page"]').fill(inspect.url);
    await attack.locator('button[type="submit"]').click();
    const proxyAddress = await attack.locator("iframe").getAttribute("src");
    // The view's report as it logs it to the page (notifications/message): it stays in the wire
    // list when, a moment later, the view navigates away and is removed.
    const logged = page.locator(".msg.bridge.from-view pre", { hasText: '"data": "parent-dom:' });
    await logged.waitFor({ state: "attached", timeout: 20_000 });
    const report = String((JSON.parse((await logged.textContent()) ?? "{}") as { params?: { data?: unknown } }).params?.data);
    assert.match(report, /parent-dom: refused SecurityError/);
    assert.match(report, /top-dom: refused SecurityError/);
    assert.match(report, /fetch-token: refused TypeError/);
    // It learnt both origins, and reached neither: the proxy's serves it nothing more in any case.
    assert.match(report, new RegExp(`ancestors: ${new URL(proxyAddress!).origin} ${new URL(inspect.url).origin}`));
    assert.match(report, /fetch-proxy: refused TypeError/);
    // Refused by the view's policy (connect-src 'none'), not only by the servers.
    for (const origin of [new URL(inspect.url).origin, new URL(proxyAddress!).origin]) assert.match(report, new RegExp(`csp: connect-src refused ${origin}`));
    assert.match(report, /secret: refused -32000 tools\/call: "secret" is not visible to apps/);
    assert.match(report, /top-nav: refused/);
    assert.match(report, /parent-nav: refused/);
    assert.match(report, /open-link: refused -32000/);
    assert.match(report, /message: refused -32000/);
    await page.locator(".msg.bridge.notice", { hasText: "the view asks to open https://example.com/phish (not opened" }).waitFor();
    // Posing as the proxy: its sandbox-* never reached the page (only the proxy's own ready did),
    // and what it posted to the page directly was not heard.
    const labels = await bridgeLabels(page);
    assert.deepEqual(labels.filter((label) => label.startsWith("ui/notifications/sandbox-")), ["ui/notifications/sandbox-proxy-ready", "ui/notifications/sandbox-resource-ready"]);
    // (The view's HTML, in sandbox-resource-ready's row, holds the words too, but not as this JSON.)
    assert.equal(await page.locator(".msg.bridge.from-view", { hasText: '"data": "straight to the page"' }).count(), 0);
    assert.equal(await page.locator(".msg.bridge.problem", { hasText: "ignored: the proxy has its view" }).count(), 0);
    // A tool visible to apps (the default) is passed on.
    assert.match(report, /attack-again: answered/);
    // The hidden tool never reached the server.
    const wire = await inspect.act({ action: "save" });
    assert.doesNotMatch(String(wire.result?.recording), /"method":"tools\/call","params":\{"name":"secret"/);
    // The flood: most of it dropped, and said; the huge message refused.
    await page.locator(".msg.bridge.problem", { hasText: /\d+ messages dropped: a view may send 50 a second/ }).first().waitFor();
    const flood = await page.locator(".msg.bridge pre", { hasText: "flood " }).count();
    assert.ok(flood <= 100, `at most two seconds' worth of the flood is shown (${flood})`);
    await page.locator(".msg.bridge.problem", { hasText: /refused \(at most 1048576\)/ }).waitFor();
    // The frame navigated itself to the page's address: the host removed it, the page stayed.
    await page.locator(".msg.bridge.notice", { hasText: "torn down: the view navigated away from its document" }).waitFor();
    assert.equal(await attack.locator("iframe").count(), 0);
    assert.equal(page.url(), inspect.url);
    // The page still answers.
    await page.locator("#list-tools").click();
    await attack.waitFor();
    const answer = await page.evaluate(async () => (await fetch("api", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ action: "ping" }) })).status);
    assert.equal(answer, 200);
  });
});

if (missing) console.log(`# browser tests skipped: ${missing}`);
