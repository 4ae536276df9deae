// The browser the inspect tests drive: Debian's headless Chromium through playwright-core, a fresh
// profile each time; where screenshots go; and a wait that asks again until a check holds.
// Tests are skipped, with a note, only where /usr/bin/chromium is absent (.ci/run installs it).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { startInspect, type RunningInspect } from "./inspect-program.js";

export const CHROMIUM = "/usr/bin/chromium";
/** false, or why the browser tests are skipped. */
export const missing: false | string = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent (apt-get install -y chromium; .ci/run does)`;
/** A temporary folder, or fixtures/screenshots/ (README shows them) with MCP_WIRE_WRITE_SCREENSHOTS=1. */
export const screenshots = process.env.MCP_WIRE_WRITE_SCREENSHOTS === "1"
  ? fileURLToPath(new URL("../../fixtures/screenshots/", import.meta.url))
  : mkdtempSync(join(tmpdir(), "mcp-wire-inspect-shots-"));

// The page's elements are read with Reflect.get: these tests are typed without the DOM's names.
/** Asks again until `check` holds (the test's own timeout bounds the wait; no time is asserted). */
export async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

export async function launch(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "mcp-wire-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 860 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  return { context, close: async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); } };
}

/**
 * `mcp-wire inspect` for this server (with these flags), and a fresh browser on its page. A launch
 * that fails stops the inspect it started, so a test's after() has only what it was given to close.
 */
export async function openInspectPage(server: string[], flags: string[] = []): Promise<{ inspect: RunningInspect; browser: Awaited<ReturnType<typeof launch>>; page: Page }> {
  const inspect = await startInspect(server, flags);
  try {
    const browser = await launch();
    const page = await browser.context.newPage();
    await page.goto(inspect.url);
    return { inspect, browser, page };
  } catch (error) {
    await inspect.stop();
    throw error;
  }
}
