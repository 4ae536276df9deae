// How mcp-wire answers a server that asks the user (elicitation/create). At a terminal it asks the
// person: each field of a form, checked and asked again until it fits (cli/form-fields.ts), or
// consent to open a URL. Anywhere else there is no one to ask, so it declines, and says so on stderr.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation (form and URL
// mode; accept, decline, cancel). The CLI never opens a URL itself: it shows it in full and asks.

import { createInterface, type Interface } from "node:readline";
import type { ClientHandlers } from "../client/handlers.js";
import type { ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult } from "../mcp/elicitation.js";
import { Palette } from "./colour.js";
import { fieldPrompt, parseFieldAnswer, type FieldValue } from "./form-fields.js";
import { terminalSafe } from "./output.js";

export interface Asking {
  /** Where answers are typed: stdin. */
  input: NodeJS.ReadableStream;
  /** Where questions go: stderr, since stdout carries the result alone. */
  output: { write(text: string): unknown };
  /** Whether a person is there to ask: stdin and stderr are both terminals. */
  terminal: boolean;
  /** Writes one line on stderr (the session's, which escapes and redacts it). */
  say: (line: string) => void;
  /** Called before a question is written: the session takes its progress bar off the line. */
  beforeQuestion?: () => void;
  palette?: Palette;
  /** The server's name, as its serverInfo gave it. */
  serverName?: () => string | undefined;
  /** Applied to all that is written, server text included: the session's Redactor, so no secret is shown. */
  redact?: (text: string) => string;
}

type Elicitation = NonNullable<ClientHandlers["elicitation"]>;

/** Long enough to know what was asked, short enough for one line on stderr. */
const QUOTED_CHARS = 200;

export function terminalElicitation(asking: Asking): Elicitation {
  // A server may ask twice at once (two calls, or two in one 2026-07-28 round): one question at a time.
  let previous: Promise<unknown> = Promise.resolve();
  const oneAtATime = (ask: () => Promise<ElicitResult>): Promise<ElicitResult> => {
    const next = previous.then(ask);
    previous = next.catch(() => undefined);
    return next;
  };
  const notHere = (asked: string): ElicitResult => {
    asking.say(`mcp-wire: elicitation declined: the server asked ${asked}, but this is not a terminal (stdin and stderr must both be one), so no one can answer (run mcp-wire on a terminal to answer)`);
    return { action: "decline" };
  };
  return {
    form: (params, { signal }) =>
      asking.terminal ? oneAtATime(() => askForm(asking, params, signal)) : notHere(quoted(params.message)),
    url: (params, { signal }) =>
      asking.terminal ? oneAtATime(() => askUrl(asking, params, signal)) : notHere(`to open ${params.url} (${quoted(params.message)})`),
  };
}

async function askForm(asking: Asking, params: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult> {
  return withQuestions(asking, signal, async (ask) => {
    const palette = asking.palette ?? new Palette(false);
    show(asking, `${palette.heading(`${asker(asking)} asks: ${terminalSafe(params.message)}`)}\n`);
    show(asking, palette.dim("(Enter keeps the [default] or skips a field; Enter on a required (*) field declines; Ctrl-D cancels)") + "\n");
    let content: Content = {};
    for (;;) {
      const filled = await fillIn(asking, ask, params, content);
      if ("ended" in filled) return filled.ended;
      content = filled.content;
      // Spec (client/elicitation#user-interaction-model): form mode MUST let users review and modify their answers before they are sent.
      const fields = params.requestedSchema.properties;
      const summary = Object.entries(content).map(([name, value]) => `  ${terminalSafe(fields[name]?.title ?? name)}: ${terminalSafe(JSON.stringify(value))}`);
      show(asking, `${summary.length === 0 ? "  (no answers)" : summary.join("\n")}\n`);
      const choice = await choose(ask, "Send these answers (y), answer again (e), or decline (n)? [y] ", { y: "accept", yes: "accept", "": "accept", e: "edit", n: "decline", no: "decline" });
      if (choice === "edit") continue;
      return choice === "accept" ? { action: "accept", content } : { action: choice };
    }
  });
}

type Content = { [name: string]: FieldValue };

/** Asks each field once more, `previous` answers as their defaults: the answers, or how the person ended the form. */
async function fillIn(asking: Asking, ask: Ask, params: ElicitRequestFormParams, previous: Content): Promise<{ content: Content } | { ended: ElicitResult }> {
  const { properties, required = [] } = params.requestedSchema;
  const palette = asking.palette ?? new Palette(false);
  const content: Content = {};
  for (const [name, field] of Object.entries(properties)) {
    const isRequired = required.includes(name);
    const fallback = previous[name] ?? field.default;
    for (;;) {
      const line = await ask(fieldPrompt(name, field, isRequired, fallback));
      // Spec (client/elicitation#response-actions): dismissed without a choice is cancel; said no is decline.
      if (line === undefined) return { ended: { action: "cancel" } };
      const text = line.trim();
      if (text === "") {
        if (fallback !== undefined) content[name] = fallback;
        else if (isRequired) return { ended: { action: "decline" } };
        break;
      }
      const answer = parseFieldAnswer(field, text);
      if ("value" in answer) {
        content[name] = answer.value;
        break;
      }
      show(asking, palette.dim(`  ! ${answer.problem}`) + "\n");
    }
  }
  return { content };
}

async function askUrl(asking: Asking, params: ElicitRequestURLParams, signal: AbortSignal): Promise<ElicitResult> {
  return withQuestions(asking, signal, async (ask) => {
    const palette = asking.palette ?? new Palette(false);
    // Spec (client/elicitation#safe-url-handling): the full URL shown, its host apart, and opened only with consent (by the person: mcp-wire opens nothing).
    show(asking, `${palette.heading(`${asker(asking)} asks you to open a page: ${terminalSafe(params.message)}`)}\n  ${terminalSafe(params.url)}\n  (on ${terminalSafe(hostOf(params.url))})\n`);
    const choice = await choose(ask, "Will you open it (y), or decline (n)? [n] ", { y: "accept", yes: "accept", n: "decline", no: "decline", "": "decline" });
    return { action: choice };
  });
}

/** Asks until the answer is one of `choices` (in any case); Ctrl-D is cancel. */
async function choose<T extends string>(ask: Ask, prompt: string, choices: { [answer: string]: T }): Promise<T | "cancel"> {
  for (;;) {
    const line = await ask(prompt);
    if (line === undefined) return "cancel";
    const answer = line.trim().toLowerCase();
    if (Object.hasOwn(choices, answer)) return choices[answer]!;
  }
}

/** Who asks: the server by the name it gave, so that the person knows (client/elicitation#user-interaction-model). */
function asker(asking: Asking): string {
  const name = asking.serverName?.();
  return name === undefined ? "mcp-wire: the server" : `mcp-wire: the server ${terminalSafe(JSON.stringify(name))}`;
}

/** The URL's host, and a warning for a Punycode one, which can pass for another (client/elicitation#safe-url-handling). */
function hostOf(url: string): string {
  try {
    const host = new URL(url).host;
    if (host === "") return url;
    return /(^|\.)xn--/i.test(host) ? `${host}: a Punycode name, which can look like another; check it is the site you expect` : host;
  } catch {
    return "not a URL it can read";
  }
}

/** Ask a question, get the line typed (undefined: Ctrl-D, or the server gave up). */
type Ask = (prompt: string) => Promise<string | undefined>;

/**
 * Runs `questions` with a line reader on the input, closed at the end so that stdin no longer holds
 * the process open; the server's signal closes it early, which answers the open question with undefined.
 */
async function withQuestions(asking: Asking, signal: AbortSignal, questions: (ask: Ask) => Promise<ElicitResult>): Promise<ElicitResult> {
  if (signal.aborted) return { action: "cancel" };
  // readline edits the line itself (and echoes it) only on a real terminal; a stand-in just gives lines.
  const terminal = typeof (asking.input as { setRawMode?: unknown }).setRawMode === "function";
  const reader = createInterface({ input: asking.input, output: asking.output as NodeJS.WritableStream, terminal });
  const lines = new LineQueue(reader);
  // Ctrl-C at a question stops mcp-wire, as anywhere else (the session's handler stops the server),
  // rather than answering it: readline in raw mode would otherwise swallow it.
  reader.on("SIGINT", () => process.kill(process.pid, "SIGINT"));
  const stop = (): void => void reader.close();
  signal.addEventListener("abort", stop, { once: true });
  try {
    return await questions((prompt) => {
      asking.beforeQuestion?.();
      // A prompt of several lines: the last is readline's, so that its redraw of the line keeps it.
      const cut = prompt.lastIndexOf("\n") + 1;
      if (cut > 0) show(asking, prompt.slice(0, cut));
      reader.setPrompt(asking.redact?.(prompt.slice(cut)) ?? prompt.slice(cut));
      reader.prompt();
      // Ctrl-D leaves the cursor after the prompt: what is written next starts a line of its own.
      return lines.next().then((line) => (line === undefined && terminal && asking.output.write("\n"), line));
    });
  } finally {
    signal.removeEventListener("abort", stop);
    reader.close();
  }
}

/** The lines a reader gives, one per next(), kept when typed ahead of the question; undefined once it closed. */
class LineQueue {
  readonly #lines: string[] = [];
  #closed = false;
  #waiting: ((line: string | undefined) => void) | undefined;

  constructor(reader: Interface) {
    reader.on("line", (line: string) => {
      if (this.#waiting) this.#take(line);
      else this.#lines.push(line);
    });
    reader.on("close", () => {
      this.#closed = true;
      this.#take(undefined);
    });
  }

  next(): Promise<string | undefined> {
    if (this.#lines.length > 0) return Promise.resolve(this.#lines.shift());
    if (this.#closed) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  #take(line: string | undefined): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(line);
  }
}

function show(asking: Asking, text: string): void {
  asking.output.write(asking.redact?.(text) ?? text);
}

function quoted(message: string): string {
  return JSON.stringify(message.length > QUOTED_CHARS ? `${message.slice(0, QUOTED_CHARS)}…` : message);
}
