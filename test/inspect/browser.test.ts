// `mcp-wire inspect` in a real browser: Debian's headless Chromium, driven by playwright-core, opens
// the page against the demo server and uses it as a person would: the tools are listed, `add` is
// called from its form (its result shown, its arrow drawn), a long `countdown` shows its progress
// and is cancelled, `greet`'s elicitation form is answered; and a wrong token or a page of another
// origin is refused. Both generations: 2026-07-28 (auto finds it) and the 2025-11-25 handshake.
// Skipped, with a note, only where /usr/bin/chromium is absent; the browser, the screenshots'
// folder and the wait are test/helpers/inspect-browser.ts's. The MCP Apps host: apps-host.test.ts.

import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { launch, missing, openInspectPage, screenshots, until } from "../helpers/inspect-browser.js";
import type { RunningInspect } from "../helpers/inspect-program.js";

for (const generation of ["auto", "2025-11-25"] as const) {
  describe(`mcp-wire inspect in Chromium (--protocol-version ${generation})`, { skip: missing }, () => {
    let inspect: RunningInspect;
    let browser: Awaited<ReturnType<typeof launch>>;
    let page: Page;
    const tool = (name: string) => page.locator(`form[data-tool="${name}"]`);
    before(async () => {
      ({ inspect, browser, page } = await openInspectPage(["node", "dist/server.js"], ["--protocol-version", generation]));
    });
    after(async () => {
      await browser?.close();
      await inspect?.stop();
    });

    it("lists the server's tools, and shows the era it found", async () => {
      await tool("add").waitFor();
      assert.ok(await tool("countdown").count() === 1);
      await page.locator("#era", { hasText: generation === "auto" ? "2026-07-28" : "2025-11-25" }).waitFor();
    });

    it("calls add from its form: the result, the messages, and the arrow on the diagram", async () => {
      await tool("add").locator('input[name="a"]').fill("3");
      await tool("add").locator('input[name="b"]').fill("4");
      await tool("add").locator('button[type="submit"]').click();
      const result = tool("add").locator("pre.result");
      await result.filter({ hasText: '"sum": 7' }).waitFor();
      await page.locator(".msg.c2s .label", { hasText: "tools/call add" }).first().waitFor();
      await page.locator(".msg.s2c .label", { hasText: "result (tools/call)" }).first().waitFor();
      // The diagram is redrawn as an image: it loads, and what it drew has the call's arrow.
      await until(() => page.locator("#diagram").evaluate((img) => Reflect.get(img, "complete") === true && Number(Reflect.get(img, "naturalWidth")) > 0));
      await page.waitForFunction(async () => (await (await fetch("diagram.svg")).text()).includes("tools/call add"));
      if (generation === "auto") await page.screenshot({ path: join(screenshots, "inspect-session.png") });
    });

    it("shows a server's text as text, never as markup", async () => {
      await tool("echo").locator('input[name="text"]').fill('<img id="injected" src="x"><b id="bold">hi</b>');
      await tool("echo").locator('button[type="submit"]').click();
      await tool("echo").locator("pre.result", { hasText: '<img id=\\"injected\\"' }).waitFor();
      assert.equal(await page.locator("#injected, #bold").count(), 0);
    });

    it("shows a countdown's progress, and Cancel cancels it", async () => {
      await tool("countdown").locator('input[name="steps"]').fill("100");
      await tool("countdown").locator('input[name="intervalMs"]').fill("300");
      await tool("countdown").locator('button[type="submit"]').click();
      // Progress has come once the bar has a value.
      await until(() => tool("countdown").locator("progress").evaluate((bar) => Number(Reflect.get(bar, "value")) > 0));
      if (generation === "auto") await tool("countdown").screenshot({ path: join(screenshots, "inspect-progress.png") });
      await tool("countdown").locator("button", { hasText: "Cancel" }).click();
      const result = tool("countdown").locator("pre.result.failed");
      await result.waitFor();
      assert.match(await result.innerText(), /cancel/i);
      assert.equal(await tool("countdown").locator("progress").count(), 0);
    });

    it("answers greet's elicitation form from the page", async () => {
      await tool("greet").locator('button[type="submit"]').click();
      const question = page.locator("form.question");
      await question.waitFor();
      assert.match(await question.innerText(), /What is your name\?/);
      await question.locator('input[name="name"]').fill("Ada");
      if (generation === "auto") await question.screenshot({ path: join(screenshots, "inspect-elicitation.png") });
      await question.locator('button[data-answer="accept"]').click();
      await tool("greet").locator("pre.result", { hasText: "Hello, Ada!" }).waitFor();
      assert.equal(await page.locator("form.question").count(), 0);
    });

    it("answers summarize's sampling request by hand, and declines it clearly", async () => {
      const summarize = tool("summarize");
      await summarize.locator('input[name="text"]').fill("A long text.");
      await summarize.locator('button[type="submit"]').click();
      const question = page.locator("form.question");
      await question.locator("textarea").fill("A text, summarized by a person.");
      await question.locator('button[data-answer="send reply"]').click();
      await summarize.locator("pre.result", { hasText: "A text, summarized by a person." }).waitFor();
      await summarize.locator('button[type="submit"]').click();
      await question.locator('button[data-answer="decline"]').click();
      await summarize.locator("pre.result", { hasText: /rejected|declined/i }).waitFor();
      // The handshake era answers the server's request with the error a user's refusal gets (client/sampling).
      if (generation !== "auto") await page.locator(".msg.c2s .label", { hasText: "error -1" }).first().waitFor();
    });

    it("refuses a wrong token", async () => {
      const other = await browser.context.newPage();
      const wrong = inspect.url.replace(/\/[A-Za-z0-9_-]+\/$/, "/not-the-token-not-the-token-abcd/");
      const response = await other.goto(wrong);
      assert.equal(response?.status(), 404);
      await other.close();
    });

    it("refuses another origin's page, which cannot act on the session", async () => {
      // A page on another loopback port (another origin) tries the session's actions with the token.
      const evil = createServer((_request, response) => {
        response.writeHead(200, { "content-type": "text/html" });
        response.end("<!doctype html><title>elsewhere</title>");
      });
      await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
      try {
        const other = await browser.context.newPage();
        await other.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
        const outcome = await other.evaluate(async (api) => {
          try {
            const response = await fetch(api, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ action: "call", name: "add", arguments: { a: 1000, b: 1 }, callId: "evil" }) });
            return `status ${response.status}`;
          } catch (error) {
            return `refused: ${String(error)}`;
          }
        }, new URL("api", inspect.url).href);
        assert.match(outcome, /^refused/);
        // The same request sent as is, its Origin that page's: the server itself says 403 (no CORS needed to refuse it).
        const direct = await browser.context.request.post(new URL("api", inspect.url).href, { headers: { origin: "http://attacker.example", "content-type": "application/json" }, data: { action: "tools" } });
        assert.equal(direct.status(), 403);
        await other.close();
        const wire = await inspect.act({ action: "save" });
        assert.doesNotMatch(String(wire.result?.recording), /"a":1000/);
      } finally {
        evil.close();
      }
    });

    it("stops, and stops its server, when the page's Stop button is pressed", async () => {
      const exited = new Promise<number | null>((resolve) => inspect.child.once("exit", resolve));
      await page.locator("#stop").click();
      await page.locator("p", { hasText: "The session has ended" }).waitFor();
      assert.equal(await exited, 0);
    });
  });
}

if (missing) console.log(`# browser tests skipped: ${missing}`);
