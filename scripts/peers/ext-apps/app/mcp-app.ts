// A view written the way the official MCP Apps SDK's own examples write one (its App class, no
// hand-made bridge): the host's tool input and result shown, the tool called again through the
// host with App.callServerTool, every answer added to a list (so the view grows, and the SDK's
// auto-resize reports ui/notifications/size-changed), the host's theme and style variables
// applied. It is the foreign side in our tests: our server serves it (../server.ts), hosts render it.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
import { App, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import type { CallToolResult } from "@modelcontextprotocol/client";

/** The tool this view belongs to, and its structured result (server.ts's outputSchema). */
const TOOL = "count_letters";
interface Counted { text: string; letters: number; vowels: number }

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = byId<HTMLFormElement>("letters");
const input = byId<HTMLInputElement>("text");
const button = byId<HTMLButtonElement>("count");
const result = byId<HTMLParagraphElement>("result");
const history = byId<HTMLOListElement>("history");
const status = byId<HTMLParagraphElement>("status");
const host = byId<HTMLParagraphElement>("host");

function say(text: string, error = false): void {
  status.textContent = text;
  status.className = error ? "error" : "";
}

/** Shows one result of the tool: the host's (ontoolresult) or our own call's. */
function show(answer: CallToolResult, from: string): void {
  const counted = answer.structuredContent as Counted | undefined;
  if (answer.isError || !counted) {
    const first = answer.content?.[0];
    return say(`${TOOL} failed: ${first?.type === "text" ? first.text : "no structured result"}`, true);
  }
  result.textContent = `"${counted.text}": ${counted.letters} letters, ${counted.vowels} vowels`;
  const line = document.createElement("li");
  line.textContent = `${from}: ${counted.letters}/${counted.vowels}`;
  history.append(line);
  say("");
}

function applyContext(context: McpUiHostContext): void {
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

const app = new App({ name: "mcp-wire-ext-apps-peer", version: "1.0.0" });

// Handlers first: the host may send the tool's input and result as soon as we are initialized.
app.ontoolinput = ({ arguments: args }) => {
  if (typeof args?.text === "string") input.value = args.text;
  say(`${TOOL} is running...`);
};
app.ontoolresult = (answer) => show(answer, "host");
app.ontoolcancelled = ({ reason }) => say(`the call was cancelled${reason ? `: ${reason}` : ""}`, true);
app.onhostcontextchanged = applyContext;
app.onteardown = async () => ({});
app.onerror = (error) => say(`bridge error: ${error.message}`, true);

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  say(`calling ${TOOL} through the host...`);
  try {
    show(await app.callServerTool({ name: TOOL, arguments: { text: input.value } }), "view");
  } catch (error) {
    say(`tools/call failed: ${error instanceof Error ? error.message : String(error)}`, true);
  }
});

app.connect().then(() => {
  const context = app.getHostContext();
  if (context) applyContext(context);
  button.disabled = false;
  say("ready");
  const { name, version } = app.getHostVersion() ?? { name: "unnamed", version: "" };
  host.textContent = `host: ${name} ${version}`;
}, (error: unknown) => say(`ui/initialize failed: ${error instanceof Error ? error.message : String(error)}`, true));
