// Resource templates in `mcp-wire inspect`'s page (src/inspect/templates.js), in headless Chromium:
// the demo's template docs://demo/protocol-notes/{section} gets an input for `section`, completed
// by the server as the person types (completion/complete with a ref/resource), and Read expands
// the template and reads the section. Both generations. The template expansion's operators are
// checked in the page itself (RFC 6570 levels 1 to 3).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { launch, missing, openInspectPage } from "../helpers/inspect-browser.js";
import type { RunningInspect } from "../helpers/inspect-program.js";

for (const generation of ["auto", "2025-11-25"] as const) {
  describe(`inspect completes and reads resource templates (--protocol-version ${generation})`, { skip: missing }, () => {
    let inspect: RunningInspect;
    let browser: Awaited<ReturnType<typeof launch>>;
    let page: Page;
    before(async () => {
      ({ inspect, browser, page } = await openInspectPage(["node", "dist/server.js"], ["--protocol-version", generation]));
      await page.locator('form[data-tool="add"]').waitFor();
    });
    after(async () => {
      await browser?.close();
      await inspect?.stop();
    });

    it("completes the template's variable from the server, and reads the expanded URI", async () => {
      await page.locator("summary", { hasText: "Resources" }).click();
      await page.locator("#list-templates").click();
      const form = page.locator('form[data-template="docs://demo/protocol-notes/{section}"]');
      const input = form.locator('input[name="section"]');
      await input.pressSequentially("life");
      await form.locator('datalist[data-for="life"] option[value="lifecycle"]').waitFor({ state: "attached" });
      await page.locator(".msg.c2s .label", { hasText: "completion/complete" }).first().waitFor();
      const sent = await inspect.act({ action: "save" });
      assert.match(String(sent.result?.recording), /"ref":\{"type":"ref\/resource","uri":"docs:\/\/demo\/protocol-notes\/\{section\}"\},"argument":\{"name":"section","value":"life"\}/);
      await input.fill("lifecycle");
      await form.locator('button[type="submit"]').click();
      await page.locator("#last-result", { hasText: "docs://demo/protocol-notes/lifecycle" }).waitFor();
      assert.match(await page.locator("#last-result").innerText(), /## Lifecycle/);
    });

    it("expands RFC 6570 operators", async () => {
      // A variable left blank in the form is one the person did not give: RFC 6570's undefined,
      // which expands to nothing (an empty string given on purpose would be `b=`).
      const cases: [string, { [name: string]: string }, string][] = [
        ["docs://x/{a}", { a: "b c/d" }, "docs://x/b%20c%2Fd"],
        ["docs://x/{+a}", { a: "b/c d" }, "docs://x/b/c%20d"],
        ["docs://x{/a,b}", { a: "1", b: "2" }, "docs://x/1/2"],
        ["docs://x{?a,b}", { a: "1", b: "" }, "docs://x?a=1"],
        ["docs://x{?a}{&b}", { a: "1", b: "2" }, "docs://x?a=1&b=2"],
        ["docs://x{.ext}{#frag}", { ext: "md", frag: "a b" }, "docs://x.md#a%20b"],
        ["docs://x/{a*}{;p}", { a: "z", p: "q" }, "docs://x/z;p=q"],
      ];
      for (const [template, values, expected] of cases) {
        assert.equal(await page.evaluate(([t, v]) => Reflect.apply(Reflect.get(globalThis, "expandTemplate"), undefined, [t, v]), [template, values] as const), expected, template);
      }
    });
  });
}

if (missing) console.log(`# browser tests skipped: ${missing}`);
