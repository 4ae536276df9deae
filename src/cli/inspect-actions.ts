// What the page of `mcp-wire inspect` can ask for (POST .../api, a JSON object with an `action`),
// each run through our own client, and the server's questions the page answers (elicitation,
// sampling). The page is ours, but its body is checked here all the same: it is where the page's
// JSON becomes typed.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools, server/resources,
// server/prompts, server/utilities/completion, server/utilities/logging, basic/utilities/cancellation,
// client/elicitation, client/sampling

import { pathToFileURL } from "node:url";
import type { McpClient } from "../client/client.js";
import type { ClientHandlers } from "../client/handlers.js";
import { ErrorCode, isObject, RpcError } from "../jsonrpc/messages.js";
import type { CreateMessageResult } from "../mcp/client-features.js";
import type { ElicitResult } from "../mcp/elicitation.js";
import type { AppRequests } from "./inspect-apps.js";
import { INSPECT_LIMITS, type InspectSession } from "./inspect-session.js";
import { LOGGING_LEVELS } from "./vocabulary.js";

/** Calls running at once; a page cannot start more (each holds an abort controller and an open POST). */
const MAX_RUNNING_CALLS = 32;

export class PageActions {
  readonly #calls = new Map<string, AbortController>();
  readonly #questions = new Map<number, (answer: unknown) => void>();
  #questionSeq = 0;

  /** @param client resolves once the client is connected: an action sent sooner waits for that. */
  constructor(private readonly client: () => Promise<McpClient>, private readonly session: InspectSession, private readonly stop: () => void,
    private readonly apps: AppRequests) {}

  /** One action's answer: `{ ok: true, result }`, or `{ ok: false, error }` for anything that failed. */
  async run(body: unknown): Promise<{ ok: boolean; result?: unknown; error?: string; code?: number }> {
    try {
      return { ok: true, result: await this.#run(isObject(body) ? body : {}) };
    } catch (error) {
      const code = error instanceof RpcError ? error.code : undefined;
      return { ok: false, error: error instanceof Error ? error.message : String(error), ...(code === undefined ? {} : { code }) };
    }
  }

  async #run(body: { [key: string]: unknown }): Promise<unknown> {
    if (body.action === "answer") return this.#answer(body);
    const client = await this.client();
    switch (body.action) {
      case "tools": {
        const tools = await client.listAllTools();
        this.apps.remember(tools);
        return { tools };
      }
      case "call": return this.#call(client, text(body, "name"), objectOf(body, "arguments"), text(body, "callId"));
      case "cancel": {
        this.#calls.get(text(body, "callId"))?.abort(new Error("cancelled from the page"));
        return {};
      }
      // MCP Apps: a tool's view read for the page, and a view's request sent on (cli/inspect-apps.ts).
      case "view": return this.apps.open(client, text(body, "uri"), text(body, "origin"));
      case "app": return this.apps.proxy(client, body.method, body.params);
      case "resources": return { resources: await client.listAllResources() };
      case "templates": return { resourceTemplates: await client.listAllResourceTemplates() };
      case "read": return client.readResource(text(body, "uri"));
      case "prompts": return { prompts: await client.listAllPrompts() };
      case "get": return client.getPrompt(text(body, "name"), stringsOf(body, "arguments"));
      case "complete": {
        const ref = objectOf(body, "ref");
        const argument = { name: text(body, "argument"), value: text(body, "value") };
        // Spec (server/utilities/completion, since 2025-06-18): the values already chosen for the other variables.
        const chosen = stringsOf(objectOf(body, "context") ?? {}, "arguments");
        const context = chosen === undefined || Object.keys(chosen).length === 0 ? {} : { context: { arguments: chosen } };
        if (ref?.type === "ref/prompt") return client.complete({ ref: { type: "ref/prompt", name: String(ref.name) }, argument, ...context });
        return client.complete({ ref: { type: "ref/resource", uri: String(ref?.uri) }, argument, ...context });
      }
      case "setLevel": {
        const asked = text(body, "level");
        const level = LOGGING_LEVELS.find((known) => known === asked);
        if (level === undefined) throw new Error(`no logging level ${JSON.stringify(asked)}`);
        await client.setLoggingLevel(level);
        return {};
      }
      case "ping": return (await client.ping(), {});
      case "save": return { recording: this.session.recordingText() };
      case "close":
        // Answered first: the page hears that it worked before the server goes.
        setImmediate(this.stop);
        return {};
      default: throw new Error(`no action ${JSON.stringify(body.action)}`);
    }
  }

  async #call(client: McpClient, name: string, args: { [key: string]: unknown } | undefined, callId: string): Promise<unknown> {
    if (this.#calls.size >= MAX_RUNNING_CALLS) throw new Error(`${MAX_RUNNING_CALLS} calls are running already: wait for one, or cancel one`);
    const controller = new AbortController();
    this.#calls.set(callId, controller);
    try {
      return await client.callTool(name, args, {
        signal: controller.signal,
        onProgress: (progress) => this.session.push({ type: "progress", callId, ...progress }),
      });
    } finally {
      this.#calls.delete(callId);
    }
  }

  /** The client's answers to the server's questions: each is put to the page, which answers with `answer`. */
  handlers(): ClientHandlers {
    return {
      // Spec (client/roots): the roots a client offers are its to choose; inspect offers the directory it runs in.
      roots: () => [{ uri: pathToFileURL(`${process.cwd()}/`).href, name: "the directory mcp-wire inspect runs in" }],
      elicitation: {
        form: async (params, { signal }) => elicitResult(await this.#ask("elicitation", params, signal)),
        url: async (params, { signal }) => elicitResult(await this.#ask("elicitation", params, signal)),
      },
      sampling: async (params, { signal }) => samplingResult(await this.#ask("sampling", params, signal)),
    };
  }

  async #ask(kind: "elicitation" | "sampling", params: object, signal: AbortSignal): Promise<unknown> {
    if (this.#questions.size >= INSPECT_LIMITS.openQuestions) return { action: "decline", decline: true };
    const id = ++this.#questionSeq;
    const answered = new Promise<unknown>((resolve) => this.#questions.set(id, resolve));
    this.session.push({ type: "question", id, kind, params });
    // The server cancelled its request (or the session ended): the form goes from the page.
    const gone = new Promise<unknown>((resolve) => signal.addEventListener("abort", () => resolve({ action: "cancel", decline: true }), { once: true }));
    try {
      return await Promise.race([answered, gone]);
    } finally {
      this.#questions.delete(id);
      this.session.push({ type: "question-done", id });
    }
  }

  #answer(body: { [key: string]: unknown }): unknown {
    const id = body.id;
    const resolve = typeof id === "number" ? this.#questions.get(id) : undefined;
    if (resolve === undefined) throw new Error("that question is no longer open");
    resolve(body.answer);
    return {};
  }
}

/** The page's answer to a form, as the spec's result: accept (with content), decline or cancel. */
function elicitResult(answer: unknown): ElicitResult {
  const given = isObject(answer) ? answer : {};
  if (given.action === "accept") {
    const content: { [key: string]: string | number | boolean | string[] } = {};
    for (const [key, value] of Object.entries(isObject(given.content) ? given.content : {})) {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") content[key] = value;
      else if (Array.isArray(value) && value.every((item) => typeof item === "string")) content[key] = value;
    }
    return { action: "accept", content };
  }
  return { action: given.action === "cancel" ? "cancel" : "decline" };
}

/**
 * Sampling answered by hand: the person writes the reply the model would have. Declined, it is the
 * error the spec's example gives for a user who rejects the request (client/sampling#error-handling).
 */
function samplingResult(answer: unknown): CreateMessageResult {
  const given = isObject(answer) ? answer : {};
  if (given.decline !== false || typeof given.text !== "string") throw new RpcError(-1, "User rejected sampling request (declined in mcp-wire inspect)");
  return { role: "assistant", content: { type: "text", text: given.text }, model: "a person, through mcp-wire inspect", stopReason: "endTurn" };
}

function text(body: { [key: string]: unknown }, key: string): string {
  const value = body[key];
  if (typeof value !== "string") throw new RpcError(ErrorCode.InvalidParams, `the action needs ${key} (a string)`);
  return value;
}

function objectOf(body: { [key: string]: unknown }, key: string): { [key: string]: unknown } | undefined {
  const value = body[key];
  return isObject(value) ? value : undefined;
}

function stringsOf(body: { [key: string]: unknown }, key: string): Record<string, string> | undefined {
  const value = objectOf(body, key);
  if (value === undefined) return undefined;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, String(item)]));
}
