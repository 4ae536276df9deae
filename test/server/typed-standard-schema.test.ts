// A tool whose arguments a Standard Schema validator checks and types (src/server/typed-standard-schema.ts),
// with a validator written by hand here in the shape zod, valibot and arktype share: no library.
import { test } from "node:test";
import assert from "node:assert/strict";
import { RpcError } from "../../src/jsonrpc/messages.js";
import { McpServer, text } from "../../src/server/definition.js";
import { connected, exact } from "../helpers/typed-handlers.js";
import { isStandardSchema, type StandardSchemaV1 } from "../../src/server/typed-standard-schema.js";

interface CityInput { city: string; days?: number }
interface CityOutput { city: string; days: number }

/** Trims the city (and refuses an empty one), defaults days to 1: the handler must see this output, not the raw arguments. */
function cityValidator(options: { async?: boolean; jsonSchema?: boolean } = {}): StandardSchemaV1<CityInput, CityOutput> {
  const check = (value: unknown): StandardSchemaV1.Result<CityOutput> => {
    const { city, days = 1 } = value as { city?: unknown; days?: unknown };
    if (typeof city !== "string" || city.trim() === "") return { issues: [{ message: "must be a city name", path: [{ key: "city" }] }] };
    if (typeof days !== "number" || days > 7) return { issues: [{ message: "must be a number up to 7", path: ["days"] }] };
    return { value: { city: city.trim(), days } };
  };
  const converter = {
    // As zod and arktype write theirs: with the dialect named.
    input: () => ({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { city: { type: "string" }, days: { type: "number" } }, required: ["city"] }),
    output: () => ({ type: "object" }),
  };
  return {
    "~standard": {
      version: 1,
      vendor: "hand-written",
      validate: options.async ? async (value) => check(value) : check,
      ...(options.jsonSchema ? { jsonSchema: converter } : {}),
    },
  };
}

/** Lists only what the listing needs; the validator holds the rules (an empty city passes this). */
const LOOSE = { type: "object", properties: { city: { type: "string" }, days: { type: "number" } } } as const;

function server(validator = cityValidator(), listing: "loose" | "none" = "loose"): McpServer {
  const mcp = new McpServer({ name: "s", version: "1" });
  const inputSchema = listing === "loose" ? LOOSE : undefined;
  return mcp.tool({ name: "weather", input: validator, inputSchema }, ({ city, days }) => ({ content: [text(`${city} for ${days} days`)] }));
}

export function typeCases(mcp: McpServer): void {
  mcp.tool({ name: "typed", input: cityValidator(), inputSchema: LOOSE, outputSchema: { type: "object", properties: { n: { type: "number" } } } }, (args) => {
    // The validator's output type, not its input type and not the listing schema's.
    exact<typeof args, CityOutput>(true);
    return { content: [], structuredContent: { n: 1 } };
  });
  mcp.tool({ name: "wrong-output", input: cityValidator(), inputSchema: LOOSE, outputSchema: { type: "object", properties: { n: { type: "number" } } } }, () => ({
    content: [],
    // @ts-expect-error -- structuredContent still follows outputSchema
    structuredContent: { n: "1" },
  }));
  // @ts-expect-error -- misspelled argument, caught from the validator's type
  mcp.tool({ name: "misspelled", input: cityValidator(), inputSchema: LOOSE }, ({ cty }) => ({ content: [text(cty)] }));
}

for (const async of [false, true]) {
  test(`standard schema: the handler gets the validator's output (validate ${async ? "async" : "sync"})`, async () => {
    const client = await connected(server(cityValidator({ async })));
    assert.deepEqual(await client.callTool("weather", { city: "  Oslo " }), { content: [{ type: "text", text: "Oslo for 1 days" }] });
    await client.close();
  });
}

test("standard schema: the validator's issues are the isError result our own schema's would be (2025-11-25)", async () => {
  const client = await connected(server());
  const result = await client.callTool("weather", { city: " " });
  assert.deepEqual(result, { content: [{ type: "text", text: "tools/call weather: invalid arguments: city: must be a city name" }], isError: true });
  const tooLong = await client.callTool("weather", { city: "Oslo", days: 9 });
  assert.deepEqual(tooLong, { content: [{ type: "text", text: "tools/call weather: invalid arguments: days: must be a number up to 7" }], isError: true });
  await client.close();
});

test("standard schema: before 2025-11-25 its issues are -32602, as invalid arguments were then", async () => {
  const client = await connected(server(), "2025-06-18");
  await assert.rejects(client.callTool("weather", { city: "" }), (error: unknown) =>
    error instanceof RpcError && error.code === -32602 && error.message === "tools/call weather: invalid arguments: city: must be a city name");
  await client.close();
});

test("standard schema: tools/list shows the inputSchema, made by ~standard.jsonSchema when none is given, and never the validator", async () => {
  const client = await connected(server(cityValidator({ jsonSchema: true }), "none"));
  const [tool] = await client.listAllTools();
  assert.deepEqual(tool, { name: "weather", inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { city: { type: "string" }, days: { type: "number" } }, required: ["city"] } });
  await client.close();
});

test("standard schema: a tool with neither an inputSchema nor a converter, or an input that is no validator, is refused at registration", () => {
  assert.throws(() => server(cityValidator(), "none"), /server: tool "weather" needs an inputSchema for tools\/list: its validator \(hand-written\) offers no ~standard.jsonSchema/);
  const fake = { "~standard": { version: 2, vendor: "x", validate: () => ({ value: {} }) } } as unknown as StandardSchemaV1<CityInput, CityOutput>;
  assert.throws(() => server(fake), /server: tool "weather": input is not a Standard Schema v1 validator/);
  const unwritable = cityValidator();
  const jsonSchema = { input: () => { throw new Error("transforms have no JSON Schema"); }, output: () => ({}) };
  const throwing = { "~standard": { ...unwritable["~standard"], jsonSchema } };
  assert.throws(() => server(throwing, "none"), /server: tool "weather": its validator \(hand-written\) could not write its input as JSON Schema, so give an inputSchema: transforms have no JSON Schema/);
  assert.equal(isStandardSchema(cityValidator()), true);
  assert.equal(isStandardSchema(Object.assign(() => 0, { "~standard": { version: 1, vendor: "arktype-like", validate: () => ({ value: 0 }) } })), true);
});

test("standard schema: a validator that turns the arguments into something other than an object is the tool's failure, isError", async () => {
  const listing: StandardSchemaV1<unknown, unknown> = { "~standard": { version: 1, vendor: "odd", validate: () => ({ value: ["not", "an", "object"] }) } };
  const mcp = new McpServer({ name: "s", version: "1" });
  mcp.tool({ name: "odd", input: listing, inputSchema: { type: "object" } }, () => ({ content: [text("never")] }));
  const client = await connected(mcp);
  const result = await client.callTool("odd", {});
  assert.equal(result.isError, true);
  assert.deepEqual(result.content, [{ type: "text", text: "tools/call odd: its validator (odd) did not make the arguments an object (it made an array)" }]);
  await client.close();
});
