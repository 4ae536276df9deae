// mcp-wire answers elicitation/create: on a terminal by asking the person for each field of the
// form (checked, asked again when wrong), or for consent to open a URL; otherwise by declining, with
// a line on stderr saying why. Streams are injected: a PassThrough stands in for the terminal.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
// Run `npm run build` first: the program test needs dist/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { McpClient } from "../../src/client/client.js";
import { terminalElicitation } from "../../src/cli/elicitation.js";
import { ExitCode } from "../../src/cli/output.js";
import { createDemoServer } from "../../src/demo/server-definition.js";
import type { ElicitRequestFormParams } from "../../src/mcp/elicitation.js";
import { createMemoryPair } from "../../src/protocol/transport.js";
import { DEMO, parsedOutput, runCli } from "./program.js";

const signal = new AbortController().signal;

/** A person at a terminal who types `lines` (then Ctrl-D, when `end`); what the CLI wrote, and said. */
function person(lines: string[], { terminal = true, end = true, redact = (text: string) => text, serverName = (): string | undefined => undefined } = {}) {
  const input = new PassThrough();
  for (const line of lines) input.write(`${line}\n`);
  if (end) input.end();
  const output = { text: "", write(text: string) { this.text += text; return true; } };
  const said: string[] = [];
  const elicitation = terminalElicitation({ input, output, terminal, say: (line) => said.push(line), redact, serverName });
  return { elicitation, output, said };
}

const FORM: ElicitRequestFormParams = {
  message: "Tell us about you.",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", description: "How you would like to be greeted.", minLength: 1, maxLength: 10 },
      age: { type: "integer", title: "Age", minimum: 0, maximum: 150 },
      colour: { type: "string", title: "Colour", oneOf: [{ const: "r", title: "Red" }, { const: "g", title: "Green" }] },
      size: { type: "string", enum: ["s", "m", "l"], default: "m" },
      subscribe: { type: "boolean", title: "Subscribe" },
      tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, maxItems: 2 },
      email: { type: "string", format: "email" },
    },
    required: ["name", "age", "colour"],
  },
};

test("elicitation, a terminal: each field asked with its title and description, wrong answers asked again", async () => {
  const { elicitation, output } = person(["Ada", "thirty", "200", "36.5", "36", "Blue", "2", "", "maybe", "yes", "a, b, c", "a,b", "not-an-email", "", ""]);
  const result = await elicitation.form!(FORM, { signal });
  assert.deepEqual(result, { action: "accept", content: { name: "Ada", age: 36, colour: "g", size: "m", subscribe: true, tags: ["a", "b"] } });
  assert.match(output.text, /Tell us about you\./);
  assert.match(output.text, /Name \* \(How you would like to be greeted\.\)/);
  assert.match(output.text, /1\) Red\s+2\) Green/);
  assert.match(output.text, /size \[m\]/);
  // The stand-in does not echo what is typed, so a problem follows its prompt on the same line.
  const problems = output.text.match(/ {2}! /g) ?? [];
  assert.equal(problems.length, 7, output.text); // thirty, 200, 36.5, Blue, maybe, "a, b, c" (too many), not-an-email
});

test("elicitation, a terminal: the answers are shown for review before they are sent: e answers again (the last answers kept by Enter), n declines", async () => {
  const form: ElicitRequestFormParams = { message: "m", requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" }, age: { type: "integer" } }, required: ["name"] } };
  const again = person(["Ada", "36", "e", "", "37", "y"], { serverName: () => "demo" });
  assert.deepEqual(await again.elicitation.form!(form, { signal }), { action: "accept", content: { name: "Ada", age: 37 } });
  assert.match(again.output.text, /^mcp-wire: the server "demo" asks: m$/m);
  assert.match(again.output.text, / {2}Name: "Ada"\n {2}age: 36\n/);
  assert.match(again.output.text, /Name \* \[Ada\]: age \[36\]: /, "the second round offers the first answers");
  assert.deepEqual(await person(["Ada", "", "n"]).elicitation.form!(form, { signal }), { action: "decline" });
  assert.deepEqual(await person(["Ada", ""]).elicitation.form!(form, { signal }), { action: "cancel" });
});

test("elicitation, a terminal: Enter on a required field declines, Ctrl-D cancels", async () => {
  assert.deepEqual(await person([""]).elicitation.form!(FORM, { signal }), { action: "decline" });
  assert.deepEqual(await person(["Ada"]).elicitation.form!(FORM, { signal }), { action: "cancel" });
});

test("elicitation, a terminal: a string's pattern is checked; a pattern that is not a regular expression checks nothing", async () => {
  const form = (pattern: string): ElicitRequestFormParams => ({ message: "m", requestedSchema: { type: "object", properties: { code: { type: "string", pattern } as never } } });
  const { elicitation, output } = person(["ab1", "AB", "y"]);
  assert.deepEqual(await elicitation.form!(form("^[A-Z]+$"), { signal }), { action: "accept", content: { code: "AB" } });
  assert.match(output.text, /! not in the form the server asks for/);
  assert.deepEqual(await person(["ab1", "y"]).elicitation.form!(form("(["), { signal }), { action: "accept", content: { code: "ab1" } });
});

test("elicitation, a terminal: an optional field left empty is left out", async () => {
  const form: ElicitRequestFormParams = { message: "m", requestedSchema: { type: "object", properties: { note: { type: "string" }, n: { type: "number" } } } };
  assert.deepEqual(await person(["", "2.5", "y"]).elicitation.form!(form, { signal }), { action: "accept", content: { n: 2.5 } });
});

test("elicitation, a terminal: a server's text cannot write control characters", async () => {
  const hostile = "\u001b[2J\u009b31m\rgone\u0007";
  const form: ElicitRequestFormParams = { message: hostile, requestedSchema: { type: "object", properties: { [hostile]: { type: "string", title: hostile, description: hostile, default: hostile } } } };
  const { elicitation, output } = person([""]);
  await elicitation.form!(form, { signal });
  assert.doesNotMatch(output.text.replace(/\u001b\[[0-9;]*m/g, ""), /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, JSON.stringify(output.text));
});

test("elicitation, a terminal: all it writes passes the session's redactor", async () => {
  const secret = "s3cret";
  const form: ElicitRequestFormParams = { message: `token ${secret}`, requestedSchema: { type: "object", properties: { a: { type: "string", title: secret, description: secret } } } };
  const { elicitation, output } = person(["x", "y"], { redact: (text) => text.replaceAll(secret, "[redacted]") });
  assert.deepEqual(await elicitation.form!(form, { signal }), { action: "accept", content: { a: "x" } });
  assert.ok(!output.text.includes(secret) && output.text.includes("[redacted]"), output.text);
});

test("elicitation, not a terminal: declined without reading, and stderr says why and what to do", async () => {
  const { elicitation, output, said } = person(["Ada"], { terminal: false });
  assert.deepEqual(await elicitation.form!(FORM, { signal }), { action: "decline" });
  assert.equal(output.text, "");
  assert.equal(said.length, 1);
  assert.match(said[0]!, /^mcp-wire: elicitation declined: the server asked "Tell us about you\."/);
  assert.match(said[0]!, /not a terminal.*run mcp-wire on a terminal to answer/);
  const url = { mode: "url" as const, message: "Sign in", elicitationId: "e1", url: "https://example.com/x" };
  assert.deepEqual(await elicitation.url!(url, { signal }), { action: "decline" });
  assert.match(said[1]!, /https:\/\/example\.com\/x.*not a terminal/);
});

test("elicitation, URL mode on a terminal: the URL shown, consent asked: y accepts, n or Enter declines, Ctrl-D cancels", async () => {
  const url = { mode: "url" as const, message: "Sign in to the bank.", elicitationId: "e1", url: "https://example.com/x" };
  const yes = person(["what", "y"]);
  assert.deepEqual(await yes.elicitation.url!(url, { signal }), { action: "accept" });
  assert.match(yes.output.text, /Sign in to the bank\.\n {2}https:\/\/example\.com\/x\n {2}\(on example\.com\)\n/);
  assert.deepEqual(await person(["n"]).elicitation.url!(url, { signal }), { action: "decline" });
  const punycode = person(["n"]);
  await punycode.elicitation.url!({ ...url, url: "https://xn--pple-43d.com/login" }, { signal });
  assert.match(punycode.output.text, /\(on xn--pple-43d\.com: a Punycode name/);
  assert.deepEqual(await person([""]).elicitation.url!(url, { signal }), { action: "decline" });
  assert.deepEqual(await person([]).elicitation.url!(url, { signal }), { action: "cancel" });
});

test("elicitation, a terminal: the server giving up stops the questions", async () => {
  const controller = new AbortController();
  const { elicitation } = person([], { end: false });
  const answer = elicitation.form!(FORM, { signal: controller.signal });
  controller.abort();
  assert.deepEqual(await answer, { action: "cancel" });
});

for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
  test(`elicitation: the demo's greet, answered at a terminal (${protocolVersion})`, async () => {
    const [clientEnd, serverEnd] = createMemoryPair();
    createDemoServer().connect(serverEnd);
    const { elicitation } = person(["Ada", ""]);
    const client = new McpClient({ name: "t", version: "1" }, { protocolVersion, elicitation });
    await client.connect(clientEnd);
    try {
      assert.deepEqual((await client.callTool("greet")).content, [{ type: "text", text: "Hello, Ada!" }]);
    } finally {
      await client.close();
    }
  });
}

test("cli program: greet with stdin not a terminal is declined, stderr says why, stdout is the tool's result", async () => {
  const result = await runCli(["call", "greet", "--quiet", ...DEMO]);
  const output = parsedOutput(result, ExitCode.ok);
  assert.deepEqual(output.content, [{ type: "text", text: "greet: the user declined to give a name, so there is no greeting" }]);
  assert.match(result.stderr, /^mcp-wire: elicitation declined: the server asked "What is your name\?/m);
});
