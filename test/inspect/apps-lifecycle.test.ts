// When `mcp-wire inspect`'s page opens an MCP Apps view (src/inspect/apps-host.js), in headless
// Chromium: as its tool's call starts, not once the result is in, so that a tool waiting on its own
// view finishes (test/helpers/waiting-app-server.ts: `ask` returns only once its view has called
// `answer`), and the view then gets the result; a call cancelled from the page ends in the view's
// tool-cancelled. Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
// (Lifecycle, 2; ui/notifications/tool-result and tool-cancelled).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { launch, missing, openInspectPage } from "../helpers/inspect-browser.js";
import type { RunningInspect } from "../helpers/inspect-program.js";

describe("inspect opens a view as its tool's call starts", { skip: missing }, () => {
  let inspect: RunningInspect;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const ask = () => page.locator('form[data-tool="ask"]');
  const viewLog = () => page.frameLocator('form[data-tool="ask"] iframe').frameLocator("iframe").locator("#log");
  const bridgeLabels = () => page.locator(".msg.bridge.to-view .label").allInnerTexts();
  before(async () => {
    ({ inspect, browser, page } = await openInspectPage(["node", "--import", "tsx", "test/helpers/waiting-app-server.ts"]));
  });
  after(async () => {
    await browser?.close();
    await inspect?.stop();
  });

  it("a tool that waits on its view finishes: the view gets the input while the call runs, answers through the page, then gets the result", async () => {
    await ask().locator('input[name="word"]').fill("yes");
    await ask().locator('button[type="submit"]').click();
    await viewLog().filter({ hasText: "result the view answered yes" }).waitFor();
    assert.deepEqual((await viewLog().innerText()).split("\n"), ['input {"word":"yes"}', "result the view answered yes"]);
    await ask().locator(".result", { hasText: "the view answered yes" }).waitFor();
    const labels = await bridgeLabels();
    assert.ok(labels.indexOf("ui/notifications/tool-input") < labels.indexOf("ui/notifications/tool-result"), labels.join(", "));
    // The view's answer crossed the wire as the page's own tools/call, while ask was in flight.
    await page.locator(".msg.c2s .label", { hasText: "tools/call answer" }).waitFor();
  });

  it("a call cancelled from the page ends in the view's tool-cancelled, with no result", async () => {
    await ask().locator('input[name="word"]').fill("");
    await ask().locator('button[type="submit"]').click();
    // The previous view is torn down; the new one has the input while the call still runs.
    await page.locator(".msg.bridge.notice", { hasText: "torn down: the tool was called again" }).waitFor();
    await viewLog().filter({ hasText: "input" }).waitFor();
    await ask().locator(".running button", { hasText: "Cancel" }).click();
    await viewLog().filter({ hasText: "cancelled" }).waitFor();
    const lines = (await viewLog().innerText()).split("\n");
    assert.equal(lines.length, 2, lines.join(" | "));
    assert.match(lines[0]!, /^input \{("word":"")?\}$/);
    assert.match(lines[1]!, /^cancelled \S/);
    const labels = await bridgeLabels();
    assert.equal(labels.filter((label) => label === "ui/notifications/tool-result").length, 1, "only the first call had a result");
    assert.ok(labels.includes("ui/notifications/tool-cancelled"));
  });
});

if (missing) console.log(`# browser tests skipped: ${missing}`);
