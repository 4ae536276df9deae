// A view nobody here wrote the bridge of, in `mcp-wire inspect`'s page: the peer of
// scripts/peers/ext-apps/ (a view written with the official MCP Apps SDK's App class, bundled into
// one HTML file, served by our McpServer.view() for the tool count_letters). count_letters called
// from the page's form opens it behind the page's sandbox proxy (two frames); the SDK's ui/initialize is answered to its
// liking (it shows the page's host name), the call's result reaches it, its own tools/call through
// the page reaches the server, and its size changes resize the frame. Both generations.
// It installs the SDK from the npm registry into a cache outside the project, so it runs only with
// MCP_WIRE_INTEROP=1 (.ci/run sets it for this file), and where /usr/bin/chromium is present.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { prepareExtAppsPeer, type PreparedPeer } from "../../scripts/peers/ext-apps/prepare.js";
import { launch, missing, openInspectPage, until } from "../helpers/inspect-browser.js";
import type { RunningInspect } from "../helpers/inspect-program.js";

const skip = missing || (process.env.MCP_WIRE_INTEROP !== "1" && "set MCP_WIRE_INTEROP=1 to install the MCP Apps SDK (needs the npm registry)");

for (const generation of ["auto", "2025-11-25"] as const) {
  describe(`inspect hosts a view built with the official MCP Apps SDK (--protocol-version ${generation})`, { skip }, () => {
    let peer: PreparedPeer;
    let inspect: RunningInspect;
    let browser: Awaited<ReturnType<typeof launch>>;
    let page: Page;
    const card = () => page.locator('form[data-tool="count_letters"]');
    // The page's frame holds the sandbox proxy (another origin); the view is the proxy's own frame.
    const view = () => page.frameLocator('form[data-tool="count_letters"] iframe').frameLocator("iframe");
    before(async () => {
      peer = await prepareExtAppsPeer();
      ({ inspect, browser, page } = await openInspectPage([peer.server.command, ...peer.server.args], ["--protocol-version", generation]));
    });
    after(async () => {
      await browser?.close();
      await inspect?.stop();
    });

    it("calls count_letters from the form: the SDK view opens, initialized by the page, and shows the result", async () => {
      await card().locator(".app-note", { hasText: peer.viewUri }).waitFor();
      await card().locator('input[name="text"]').fill("Hello world");
      await card().locator('button[type="submit"]').click();
      await view().locator("#history li").first().waitFor();
      assert.equal(await view().locator("#result").innerText(), '"Hello world": 10 letters, 3 vowels');
      assert.equal(await view().locator("#history li").first().innerText(), "host: 10/3");
      // The SDK took the page's answer to ui/initialize (its schema checked it) and names the page.
      assert.match(await view().locator("#host").innerText(), /^host: mcp-wire/);
      const labels = await page.locator(".msg.bridge .label").allInnerTexts();
      for (const method of ["ui/initialize", "ui/notifications/initialized", "ui/notifications/tool-input", "ui/notifications/tool-result", "ui/notifications/size-changed"]) {
        assert.ok(labels.includes(method), `${method} is in the wire list as a bridge message`);
      }
    });

    it("the view's own tools/call (App.callServerTool) goes through the page to the server, and the grown view gets a taller frame", async () => {
      const frame = card().locator("iframe");
      await until(async () => (await frame.evaluate((node) => Reflect.get(Reflect.get(node, "style"), "height"))) !== "");
      const before = await frame.evaluate((node) => Number(Reflect.get(node, "offsetHeight")));
      for (let lines = 2; lines <= 4; lines++) {
        await view().locator("#text").fill("Hello again");
        await view().locator("#count").click();
        await view().locator("#history li").nth(lines - 1).waitFor();
      }
      assert.equal(await view().locator("#result").innerText(), '"Hello again": 10 letters, 5 vowels');
      assert.equal(await view().locator("#history li").last().innerText(), "view: 10/5");
      assert.equal(await page.locator(".msg.bridge.from-view .label", { hasText: "tools/call" }).count(), 3);
      await page.locator(".msg.c2s .label", { hasText: "tools/call count_letters" }).nth(3).waitFor();
      await until(async () => (await frame.evaluate((node) => Number(Reflect.get(node, "offsetHeight")))) > before);
    });
  });
}
