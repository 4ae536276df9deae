// The view built with the official MCP Apps SDK (app/), served by our library (server.ts), in the
// official Inspector's web page (scripts/apps-inspector-web.ts runs this scenario): its Apps tab
// lists count_letters; "Open App" with "Hello world" renders the view in the Inspector's sandbox,
// which must show the host's result (10 letters, 3 vowels: tool-result reached it) and the
// Inspector's name from ui/initialize; three calls of the view's own (App.callServerTool, proxied
// by the Inspector to our server) must each show "Hello again" counted (10, 5), and the frame the
// Inspector gives the view must fit its height, once as it opens and again once it grew by three
// lines (the SDK's size-changed notifications reached it).
import { click, type DevTools } from "../../apps-inspector-devtools.js";
import type { InspectorScenario } from "../../apps-inspector-web.js";
import { prepareExtAppsPeer } from "./prepare.js";

const FILL = `(() => { const input = document.querySelector('.mantine-TextInput-input[aria-keyshortcuts=Enter]'); if (!input) return null;
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  input.focus(); set.call(input, 'Hello world'); input.dispatchEvent(new Event('input', { bubbles: true })); input.blur(); return true; })()`;
/** The height the SDK's autoResize measures and sends in size-changed: the document's at max-content. */
const VIEW_HEIGHT = `(() => { const root = document.documentElement, was = root.style.height; root.style.height = 'max-content';
  const height = Math.ceil(root.getBoundingClientRect().height); root.style.height = was; return height; })()`;
/** The view's state once it shows `lines` results (evaluated in every frame; only the view's has #history). */
const shown = (lines: number) => `(() => { const history = document.getElementById('history'); if (!history || history.children.length !== ${lines}) return null;
  return { result: document.getElementById('result').textContent, last: history.lastElementChild.textContent, host: document.getElementById('host').textContent,
    status: document.getElementById('status').textContent, height: ${VIEW_HEIGHT} }; })()`;
const AGAIN = `(() => { const form = document.getElementById('letters'); const button = document.getElementById('count'); if (!form || button.disabled) return null;
  document.getElementById('text').value = 'Hello again'; form.requestSubmit(); return true; })()`;
/** The height of the frame the Inspector's own page gives the app (its outermost iframe). */
const FRAME_HEIGHT = `window === window.top && document.querySelector('iframe') ? Math.round(document.querySelector('iframe').getBoundingClientRect().height) : null`;
/** The frame's height once it is the view's `height` give or take a few pixels (a line's rounding), else null. */
const frameFits = (height: number) => `(() => { const frame = ${FRAME_HEIGHT}; return frame !== null && Math.abs(frame - ${height}) <= 4 ? frame : null; })()`;

async function drive(tools: DevTools) {
  const problems: string[] = [];
  const expect = (what: string, got: unknown, wanted: unknown) => { if (got !== wanted) problems.push(`${what}: ${JSON.stringify(got)}, not ${JSON.stringify(wanted)}`); };
  await tools.until(click("button", "Count letters"), "count_letters in the Apps list");
  await tools.until(FILL, "count_letters' form");
  await tools.until(click("button", "Open App"), "Open App");
  const first = await tools.until(shown(1), "the view showing the host's result of count_letters");
  expect("the host's result", first.result, `"Hello world": 10 letters, 3 vowels`);
  expect("its line", first.last, "host: 10/3");
  if (!/^host: MCP Inspector \S+$/.test(first.host)) problems.push(`the host's name from ui/initialize: ${JSON.stringify(first.host)}`);
  // The frame opens at a height of the Inspector's own and takes the view's only when the
  // first size-changed arrives, which may be after the result shows on a busy machine: wait for
  // the frame that fits the view, not the first frame there is.
  const before = (await tools.until(frameFits(first.height), `the Inspector's frame fitting the view's ${first.height} px`)) as number;
  let last: any;
  for (let lines = 2; lines <= 4; lines++) {
    await tools.until(AGAIN, "the view's form");
    last = await tools.until(shown(lines), `the view's own tools/call number ${lines - 1} through the Inspector`);
  }
  expect("the view's own call's result", last.result, `"Hello again": 10 letters, 5 vowels`);
  expect("its line", last.last, "view: 10/5");
  expect("the view's status", last.status, "");
  if (!(last.height > first.height)) problems.push(`the view did not grow with three more lines: ${first.height} px, then ${last.height} px`);
  const after = (await tools.until(frameFits(last.height), `the frame fitting the view's ${last.height} px after it grew (it fitted ${before} px)`)) as number;
  return {
    ok: problems.length === 0,
    said: problems.length > 0 ? problems.join("; ") :
      `the SDK view rendered the host's result (10/3, host "${first.host.slice(6)}"), its three tools/call through the Inspector gave 10/5, and its size changes grew the frame from ${before} to ${after} px`,
  };
}

export const extAppsScenario: InspectorScenario = {
  name: "ext-apps",
  server: async () => (await prepareExtAppsPeer()).server,
  drive,
};
