// Handlers typed from what they are registered with (src/server/typed-handlers.ts): a tool's
// arguments and structuredContent from its schemas, a prompt's arguments from its `arguments`, a
// template's variables from its text. typeCases() is checked by `tsc -p test/tsconfig.json`
// (npm test runs it) and never run: each @ts-expect-error line is a mistake the compiler must
// refuse, and fails the build if it ever compiles. The tests below it run the same shapes end to end.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "../../src/mcp/tools.js";
import type { Prompt } from "../../src/mcp/prompts.js";
import { McpServer, text } from "../../src/server/definition.js";
import { connected, exact } from "../helpers/typed-handlers.js";
import type { TemplateVariables } from "../../src/server/typed-handlers.js";
import { UriTemplate } from "../../src/schema/uri-template.js";

const FORECAST_INPUT = {
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 7 }, unit: { enum: ["c", "f"] } },
  required: ["city"],
} as const;

function forecastServer(): McpServer {
  const server = new McpServer({ name: "weather", version: "1" });
  server.tool(
    {
      name: "forecast",
      inputSchema: FORECAST_INPUT,
      // No `as const` here: tool()'s const type parameter keeps the literal.
      outputSchema: { type: "object", properties: { city: { type: "string" }, highs: { type: "array", items: { type: "number" } } }, required: ["city", "highs"] },
    },
    ({ city, days = 1, unit }) => {
      const highs = Array.from({ length: days }, (_, day) => (unit === "f" ? 50 : 10) + day);
      return { content: [text(`${city}: ${highs.join(", ")}`)], structuredContent: { city, highs } };
    },
  );
  server.prompt(
    {
      name: "explain",
      arguments: [
        { name: "topic", required: true },
        { name: "audience", required: false },
      ],
    },
    ({ topic, audience }) => ({ messages: [{ role: "user", content: text(`${topic} for ${audience ?? "anyone"}`) }] }),
    { topic: (value) => ["lifecycle", "tools"].filter((topic) => topic.startsWith(value)) },
  );
  server.resourceTemplate({ name: "files", uriTemplate: "files://{city}{/segments*}{?q,lang}" }, (uri, variables) => [{ uri, text: JSON.stringify(variables) }]);
  return server;
}

export function typeCases(server: McpServer): void {
  server.tool({ name: "city", inputSchema: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] } }, (args) => {
    exact<typeof args, { city: string; days?: number }>(true);
    return { content: [] };
  });
  server.tool(
    { name: "misspelled", inputSchema: FORECAST_INPUT },
    // @ts-expect-error -- misspelled argument: the schema names `city`, not `cty`
    ({ cty }) => ({ content: [text(String(cty))] }),
  );
  server.tool({ name: "wrong-type", inputSchema: FORECAST_INPUT }, ({ city, unit }) => {
    // @ts-expect-error -- wrong type: city is a string
    const count: number = city;
    // @ts-expect-error -- unit is "c" | "f" | undefined
    const kelvin: "k" | undefined = unit;
    return { content: [text(`${count}${kelvin}`)] };
  });
  server.tool({ name: "wrong-output", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] } }, () => ({
    content: [],
    // @ts-expect-error -- wrong structuredContent shape: sum is a number
    structuredContent: { sum: "3" },
  }));
  server.tool({ name: "misspelled-output", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] } }, () => ({
    content: [],
    // @ts-expect-error -- wrong structuredContent shape: `sum` is required, `total` unknown
    structuredContent: { total: 3 },
  }));

  // Icons, annotations and _meta written inline are kept as they are, arrays and all.
  server.tool({ name: "decorated", icons: [{ src: "https://x/i.png", sizes: ["48x48"] }], annotations: { readOnlyHint: true }, _meta: { tags: ["a"] }, inputSchema: { type: "object", properties: { a: { type: "string" } } } }, (args) => {
    exact<typeof args, { a?: string }>(true);
    return { content: [] };
  });

  // A definition the compiler sees only as a Tool gives the wide types of before.
  const wide: Tool = { name: "wide", inputSchema: { type: "object", properties: { a: { type: "string" } } } };
  server.tool(wide, (args) => {
    exact<typeof args, { [key: string]: unknown }>(true);
    return { content: [], structuredContent: { anything: 1 } };
  });

  server.prompt({ name: "p", arguments: [{ name: "topic", required: true }, { name: "audience" }] }, (args) => {
    exact<typeof args, { topic: string; audience?: string }>(true);
    // @ts-expect-error -- misspelled prompt argument
    void args.topc;
    // @ts-expect-error -- a prompt argument not marked required may be missing: not a string for sure
    const audience: string = args.audience;
    return { messages: [{ role: "user", content: text(audience) }] };
  }, {
    // @ts-expect-error -- a completer for an argument the prompt does not have
    topc: () => [],
  });
  const widePrompt: Prompt = { name: "wide", arguments: [{ name: "x", required: true }] };
  server.prompt(widePrompt, (args) => {
    exact<typeof args, Record<string, string>>(true);
    return { messages: [] };
  });

  server.resourceTemplate({ name: "t", uriTemplate: "weather://{city}/{+path}{/segments*}{?q,lang}{#part:3}" }, (uri, variables) => {
    exact<typeof variables, { city: string; path: string; segments?: string[]; q?: string; lang?: string; part?: string }>(true);
    // @ts-expect-error -- misspelled template variable
    void variables.cty;
    // @ts-expect-error -- an exploded variable is a list, and may be absent
    const first: string = variables.segments;
    return [{ uri, text: first }];
  });
  const template: string = "x://{a}";
  server.resourceTemplate({ name: "w", uriTemplate: template }, (uri, variables) => {
    exact<typeof variables, Record<string, string | string[]>>(true);
    return [{ uri, text: "" }];
  });
}

test("typed tool: the handler gets the checked arguments and its structuredContent goes out as typed", async () => {
  const client = await connected(forecastServer());
  const result = await client.callTool("forecast", { city: "Oslo", days: 2, unit: "f" });
  assert.deepEqual(result.structuredContent, { city: "Oslo", highs: [50, 51] });
  // The misspelling the compiler refuses in a handler, the schema refuses on the wire.
  const misspelled = await client.callTool("forecast", { cty: "Oslo" });
  assert.equal(misspelled.isError, true);
  assert.match(JSON.stringify(misspelled.content), /missing required property \\"city\\"/);
  await client.close();
});

test("typed prompt: a required argument is there, an optional one may be absent", async () => {
  const client = await connected(forecastServer());
  const result = await client.getPrompt("explain", { topic: "tools" });
  assert.deepEqual(result.messages, [{ role: "user", content: { type: "text", text: "tools for anyone" } }]);
  await client.close();
});

test("typed template: the reader gets what the template's text says, lists for exploded variables, absent ones left out", async () => {
  const client = await connected(forecastServer());
  const uri = "files://oslo/2026/12?q=rain";
  const read = await client.readResource(uri);
  const expected: TemplateVariables<"files://{city}{/segments*}{?q,lang}"> = { city: "oslo", segments: ["2026", "12"], q: "rain" };
  assert.deepEqual(read.contents, [{ uri, text: JSON.stringify(expected) }]);
  await client.close();
});

/** Compiles only if `expected` fits the type worked out from `template`; then checks it is what match() gives. */
function matches<const T extends string>(template: T, uri: string, expected: TemplateVariables<T>): void {
  assert.deepEqual(new UriTemplate(template).match(uri), expected);
}

test("typed template: each operator's variables are typed as UriTemplate.match hands them over", () => {
  matches("x://{a,b}", "x://1", { a: "1" });
  matches("x://{+path}", "x://a/b", { path: "a/b" });
  matches("x://{a}{.ext*}", "x://a.tar.gz", { a: "a", ext: ["tar", "gz"] });
  matches("x://{a}{;p,q}", "x://a;q=2", { a: "a", q: "2" });
  matches("x://{a}{#part}", "x://a", { a: "a" });
  matches("x://{a:2}{?tag*}", "x://ab?tag=1&tag=2", { a: "ab", tag: ["1", "2"] });
});
