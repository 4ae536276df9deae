// The walkthrough's view of the wire: each connection it opens (the client's, the raw lines', the
// one to a server of the handshake era) prints every line that crosses it, with its note
// (walkthrough-notes.ts), and keeps it as a recording in the session form of src/recordings/recording.ts,
// marked with the step it crossed in. `npm start -- --record DIR` writes them; the walkthrough's test
// replays each against a live server, so no step can show a message the server would not send.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { decodeMessage, type JSONRPCMessage } from "./jsonrpc/messages.js";
import { noteTracker, type Direction } from "./walkthrough-notes.js";
import { quoteArgument, sessionLine, sessionNote } from "./recordings/recording.js";

const color = process.stdout.isTTY && !process.env.NO_COLOR;
export const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
/** Wire lines longer than this are shortened on screen (the full text still crosses the pipe). */
export const SHOWN_CHARS = 400;
/** How long a raw line may wait for its answer: the demo answers in milliseconds; this only stops a hang. */
const RAW_ANSWER_MS = 5000;

/** The step being played, shared by every connection of one side, so each line is filed under it. */
export interface StepMarker { current: string }

/** One connection's lines: printed as they cross, kept for --record. */
export class WireLog {
  readonly #note = noteTracker();
  readonly #lines: string[];
  readonly #step: StepMarker;
  #filedUnder = "";

  /** `command` is the server's command line, `labels` the two arrows (sent, received). */
  constructor(readonly name: string, command: string[], step: StepMarker, readonly labels = ["→ client → server", "← server → client"]) {
    this.#step = step;
    this.#lines = [`# The walkthrough (npm start): ${name}.`, "# transport: stdio", `# command: ${command.map(quoteArgument).join(" ")}`, "-- session --"];
  }

  show(direction: Direction, text: string, message: JSONRPCMessage | JSONRPCMessage[] | undefined): void {
    if (this.#filedUnder !== this.#step.current) this.#lines.push(sessionNote(`step ${(this.#filedUnder = this.#step.current)}`));
    this.#lines.push(sessionLine(direction === "client→server" ? "c2s" : "s2c", text));
    const sent = direction === "client→server";
    const arrow = sent ? paint("36", this.labels[0]!) : paint("35", this.labels[1]!);
    const shown = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} bytes in all)` : text;
    console.log(`${arrow}  ${shown}`);
    const note = message === undefined ? "not JSON: a line no JSON-RPC peer can read (here, a message cut short)." : this.#note(direction, message).note;
    console.log(paint("2", `   ${note}`));
  }

  /** Writes the recording to DIR/<name>.recording, if anything crossed. */
  write(directory: string): void {
    if (this.#lines.some((line) => /^[<>] /.test(line))) writeFileSync(join(directory, `${this.name}.recording`), `${this.#lines.join("\n")}\n`);
  }
}

/**
 * Lines written to a demo server exactly as they are, with no client in between: for what the
 * client API will not send (bytes that are not JSON, a malformed or unsupported envelope, a
 * capability left out). Its own server process.
 */
export class RawLines {
  readonly #command: string[];
  readonly #log: WireLog;
  #answers: string[] = [];
  #arrived = () => {};
  #child: ReturnType<typeof spawn> | undefined;

  constructor(command: string[], log: WireLog) {
    this.#command = command;
    this.#log = log;
  }

  /** Starts the server now, so that it is up by the first line (a Node process takes a few hundred ms). */
  start(): void {
    this.#child ??= this.#start();
  }

  /** Writes `line` and waits for the `answers` lines the server sends back (none for a notification). */
  async send(line: string, answers = 1): Promise<void> {
    const child = (this.#child ??= this.#start());
    this.#log.show("client→server", line, readable(line));
    child.stdin!.write(`${line}\n`);
    const deadline = Date.now() + RAW_ANSWER_MS;
    for (let shown = 0; shown < answers; shown++) {
      while (this.#answers.length === 0) {
        if (Date.now() > deadline) throw new Error(`raw lines: the server did not answer ${line.slice(0, 80)} within ${RAW_ANSWER_MS} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, deadline - Date.now() + 1);
          this.#arrived = () => (clearTimeout(timer), resolve());
        });
      }
      const answer = this.#answers.shift()!;
      this.#log.show("server→client", answer, readable(answer));
    }
  }

  /** Ends the server's input, as a host does, and waits for it to exit. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    child.stdin!.end();
    await once(child, "exit");
  }

  #start(): ReturnType<typeof spawn> {
    const [file, ...args] = this.#command as [string, ...string[]];
    const child = spawn(file, args, { stdio: ["pipe", "pipe", "ignore"] });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      this.#answers.push(line);
      this.#arrived();
    });
    return child;
  }
}

/** The message a line holds, or undefined when it holds none (not JSON, or not one message). */
function readable(text: string): JSONRPCMessage | undefined {
  const decoded = decodeMessage(text);
  return "message" in decoded ? decoded.message : undefined;
}
