// MCP Apps views served by our library, rendered by the official MCP Inspector's web client in
// headless Chromium (apps-inspector-devtools.ts starts both), one scenario per server:
// - calculator: `node dist/server.js`; its Apps tab lists add, "Open App" with a = 2 and b = 3
//   renders the hand-written calculator in the Inspector's sandbox, which must show the sum 5
//   (tool-input and tool-result reached it), and the view's own tools/call through the Inspector
//   (a = 40) must show 43;
// - ext-apps: the view built with the official SDK (scripts/peers/ext-apps/), served by our
//   McpServer.view(); steps in scripts/peers/ext-apps/inspector-steps.ts.
// One line per scenario, a screenshot each in the OS temp dir (or --screenshots DIR); exit 1 when
// any fails. --only NAME runs one scenario.
// Run: `npm run build && node --experimental-websocket --import tsx scripts/apps-inspector-web.ts`
// (Node 20 needs the flag for its WebSocket; Node 22 has it anyway).

import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { INSPECTOR_VERSION, SERVER } from "./apps-inspector.js";
import { click, openInspector, type DevTools, type StdioServer } from "./apps-inspector-devtools.js";
import { extAppsScenario } from "./peers/ext-apps/inspector-steps.js";

/** One server with a view, and what must happen to it in the Inspector's page. */
export interface InspectorScenario {
  name: string;
  server: () => Promise<StdioServer>;
  /** Opens the app and drives it; resolves with the outcome's line, throws when a step never happens. */
  drive(tools: DevTools): Promise<{ ok: boolean; said: string }>;
}

// The calculator's steps (the Inspector's markup and the view's, as of the pinned version).
const FILL = `(() => { const inputs = [...document.querySelectorAll('.mantine-NumberInput-input')]; if (inputs.length < 2) return null;
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  inputs.slice(0, 2).forEach((input, i) => { input.focus(); set.call(input, i === 0 ? '2' : '3'); input.dispatchEvent(new Event('input', { bubbles: true })); input.blur(); });
  return true; })()`;
const VIEW_SUM = `(() => { const sum = document.getElementById('sum'); return sum && document.getElementById('calculator') && sum.textContent || null; })()`;
const ADD_AGAIN = `(() => { const form = document.getElementById('calculator'); if (!form) return null; document.getElementById('a').value = '40'; form.requestSubmit(); return true; })()`;

const calculator: InspectorScenario = {
  name: "calculator",
  server: async () => ({ command: process.execPath, args: [SERVER] }),
  async drive(tools) {
    await tools.until(click("button", "Add two numbers"), "add in the Apps list");
    await tools.until(FILL, "add's form");
    await tools.until(click("button", "Open App"), "Open App");
    const first = await tools.until(VIEW_SUM, "the calculator's sum for a = 2, b = 3");
    await tools.until(ADD_AGAIN, "the calculator's form");
    const again = await tools.until(`(${VIEW_SUM}) === "43" || null`, "the sum of the view's own tools/call (a = 40)") && "43";
    return { ok: first === "5" && again === "43", said: `the calculator rendered with the call's sum ${first}, and its own tools/call through the Inspector gave ${again}` };
  },
};

export const SCENARIOS: InspectorScenario[] = [calculator, extAppsScenario];

/** Runs the scenarios, each in a web client and a browser of its own; 0 when all pass. */
export async function main(names: string[] = SCENARIOS.map((s) => s.name), screenshots = tmpdir()): Promise<number> {
  const chosen = SCENARIOS.filter((s) => names.includes(s.name));
  if (chosen.length !== names.length) throw new Error(`apps-inspector-web: the scenarios are ${SCENARIOS.map((s) => s.name).join(", ")}, not ${names.join(", ")}`);
  let failed = 0;
  for (const scenario of chosen) {
    const started = Date.now();
    const page = await openInspector(await scenario.server());
    try {
      const { ok, said } = await scenario.drive(page.tools);
      const shot = join(screenshots, `mcp-wire-apps-inspector-${scenario.name}.png`);
      await page.screenshot(shot);
      if (!ok) failed++;
      console.log(`${ok ? "ok  " : "FAIL"} Inspector ${INSPECTOR_VERSION} web client, ${scenario.name}: ${said} (${Date.now() - started} ms; screenshot ${shot})`);
    } catch (error) {
      failed++;
      console.log(`FAIL Inspector ${INSPECTOR_VERSION} web client, ${scenario.name}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await page.close();
    }
  }
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const flag = (name: string) => { const at = process.argv.indexOf(name); return at > 0 ? process.argv[at + 1] : undefined; };
  main(flag("--only")?.split(","), flag("--screenshots")).then((code) => { process.exitCode = code; }, (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
