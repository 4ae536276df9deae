// `mcp-wire inspect`: the session shown on a local web page instead of a terminal. Our own client
// connects to the server (the same server arguments as every command: a command after `--`, or
// --url, either generation); every message that crosses is pushed to the page as it passes, with
// the walkthrough's gloss, and drawn on the sequence diagram; the page's forms call tools, read
// resources, get prompts, set the log level, cancel a call, and answer the server's questions.
// The page is served on loopback only, behind a random token (cli/inspect-http.ts); it stops on
// Ctrl-C, or when the page says it is closed.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning (dual-era clients)
// Reading order: this file, cli/inspect-session.ts (what is kept), cli/inspect-http.ts (the web
// server), cli/inspect-actions.ts (what the page asks), src/inspect/ (the page itself).

import { spawn } from "node:child_process";
import { McpClient } from "../client/client.js";
import { traceTransport } from "../protocol/trace.js";
import { svgDiagram } from "../recordings/diagram-svg.js";
import { quoteArgument } from "../recordings/recording.js";
import { parseCommandLine, UsageError } from "./arguments.js";
import { describeFailure } from "./failures.js";
import { UI_MIME_TYPE } from "../mcp/apps.js";
import { PageActions } from "./inspect-actions.js";
import { AppRequests } from "./inspect-apps.js";
import { startInspectServer } from "./inspect-http.js";
import { startSandboxServer } from "./inspect-sandbox.js";
import { INSPECT_LIMITS, InspectSession } from "./inspect-session.js";
import { ExitCode, printError, terminalSafe } from "./output.js";
import { Redactor } from "./redact.js";
import { openTransport, type SessionLine } from "./session.js";

export const INSPECT_USAGE = `usage: mcp-wire inspect [--open] [options] -- COMMAND [ARGS...]
       mcp-wire inspect [--open] [options] --url URL
Shows the session on a local web page: every message as it passes, the sequence diagram, and
forms to call tools, read resources, get prompts and answer the server's questions.
  --open   open the page in the browser (xdg-open, open or start); otherwise its address is printed
The other options are those of every command (mcp-wire --help): --protocol-version, --header, --env, ...
The page's address holds a secret token: anyone with it can use the session.`;

/** How long after the last page went away the inspector stops, unless a page comes back (a reload). */
const CLOSED_AFTER_MS = 5000;

export async function run(argv: string[]): Promise<number> {
  const split = argv.indexOf("--");
  const ours = split === -1 ? argv : argv.slice(0, split);
  if (ours.includes("--help") || ours.includes("-h")) {
    printError(INSPECT_USAGE);
    return ExitCode.ok;
  }
  const open = ours.includes("--open");
  let line: SessionLine;
  try {
    // The same server arguments as every command: parsed as `ping`'s, which takes no words of its own.
    const parsed = parseCommandLine(["ping", ...argv.filter((arg, index) => !(arg === "--open" && (split === -1 || index < split)))]);
    if (!("options" in parsed)) throw new UsageError("inspect needs a server: a command after --, or --url");
    const { server, ...rest } = parsed;
    line = "config" in server ? (await import("./host-config.js")).sessionFromConfig({ ...rest, server }) : { ...rest, server };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    printError(terminalSafe(`mcp-wire inspect: ${error.message}\n${INSPECT_USAGE}`));
    return ExitCode.usage;
  }
  return inspect(line, open);
}

async function inspect({ options, server }: SessionLine, open: boolean): Promise<number> {
  const redactor = new Redactor();
  const say = (text: string): void => printError(terminalSafe(redactor.redact(text)));
  let client: McpClient | undefined;
  const era = (): string => client?.protocolVersion ?? "probing";
  let connectedOrNot!: (ready: boolean) => void;
  const ready = new Promise<boolean>((resolve) => { connectedOrNot = resolve; });
  const session = new InspectSession(
    "url" in server ? { transport: "http", url: server.url } : { transport: "stdio", command: [server.command, ...server.args].map(quoteArgument).join(" ") },
    era,
  );
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => { stopped = resolve; });
  let port = 0;
  // The views' sandbox proxy: a listener of its own, so an origin other than the page's.
  const sandbox = await startSandboxServer();
  const apps = new AppRequests(() => [`http://127.0.0.1:${port}`, `http://localhost:${port}`], () => sandbox);
  const actions = new PageActions(async () => {
    if (!(await ready) || client === undefined) throw new Error("the client could not connect to the server (the terminal says why)");
    return client;
  }, session, () => stopped(), apps);
  client = new McpClient({ name: "mcp-wire inspect", version: "0.1.0" }, {
    protocolVersion: options.protocolVersion,
    handshakeTimeoutMs: options.handshakeTimeoutMs,
    // As the CLI: it sends what the person asks for and shows the answer, rather than refusing locally.
    enforceServerCapabilities: false,
    // The page is an MCP Apps host (src/inspect/apps-host.js): it renders HTML views.
    apps: { mimeTypes: [UI_MIME_TYPE] },
    onProblem: (message) => {
      say(`mcp-wire inspect: ${message}`);
      session.push({ type: "problem", text: message });
    },
    ...actions.handlers(),
  });
  const connected = client;
  connected.on("log", (params) => session.push({ type: "log", params }));

  let closeTimer: NodeJS.Timeout | undefined;
  const page = await startInspectServer({
    events: (send) => {
      clearTimeout(closeTimer);
      const stop = session.listen(send);
      return () => {
        stop();
        // The person closed the page (a reload comes back well within the delay).
        if (session.listeners === 0) closeTimer = setTimeout(() => stopped(), CLOSED_AFTER_MS);
      };
    },
    diagram: () => svgDiagram(session.described(INSPECT_LIMITS.drawnMessages), { title: "mcp-wire inspect: the session" }),
    frameOrigins: sandbox.origins,
    action: (body) => actions.run(body),
  }, new URL("../inspect/", import.meta.url));
  port = page.port;
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stopped());
  say(`mcp-wire inspect: the page is at ${page.url}`);
  say("mcp-wire inspect: (the address holds a secret token; Ctrl-C or the page's Stop button ends the session)");
  if (open) openInBrowser(page.url, say);

  const output = { say, redactor, elapsedMs: () => session.elapsed(), closing: [] as (() => Promise<void>)[] };
  let exitCode: number = ExitCode.ok;
  try {
    const transport = await openTransport(server, { ...options, trace: false }, output);
    const traced = traceTransport(transport, (event) => {
      if (event.kind === "sent") session.record("c2s", event.text, event.message);
      else if (event.kind === "received") session.record("s2c", event.text, event.message);
      else if (event.kind === "unreadable") session.push({ type: "problem", text: `unreadable input: ${JSON.stringify(event.problem)}` });
      else session.push({ type: "closed", text: event.kind === "closed" ? event.cause?.message ?? "the connection closed" : "the server's output ended" });
    });
    await connected.connect(traced);
    connectedOrNot(true);
    session.push({ type: "state", era: connected.era, protocolVersion: connected.protocolVersion, reason: connected.eraReason, serverInfo: connected.serverInfo, capabilities: connected.serverCapabilities });
    await done;
  } catch (error) {
    connectedOrNot(false);
    say(`mcp-wire inspect: ${describeFailure(error)}`);
    session.push({ type: "problem", text: describeFailure(error) });
    exitCode = ExitCode.failed;
  } finally {
    await connected.close();
    for (const close of output.closing) await close();
    await page.close();
    await sandbox.close();
  }
  return exitCode;
}

/** The system's own opener; what it does with the URL is the browser's business. */
function openInBrowser(url: string, say: (text: string) => void): void {
  const opener = process.platform === "darwin" ? ["open", url] : process.platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  const child = spawn(opener[0], opener.slice(1), { stdio: "ignore", detached: true });
  child.on("error", (error) => say(`mcp-wire inspect: could not open the browser (${error.message}); open the address above`));
  child.unref();
}
