// Every JSON example in PROTOCOL_NOTES.md and README.md is real output, and says where it comes from
// in an HTML comment on the line before its fence (the convention is PROTOCOL_NOTES.md's "Where the
// examples come from"):
//
//   <!-- example: demo; handshake 2025-11-25 -->   a session with the demo server, played here
//   <!-- example: conformance server; handshake 2025-11-25 -->  the same with scripts/conformance-server.ts
//   <!-- example: fixtures/transcripts/x.transcript -->  lines of a recording kept in the repository
//   <!-- example: host config; vscode -->           a host's configuration (scripts/host-config.ts names the
//                                                   hosts): each server it names answers initialize
//   <!-- example: mcp-wire diagram FILE -->        (a ```mermaid block) what `mcp-wire diagram FILE` draws
//
// A block with no tag fails, and so does one whose lines differ from what the server says.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { createConformanceServer } from "../../scripts/conformance-server.js";
import { createDemoServer, NOTES_URI } from "../../src/demo/server-definition.js";
import { StreamTransport } from "../../src/transports/stdio.js";
import { placeholders } from "../../src/recordings/directives.js";
import { parseRecording } from "../../src/recordings/recording.js";
import { entriesOf, hostsOfTag } from "../../scripts/host-config.js";
import { answersInitialize } from "../helpers/host-servers.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOCUMENTS = ["PROTOCOL_NOTES.md", "README.md"];

interface Example {
  where: string;
  tag: string | undefined;
  lines: string[];
}

/** Every ```json (or json-lines) block of a Markdown file, with the tag on the line before it. */
function examplesOf(document: string): Example[] {
  const lines = readFileSync(join(ROOT, document), "utf8").split("\n");
  const found: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```(json|jsonl|json-lines|jsonc|json5|mermaid)\s*$/.exec(lines[i]!)?.[1];
    if (!fence) continue;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === "") before--;
    const tag = /^\s*<!-- example: (.*?) -->\s*$/.exec(lines[before] ?? "")?.[1];
    // A diagram is checked when it says where it comes from; only JSON must.
    if (fence === "mermaid" && tag === undefined) continue;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!.trim());
    found.push({ where: `${document}:${i - body.length}`, tag, lines: body.filter((line) => line !== "") });
  }
  return found;
}

/** The server's methods (requests and notifications it sends); any other method is the client's. */
const SERVER_METHODS = new Set([
  "roots/list", "sampling/createMessage", "elicitation/create", "notifications/message", "notifications/progress",
  "notifications/resources/updated", "notifications/resources/list_changed", "notifications/tools/list_changed",
  "notifications/prompts/list_changed", "notifications/elicitation/complete", "notifications/subscriptions/acknowledged",
]);

/** Who sent each message: a response is the client's when it answers a request the server sent before it. */
function directions(messages: Record<string, unknown>[]): ("c2s" | "s2c")[] {
  const asked = new Set<unknown>();
  return messages.map((message) => {
    if (typeof message.method === "string") {
      if (!SERVER_METHODS.has(message.method)) return "c2s";
      if ("id" in message) asked.add(message.id);
      return "s2c";
    }
    if (asked.delete(message.id)) return "c2s";
    return "s2c";
  });
}

interface DemoSession {
  /** "handshake V": initialize and notifications/initialized at V come first, unshown; "initialize V": initialize only. */
  hidden?: { version: string; initialized: boolean };
  pageSize?: number;
  /** "then the notes change": once every request is answered, the notes file's watcher fires. */
  notesChange: boolean;
  placeholderLines: string[];
}

function readTag(tag: string): { source: string; session: DemoSession } {
  const [source, ...options] = tag.split(";").map((part) => part.trim());
  const session: DemoSession = { notesChange: false, placeholderLines: [] };
  for (const option of options) {
    const hidden = /^(handshake|initialize) (\S+)$/.exec(option);
    const pageSize = /^--page-size (\d+)$/.exec(option);
    if (hidden) session.hidden = { version: hidden[2]!, initialized: hidden[1] === "handshake" };
    else if (pageSize) session.pageSize = Number(pageSize[1]);
    else if (option === "then the notes change") session.notesChange = true;
    else if (option.startsWith("placeholder: ")) session.placeholderLines.push(`# ${option}`);
    else throw new Error(`unknown option in the example's tag: ${JSON.stringify(option)}`);
  }
  return { source: source!, session };
}

/** The hidden handshake's client declares every client capability, so the demo's asks reach it. */
const CAPABILITIES = { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } };

/** The servers a session can be played against: the demo (what `node dist/server.js` serves), and
 * the conformance suite's server (scripts/conformance-server.ts), which sends the content blocks the demo has no use for. */
const SERVERS = {
  demo: (session: DemoSession) => createDemoServer({ pageSize: session.pageSize }),
  "conformance server": () => createConformanceServer(),
};

/** Plays the block's client lines to a fresh server and returns what it wrote. */
async function play(source: keyof typeof SERVERS, session: DemoSession, messages: Record<string, unknown>[]): Promise<unknown[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = SERVERS[source](session);
  const connection = server.connect(new StreamTransport(input, output));
  const closed = new Promise<void>((resolve) => connection.onClose(() => setImmediate(resolve)));
  const received: Record<string, unknown>[] = [];
  let wake = () => {};
  let pending = "";
  output.on("data", (chunk: Buffer) => {
    const lines = (pending + chunk.toString("utf8")).split("\n");
    pending = lines.pop()!;
    for (const line of lines) received.push(JSON.parse(line));
    wake();
  });
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise<void>((resolve) => (wake = resolve));
  };
  const write = (message: unknown) => input.write(JSON.stringify(message) + "\n");

  if (session.hidden) {
    write({ jsonrpc: "2.0", id: "hidden-initialize", method: "initialize", params: { protocolVersion: session.hidden.version, capabilities: CAPABILITIES, clientInfo: { name: "doc-examples", version: "1.0.0" } } });
    await until(() => received.length === 1);
    received.length = 0;
    if (session.hidden.initialized) write({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
  const dirs = directions(messages);
  let serverLinesBefore = 0;
  for (const [i, message] of messages.entries()) {
    if (dirs[i] === "s2c") serverLinesBefore++;
    else {
      const shownSoFar = serverLinesBefore;
      await until(() => received.length >= shownSoFar);
      write(message);
    }
  }
  // A client ends its input once it has its answers (the demo's pending asks of the client fail when input ends).
  const requests = messages.filter((m, i) => dirs[i] === "c2s" && "method" in m && "id" in m).map((m) => m.id);
  await until(() => requests.every((id) => received.some((m) => !("method" in m) && m.id === id)));
  if (session.notesChange) server.resourceUpdated(NOTES_URI);
  input.end();
  await closed;
  return received;
}

/** Every value in a recording: its messages and everything inside them. */
function* valuesIn(node: unknown): Generator<unknown> {
  yield node;
  if (node && typeof node === "object") for (const value of Object.values(node)) yield* valuesIn(value);
}

for (const document of DOCUMENTS) {
  for (const example of examplesOf(document)) {
    test(`${example.where}: ${example.tag ?? "(untagged)"}`, { timeout: 20_000 }, async () => {
      assert.ok(example.tag !== undefined, `${example.where}: a JSON example needs a tag on the line before it, e.g. <!-- example: demo; handshake 2025-11-25 -->`);
      if (example.tag.startsWith("host config")) {
        for (const entry of entriesOf(hostsOfTag(example.tag), JSON.parse(example.lines.join("\n")))) await answersInitialize(entry);
        return;
      }
      const { source, session } = readTag(example.tag);
      const diagram = /^mcp-wire diagram (\S+)$/.exec(source)?.[1];
      if (diagram) {
        const drawn = execFileSync(process.execPath, [join(ROOT, "dist/cli.js"), "diagram", join(ROOT, diagram)], { encoding: "utf8" });
        assert.deepEqual(example.lines, drawn.split("\n").map((line) => line.trim()).filter((line) => line !== ""));
        return;
      }

      const messages = example.lines.map((line, i) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          throw new Error(`${example.where}: line ${i + 1} is not JSON: ${line}`);
        }
      });
      if (source === "demo" || source === "conformance server") {
        const header = parseRecording([...session.placeholderLines, "-- client --", "-- server --", ""].join("\n"), example.where);
        const normalize = placeholders(header, ROOT) ?? ((value: unknown) => value);
        const expected = messages.filter((_, i) => directions(messages)[i] === "s2c").map(normalize);
        assert.deepEqual((await play(source, session, messages)).map(normalize), expected);
        return;
      }
      // Recordings in the repository (their own tests check them against the real peer), one or
      // more, separated by spaces: each line is one of their messages, or a value inside one (a content block).
      const values = source.split(" ").flatMap((file) =>
        parseRecording(readFileSync(join(ROOT, file), "utf8"), file).entries.flatMap((entry) => [...valuesIn(entry.message)]));
      for (const [i, message] of messages.entries()) {
        assert.ok(values.some((value) => isDeepStrictEqual(value, message)), `${example.where}: line ${i + 1} is not in ${source}: ${example.lines[i]}`);
      }
    });
  }
}
