// The official MCP Inspector's web client (the version pinned in apps-inspector.ts, run under its
// pinned Node 22) connected to one server over stdio, and Debian's headless Chromium on its page,
// driven over the DevTools protocol by hand (no browser package). The checks that use it are in
// apps-inspector-web.ts. Ports are random; close() stops every process started here.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { install, NODE_22, WEB } from "./apps-inspector.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const STEP_TIMEOUT_MS = 30_000;

export type Json = { [key: string]: any };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const port = () => 20_000 + Math.floor(Math.random() * 40_000);

/** Resolves with the first match of `pattern` in what `child` prints, or rejects when it exits first. */
function printed(child: ChildProcess, pattern: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let said = "";
    const look = (chunk: Buffer) => {
      said += chunk.toString("utf8");
      const found = pattern.exec(said)?.[1];
      if (found) resolve(found);
    };
    child.stdout?.on("data", look);
    child.stderr?.on("data", look);
    child.on("exit", (code) => reject(new Error(`${what} exited (${code}) first: ${said.slice(-2000)}`)));
  });
}

/** Resolves when a child has exited; signals it first unless `graceMs` is given, then only once that has passed. */
function stop(child: ChildProcess | undefined, graceMs = 0): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill(), graceMs);
    child.on("exit", () => { clearTimeout(timer); resolve(); });
  });
}

/** Asks Chromium to quit (Browser.close), which ends its helper processes too, unlike a signal to the first one. */
async function quitBrowser(endpoint: string | undefined): Promise<void> {
  if (!endpoint) return;
  const socket = new WebSocket(endpoint);
  await new Promise((resolve) => {
    socket.addEventListener("open", () => { socket.send(JSON.stringify({ id: 1, method: "Browser.close" })); resolve(undefined); });
    socket.addEventListener("error", resolve);
  });
}

/** A DevTools protocol connection to one page, and to the frames attached to it (the app's sandbox is out of process). */
export class DevTools {
  readonly #socket: WebSocket;
  #next = 0;
  readonly #waiting = new Map<number, (message: Json) => void>();
  readonly contexts: { id: number; sessionId?: string }[] = [];

  constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as Json;
      if (message.id !== undefined) this.#waiting.get(message.id)?.(message);
      if (message.method === "Runtime.executionContextCreated") this.contexts.push({ id: message.params.context.id, sessionId: message.sessionId });
      if (message.method === "Target.attachedToTarget") void this.#attach(message.params.sessionId);
    });
  }

  static async open(url: string): Promise<DevTools> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => { socket.addEventListener("open", resolve); socket.addEventListener("error", reject); });
    const tools = new DevTools(socket);
    await tools.send("Page.enable");
    await tools.#attach(undefined);
    return tools;
  }

  async #attach(sessionId: string | undefined): Promise<void> {
    await this.send("Runtime.enable", {}, sessionId);
    await this.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId);
  }

  send(method: string, params: Json = {}, sessionId?: string): Promise<Json> {
    const id = ++this.#next;
    this.#socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve) => this.#waiting.set(id, (message) => { this.#waiting.delete(id); resolve(message); }));
  }

  /** The value of `expression` in the first context (page or frame) where it is not null. */
  async evaluate(expression: string): Promise<unknown> {
    for (const context of [...this.contexts]) {
      const answer = await this.send("Runtime.evaluate", { expression, contextId: context.id, returnByValue: true }, context.sessionId);
      const value = answer.result?.result?.value;
      if (value !== undefined && value !== null) return value;
    }
    return null;
  }

  /** Polls `expression` until it is truthy; its value. */
  async until(expression: string, what: string): Promise<any> {
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const value = await this.evaluate(expression);
      if (value) return value;
      await sleep(200);
    }
    throw new Error(`apps-inspector-web: gave up waiting for ${what}`);
  }

  close(): void { this.#socket.close(); }
}

/** A server as a host starts it over stdio. */
export interface StdioServer { command: string; args: string[] }

export interface InspectorPage {
  tools: DevTools;
  /** Saves a PNG of the page. */
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts the Inspector's web client on `server` and Chromium on its page, connected to the server. */
export async function openInspector(server: StdioServer): Promise<InspectorPage> {
  if (typeof WebSocket !== "function") throw new Error("apps-inspector-web: no WebSocket: run it with node --experimental-websocket (Node 20) or Node 22");
  if (!existsSync(CHROMIUM)) throw new Error(`apps-inspector-web: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`);
  install();
  const ports = { CLIENT_PORT: port(), MCP_SANDBOX_PORT: port(), MCP_APP_ORIGIN_PORT: port() };
  const env = { ...process.env, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])), MCP_AUTO_OPEN_ENABLED: "false", MCP_INSPECTOR_SECRET_STORE: "memory" };
  const web = spawn(NODE_22, [WEB, "--transport", "stdio", "--", server.command, ...server.args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const profile = mkdtempSync(join(tmpdir(), "mcp-wire-apps-chromium-"));
  let chromium: ChildProcess | undefined;
  let tools: DevTools | undefined;
  let browser: string | undefined;
  const close = async () => {
    tools?.close();
    // The profile is removed once Chromium has exited: until then it still writes there. Asked
    // to quit, it ends its helpers and itself; a signal after 5 s if it has not.
    await quitBrowser(browser);
    await Promise.all([stop(chromium, 5_000), stop(web)]);
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
  try {
    const page = await printed(web, /(http:\/\/127\.0\.0\.1:\d+\?MCP_INSPECTOR_API_TOKEN=[0-9a-f]+)/, "the Inspector's web client");
    chromium = spawn(CHROMIUM, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`, "--remote-debugging-port=0", "--window-size=1400,900", "about:blank"], { stdio: ["ignore", "ignore", "pipe"] });
    browser = await printed(chromium, /DevTools listening on (ws:\S+)/, "Chromium");
    const targets = (await (await fetch(new URL("/json/list", browser.replace(/^ws/, "http")))).json()) as Json[];
    tools = await DevTools.open(targets.find((target) => target.type === "page")!.webSocketDebuggerUrl);
    await tools.send("Page.navigate", { url: page });
    await tools.until(CONNECT, "the server's connect switch");
    await tools.until(CONNECTED, `the connection to ${server.command} ${server.args.join(" ")}`);
    await tools.until(click("label", "Apps"), "the Apps tab");
    const opened = tools;
    return {
      tools: opened,
      async screenshot(file) {
        const shot = await opened.send("Page.captureScreenshot", { format: "png" });
        writeFileSync(file, Buffer.from(shot.result.data, "base64"));
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

// What the steps do in the Inspector's page (its own markup, as of the pinned version).
export const click = (selector: string, text: string) =>
  `(() => { const e = [...document.querySelectorAll(${JSON.stringify(selector)})].find((e) => e.textContent.trim().startsWith(${JSON.stringify(text)})); if (!e || e.disabled) return null; e.click(); return true; })()`;
const CONNECT = `(() => { const s = document.querySelector('[role=switch]'); if (!s) return null; s.click(); return true; })()`;
const CONNECTED = `document.body.innerText.includes("Connected") && !document.body.innerText.includes("Disconnected") || null`;
