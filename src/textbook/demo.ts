// The demo, `node dist/textbook/demo.js`: four of the production demo's tools, the protocol notes
// whole and by section, two prompts (their words: demo-texts.ts), both generations on stdio.
import { readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { Connection } from "./connection.js";
import { RESOURCE_NOT_FOUND, RpcError, typeName, type Params } from "./wire.js";
import { invalid, Server, text, type Definition } from "./server.js";
import { modern } from "./modern.js";
import { instructions, NOTES, notes, prompts, section, serverInfo, tools } from "./demo-texts.js";

const readNotes = () => readFileSync(new URL("../../PROTOCOL_NOTES.md", import.meta.url), "utf8");
const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-")
  .replace(/^-|-$/g, ""); // "The stdio transport" -> the-stdio-transport
function sections(): { slug: string; title: string; text: string }[] { // at `## `, outside fences
  const found: { slug: string; title: string; text: string }[] = [];
  let fenced = false;
  for (const line of readNotes().split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const title = line.slice(3).trim();
    if (!fenced && line.startsWith("## ")) found.push({ slug: slug(title), title, text: "" });
    if (found.length > 0) found.at(-1)!.text += line + "\n";
  }
  return found.map((found) => ({ ...found, text: found.text.trimEnd() + "\n" }));
}
const markdown = (uri: string, text: string) => [{ uri, mimeType: "text/markdown", text }];
/** Definition.check, the few JSON Schema keywords of the demo's tools; src/schema/ has the rest. */
function check(schema: Params, args: Params): string[] {
  const rules = (schema.properties ?? {}) as Record<string, Params>;
  const problems = ((schema.required ?? []) as string[]).filter((key) => !Object.hasOwn(args, key))
    .map((key) => `missing required property ${JSON.stringify(key)}`);
  for (const [key, value] of Object.entries(args)) {
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined; // never Object.prototype's
    const { type, minimum = -Infinity, maximum = Infinity } = rule ?? {}, n = value as number;
    const got = typeName(value) === "integer" && type !== "integer" ? "number" : typeName(value);
    const extra = `must NOT have additional property ${JSON.stringify(key)}`;
    if (!rule && schema.additionalProperties === false) problems.push(extra);
    else if (rule && type !== got) problems.push(`${key}: must be ${type}, got ${got}`);
    else if (n < (minimum as number)) problems.push(`${key}: must be >= ${minimum}, got ${n}`);
    else if (n > (maximum as number)) problems.push(`${key}: must be <= ${maximum}, got ${n}`);
  }
  return problems;
}
const steps = (n: number) => `${n} step${n === 1 ? "" : "s"}`;

export const demo: Definition = { serverInfo, instructions, tools: [
  { ...tools.echo, run: ({ text: said }, context) => {
    context.log("debug", `echo: repeating ${(said as string).length} characters`, "echo");
    return { content: [text(`echo: ${said}`)] };
  } },
  { ...tools.add, run: ({ a, b }) => {
    const sum = (a as number) + (b as number); // JSON has no Infinity: that sum is the tool's error
    const overflow = `add: the sum of ${a} and ${b} is not a finite number`;
    if (!Number.isFinite(sum)) return { content: [text(overflow)], isError: true };
    // [S]/tools#structured-content: with its JSON as text too, for clients that read only text.
    return { content: [text(JSON.stringify({ sum }))], structuredContent: { sum } };
  } },
  { ...tools.get_time, run: () => ({ content: [text(new Date().toISOString())] }) },
  { ...tools.countdown, run: async ({ steps: count, intervalMs: ms = 100 }, context) => {
    context.log("info", `countdown: starting, ${steps(count as number)} of ${ms} ms`, "countdown");
    for (let done = 1, left = count as number - 1; left >= 0; done++, left--) {
      await delay(ms as number, undefined, { signal: context.signal }); // cancelled: no answer
      context.log("debug", `countdown: ${left} to go`, "countdown");
      context.progress(done, count as number, `${left} to go`);
    }
    return { content: [text(`countdown: done after ${steps(count as number)}`)] };
  } }],
check, resources: [notes], resourceTemplates: [section], read: (uri) => { // undefined: none there
  if (uri === NOTES) return markdown(NOTES, readNotes());
  const name = uri.startsWith(`${NOTES}/`) ? uri.slice(NOTES.length + 1) : undefined;
  const found = sections().find((section) => section.slug === name);
  if (found || name === undefined) return found && markdown(uri, found.text);
  const missing = `resources/read: the notes have no section ${JSON.stringify(name)}`;
  throw new RpcError(RESOURCE_NOT_FOUND, missing, { uri });
},
prompts: [{ ...prompts.explain_topic, get: ({ topic, audience = "beginner" }) => {
  const found = sections().find((section) => section.slug === topic);
  const none = `names no section of the notes: ${JSON.stringify(topic)}`;
  if (!found) throw invalid("prompts/get", "arguments.topic", none);
  const ask = `Explain the "${found.title}" part of the Model Context Protocol at ${audience} ` +
    "level, using the notes below.", resource = markdown(`${NOTES}/${found.slug}`, found.text)[0];
  return { description: `Explain "${found.title}" at ${audience} level`, messages: [ // [S]/prompts
    { role: "user", content: text(ask) },
    { role: "user", content: { type: "resource", resource } }] }; // [S]/prompts#embedded-resources
} }, { ...prompts.review_message, get: ({ message, version = "2025-11-25" }) => ({
  description: "Review one MCP message", messages: [{ role: "user", content: text("Here is an " +
    `MCP message sent under protocol version ${version}:\n${message}\nIs it valid? Name each ` +
    "field, what it means, and any rule it breaks.") }] }) }] };

if (process.argv[1] === fileURLToPath(import.meta.url)) { // run, not imported
  const server = new Server(demo);
  new Connection(process.stdin, process.stdout, modern(server), server.hear);
}
