// The 2026-07-28 header mirror: the spec's own encoding examples, every invalid `x-mcp-header`
// declaration, the headers a client writes, and each way a server finds headers and body at odds.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#request-metadata
// and https://modelcontextprotocol.io/specification/2026-07-28/server/tools#x-mcp-header
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeHeaderValue, DEFAULT_MAX_HEADER_PARAMS, encodeHeaderValue, headerMismatch, headerParams, mcpNameOf, mirroredHeaders, type HeaderParam, type MirroredMessage } from "../../src/http/mcp-headers.js";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

// The spec's encoding table (streamable-http#value-encoding), then our own edges.
const encodings: { value: string | number | boolean; header: string; why: string }[] = [
  { value: "us-west1", header: "us-west1", why: "plain ASCII" },
  { value: "Hello, 世界", header: "=?base64?SGVsbG8sIOS4lueVjA==?=", why: "non-ASCII" },
  { value: " padded ", header: "=?base64?IHBhZGRlZCA=?=", why: "leading and trailing spaces" },
  { value: "line1\nline2", header: "=?base64?bGluZTEKbGluZTI=?=", why: "a newline" },
  { value: "=?base64?literal?=", header: "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=", why: "text that looks like a sentinel" },
  { value: "=?base64?=", header: "=?base64?PT9iYXNlNjQ/PQ==?=", why: "the shortest text that starts and ends like a sentinel" },
  { value: "\ttab", header: "=?base64?CXRhYg==?=", why: "a leading tab" },
  { value: "a\tb c", header: "a\tb c", why: "a tab or space inside is safe" },
  { value: "del\x7f", header: "=?base64?ZGVsfw==?=", why: "a control character (DEL)" },
  { value: "nul\0", header: "=?base64?bnVsAA==?=", why: "a control character (NUL)" },
  { value: "", header: "=?base64??=", why: "empty text, which an intermediary could drop" },
  { value: "\uFEFFbom", header: "=?base64?77u/Ym9t?=", why: "a leading U+FEFF, kept as a character" },
  { value: "=?BASE64?x?=", header: "=?BASE64?x?=", why: "markers are lowercase: uppercase ones are plain text" },
  { value: 42, header: "42", why: "an integer, in decimal" },
  { value: -7, header: "-7", why: "a negative integer" },
  { value: true, header: "true", why: "a boolean" },
  { value: false, header: "false", why: "a boolean" },
];
for (const c of encodings) {
  test(`encodeHeaderValue: ${c.why}: ${JSON.stringify(c.value)} -> ${JSON.stringify(c.header)}, and back`, () => {
    assert.equal(encodeHeaderValue(c.value), c.header);
    assert.equal(decodeHeaderValue(c.header), String(c.value));
  });
}

const undecodable: { header: string; why: string }[] = [
  { header: "=?base64?!!!!?=", why: "not Base64 at all" },
  { header: "=?base64?SGVsbG8?=", why: "Base64 without its padding" },
  { header: "=?base64?SGVsbG9=?=", why: "Base64 with spare bits set (not canonical)" },
  { header: "=?base64?SGVs bG8=?=", why: "a space inside the Base64" },
  { header: "=?base64?-_8=?=", why: "base64url, not Base64" },
  { header: "=?base64?/w==?=", why: "Base64 of a byte that is not UTF-8" },
  { header: "=?base64?7aCA?=", why: "Base64 of an encoded lone surrogate (not UTF-8)" },
  { header: "=?base64?=", why: "a sentinel too short to hold a payload" },
  { header: "caf\u00e9", why: "a plain value with a byte past ASCII (obs-text)" },
  { header: "a\u0001b", why: "a plain value with a control character" },
];
for (const c of undecodable) {
  test(`decodeHeaderValue: ${c.why} is refused`, () => {
    assert.equal(decodeHeaderValue(c.header), undefined);
  });
}

test("mcpNameOf: the name for tools/call and prompts/get, the uri for resources/read, nothing else", () => {
  assert.equal(mcpNameOf("tools/call", { name: "get_weather", uri: "x" }), "get_weather");
  assert.equal(mcpNameOf("prompts/get", { name: "code_review" }), "code_review");
  assert.equal(mcpNameOf("resources/read", { uri: "file:///projects/myapp/config.json", name: "x" }), "file:///projects/myapp/config.json");
  assert.equal(mcpNameOf("tools/list", { name: "x" }), undefined);
  assert.equal(mcpNameOf("tools/call", { name: 5 }), undefined);
  assert.equal(mcpNameOf("tools/call", null), undefined);
  assert.equal(mcpNameOf("constructor", { name: "x" }), undefined);
  assert.equal(mcpNameOf("toString", { name: "x" }), undefined);
});

/** The spec's example tool (streamable-http#schema-extension). */
const EXECUTE_SQL = {
  type: "object",
  properties: {
    region: { type: "string", description: "The region to execute the query in", "x-mcp-header": "Region" },
    query: { type: "string", description: "The SQL query to execute" },
  },
  required: ["region", "query"],
};

test("headerParams: the spec's execute_sql declares Region at arguments.region", () => {
  assert.deepEqual(headerParams(EXECUTE_SQL), { ok: true, params: [{ header: "Region", path: ["region"], type: "string" }] });
});

test("headerParams: the three types, nested properties, a property named x-mcp-header, and no declaration", () => {
  const schema = {
    type: "object",
    properties: {
      "x-mcp-header": { type: "string" },
      confirm: { type: "boolean", "x-mcp-header": "Confirm" },
      options: { type: "object", properties: { limit: { type: "integer", "x-mcp-header": "Limit" } } },
    },
  };
  assert.deepEqual(headerParams(schema), {
    ok: true,
    params: [
      { header: "Confirm", path: ["confirm"], type: "boolean" },
      { header: "Limit", path: ["options", "limit"], type: "integer" },
    ],
  });
  assert.deepEqual(headerParams({ type: "object" }), { ok: true, params: [] });
  assert.deepEqual(headerParams(undefined), { ok: true, params: [] });
});

/** A one-property schema whose property is `property`. */
const withProperty = (property: object) => ({ type: "object", properties: { p: property } });
const stringHeader = (name: unknown) => ({ type: "string", "x-mcp-header": name });

const invalid: { why: string; schema: unknown; reason: RegExp }[] = [
  { why: "an empty name", schema: withProperty(stringHeader("")), reason: /at \/properties\/p: "" is not an HTTP token/ },
  { why: "a space in the name", schema: withProperty(stringHeader("Re gion")), reason: /"Re gion" is not an HTTP token/ },
  { why: "CR LF in the name", schema: withProperty(stringHeader("Region\r\nX-Evil: 1")), reason: /is not an HTTP token/ },
  { why: "a control character in the name", schema: withProperty(stringHeader("Reg\u0001ion")), reason: /is not an HTTP token/ },
  { why: "a delimiter in the name", schema: withProperty(stringHeader("Region:1")), reason: /is not an HTTP token/ },
  { why: "a non-ASCII name", schema: withProperty(stringHeader("Régión")), reason: /is not an HTTP token/ },
  { why: "a name that is not a string", schema: withProperty(stringHeader(5)), reason: /the value must be a string/ },
  {
    why: "two names that differ only in case",
    schema: { type: "object", properties: { a: stringHeader("Region"), b: stringHeader("region") } },
    reason: /at \/properties\/b: "region" repeats "Region"/,
  },
  {
    why: "two equal names at different depths",
    schema: { type: "object", properties: { a: stringHeader("Region"), o: { type: "object", properties: { b: stringHeader("REGION") } } } },
    reason: /at \/properties\/o\/properties\/b: "REGION" repeats "Region"/,
  },
  { why: "type number", schema: withProperty({ type: "number", "x-mcp-header": "N" }), reason: /type must be "string", "integer" or "boolean", not "number"/ },
  { why: "type object", schema: withProperty({ type: "object", "x-mcp-header": "O" }), reason: /not "object"/ },
  { why: "type array", schema: withProperty({ type: "array", "x-mcp-header": "A" }), reason: /not "array"/ },
  { why: "no type", schema: withProperty({ "x-mcp-header": "T" }), reason: /not absent/ },
  { why: "a list of types (nullable)", schema: withProperty({ type: ["string", "null"], "x-mcp-header": "T" }), reason: /not \["string","null"\]/ },
  { why: "the schema root", schema: { type: "object", "x-mcp-header": "Root" }, reason: /at the schema root: it may only sit on a property/ },
  { why: "under items", schema: withProperty({ type: "array", items: stringHeader("I") }), reason: /at \/properties\/p\/items: it may only sit/ },
  { why: "under prefixItems", schema: withProperty({ type: "array", prefixItems: [stringHeader("I")] }), reason: /at \/properties\/p\/prefixItems\/0:/ },
  { why: "under additionalProperties", schema: { type: "object", additionalProperties: stringHeader("A") }, reason: /at \/additionalProperties:/ },
  { why: "under oneOf", schema: { type: "object", oneOf: [{ properties: { a: stringHeader("A") } }] }, reason: /at \/oneOf\/0\/properties\/a:/ },
  { why: "under anyOf", schema: { type: "object", anyOf: [{ properties: { a: stringHeader("A") } }] }, reason: /at \/anyOf\/0\/properties\/a:/ },
  { why: "under allOf", schema: { type: "object", allOf: [{ properties: { a: stringHeader("A") } }] }, reason: /at \/allOf\/0\/properties\/a:/ },
  { why: "under not", schema: { type: "object", not: { properties: { a: stringHeader("A") } } }, reason: /at \/not\/properties\/a:/ },
  { why: "under if", schema: { type: "object", if: { properties: { a: stringHeader("A") } } }, reason: /at \/if\/properties\/a:/ },
  { why: "under then", schema: { type: "object", then: { properties: { a: stringHeader("A") } } }, reason: /at \/then\/properties\/a:/ },
  { why: "under else", schema: { type: "object", else: { properties: { a: stringHeader("A") } } }, reason: /at \/else\/properties\/a:/ },
  {
    why: "behind a $ref (in $defs)",
    schema: { type: "object", properties: { p: { $ref: "#/$defs/R" } }, $defs: { R: stringHeader("R") } },
    reason: /at \/\$defs\/R:/,
  },
  { why: "under a keyword we do not know", schema: { type: "object", "x-vendor": { deep: [{ properties: { a: stringHeader("A") } }] } }, reason: /at \/x-vendor\/deep\/0\/properties\/a:/ },
  { why: "under a properties key that is not an object", schema: { type: "object", properties: [stringHeader("A")] }, reason: /at \/properties\/0:/ },
  { why: "a property name with / and ~, spelled as a JSON Pointer", schema: { type: "object", properties: { "a/b~c": { type: "number", "x-mcp-header": "N" } } }, reason: /at \/properties\/a~1b~0c:/ },
];
for (const c of invalid) {
  test(`headerParams: invalid, ${c.why}`, () => {
    const result = headerParams(c.schema);
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.reason, c.reason);
  });
}

test("headerParams: more declarations than the bound make the tool invalid; the bound has a default and an option", () => {
  const properties: { [name: string]: object } = {};
  for (let i = 0; i < 3; i++) properties[`p${i}`] = stringHeader(`P${i}`);
  const schema = { type: "object", properties };
  assert.deepEqual(headerParams(schema, 2), { ok: false, reason: "more than 2 x-mcp-header declarations" });
  assert.equal(headerParams(schema, 3).ok, true);
  assert.equal(DEFAULT_MAX_HEADER_PARAMS, 100);
  for (let i = 3; i <= DEFAULT_MAX_HEADER_PARAMS; i++) properties[`p${i}`] = stringHeader(`P${i}`);
  assert.deepEqual(headerParams(schema), { ok: false, reason: "more than 100 x-mcp-header declarations" });
});

test("headerParams: a schema nested 100,000 deep is searched without overflowing the stack", () => {
  let schema: object = stringHeader("Deep");
  for (let i = 0; i < 100_000; i++) schema = { type: "object", properties: { n: schema } };
  const result = headerParams(schema);
  assert.equal(result.ok, true);
  if (result.ok) assert.equal(result.params[0]!.path.length, 100_000);
  let hidden: object = stringHeader("Deep");
  for (let i = 0; i < 100_000; i++) hidden = { anyOf: [hidden] };
  assert.equal(headerParams({ type: "object", properties: { n: hidden } }).ok, false);
});

const TOOL_PARAMS: HeaderParam[] = [
  { header: "Region", path: ["region"], type: "string" },
  { header: "Limit", path: ["options", "limit"], type: "integer" },
  { header: "Confirm", path: ["confirm"], type: "boolean" },
  { header: "Greeting", path: ["greeting"], type: "string" },
];
const call = (args: unknown) => ({ method: "tools/call", params: { _meta: META, name: "execute_sql", arguments: args } });

test("mirroredHeaders: the spec's execute_sql request", () => {
  const message = call({ region: "us-west1", query: "SELECT * FROM users" });
  const declared = headerParams(EXECUTE_SQL);
  assert.ok(declared.ok);
  assert.deepEqual(mirroredHeaders(message, declared.params), {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "execute_sql",
    "mcp-param-region": "us-west1",
  });
});

test("mirroredHeaders: every value type, nested, encoded; absent, null and unmirrorable values send nothing", () => {
  const args = { region: "us-west1", options: { limit: 42 }, confirm: false, greeting: "Hello, 世界" };
  assert.deepEqual(mirroredHeaders(call(args), TOOL_PARAMS), {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "execute_sql",
    "mcp-param-region": "us-west1",
    "mcp-param-limit": "42",
    "mcp-param-confirm": "false",
    "mcp-param-greeting": "=?base64?SGVsbG8sIOS4lueVjA==?=",
  });
  const none = { region: null, options: { limit: 2 ** 53 }, confirm: { yes: true } };
  assert.deepEqual(mirroredHeaders(call(none), TOOL_PARAMS), { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "execute_sql" });
  assert.deepEqual(mirroredHeaders(call(undefined), TOOL_PARAMS), { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "execute_sql" });
});

test("mirroredHeaders mirrors own properties only, as JSON.stringify sends them (not inherited ones)", () => {
  const args: { region?: string } = Object.create({ region: "eu-west1" });
  const message = call(args);
  assert.equal(JSON.parse(JSON.stringify(message)).params.arguments.region, undefined);
  assert.equal(mirroredHeaders(message, TOOL_PARAMS)["mcp-param-region"], undefined);
});

test("mirroredHeaders: Mcp-Name is the uri of resources/read, encoded when not safe; no version header without the envelope", () => {
  assert.deepEqual(mirroredHeaders({ method: "resources/read", params: { _meta: META, uri: "file:///tmp/naïve.txt" } }), {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "resources/read",
    "mcp-name": encodeHeaderValue("file:///tmp/naïve.txt"),
  });
  assert.deepEqual(mirroredHeaders({ method: "tools/list" }, TOOL_PARAMS), { "mcp-method": "tools/list" });
});

/** The server's view of a POST: its headers, read by name as Headers.get reads them. */
function check(headers: Record<string, string>, message: MirroredMessage, params: HeaderParam[] = [], kind?: "request" | "notification") {
  const received = new Headers(headers);
  return headerMismatch((name) => received.get(name), message, params, kind);
}

test("headerMismatch: what mirroredHeaders writes passes, for every method and value", () => {
  const messages = [
    call({ region: "us-west1", options: { limit: 42 }, confirm: true, greeting: " padded " }),
    call({ region: "=?base64?literal?=", greeting: "" }),
    { method: "prompts/get", params: { _meta: META, name: "Grüße" } },
    { method: "resources/read", params: { _meta: META, uri: "file:///projects/myapp/config.json" } },
    { method: "tools/list", params: { _meta: META } },
  ];
  for (const message of messages) assert.equal(check(mirroredHeaders(message, TOOL_PARAMS), message, TOOL_PARAMS), undefined, JSON.stringify(message));
});

const body = call({ region: "us-west1", options: { limit: 42 }, confirm: true });
const good = mirroredHeaders(body, TOOL_PARAMS);
const without = (name: string) => Object.fromEntries(Object.entries(good).filter(([key]) => key !== name));

const mismatches: { why: string; headers: Record<string, string>; message?: MirroredMessage; header: string; text: string }[] = [
  { why: "the spec's own example", headers: { ...good, "mcp-name": "foo" }, message: call({}), header: "Mcp-Name", text: "Header mismatch: Mcp-Name header value 'foo' does not match body value 'execute_sql'" },
  { why: "MCP-Protocol-Version missing", headers: without("mcp-protocol-version"), header: "MCP-Protocol-Version", text: "Header mismatch: MCP-Protocol-Version header is missing; body value is '2026-07-28'" },
  { why: "MCP-Protocol-Version other than the body's", headers: { ...good, "mcp-protocol-version": "2025-11-25" }, header: "MCP-Protocol-Version", text: "Header mismatch: MCP-Protocol-Version header value '2025-11-25' does not match body value '2026-07-28'" },
  { why: "Mcp-Method missing", headers: without("mcp-method"), header: "Mcp-Method", text: "Header mismatch: Mcp-Method header is missing; body value is 'tools/call'" },
  { why: "Mcp-Method in another case (values are case-sensitive)", headers: { ...good, "mcp-method": "Tools/Call" }, header: "Mcp-Method", text: "Header mismatch: Mcp-Method header value 'Tools/Call' does not match body value 'tools/call'" },
  { why: "Mcp-Method Base64-encoded (only Mcp-Name and Mcp-Param-* may be)", headers: { ...good, "mcp-method": "=?base64?dG9vbHMvY2FsbA==?=" }, header: "Mcp-Method", text: "Header mismatch: Mcp-Method header value '=?base64?dG9vbHMvY2FsbA==?=' does not match body value 'tools/call'" },
  { why: "Mcp-Name missing", headers: without("mcp-name"), header: "Mcp-Name", text: "Header mismatch: Mcp-Name header is missing; body value is 'execute_sql'" },
  { why: "Mcp-Name in another case", headers: { ...good, "mcp-name": "EXECUTE_SQL" }, header: "Mcp-Name", text: "Header mismatch: Mcp-Name header value 'EXECUTE_SQL' does not match body value 'execute_sql'" },
  { why: "Mcp-Name encoded, decoding to another name", headers: { ...good, "mcp-name": encodeHeaderValue("drop_tables ") }, header: "Mcp-Name", text: "Header mismatch: Mcp-Name header value 'drop_tables ' does not match body value 'execute_sql'" },
  { why: "Mcp-Name with a malformed sentinel", headers: { ...good, "mcp-name": "=?base64?ZXhlY3V0ZV9zcWw?=" }, header: "Mcp-Name", text: "Header mismatch: Mcp-Name header value '=?base64?ZXhlY3V0ZV9zcWw?=' has characters a header may not carry or a malformed =?base64?...?= form" },
  { why: "Mcp-Name with a byte past ASCII", headers: { ...good, "mcp-name": "execute_sq\u00ec" }, header: "Mcp-Name", text: "Header mismatch: Mcp-Name header value 'execute_sq\u00ec' has characters a header may not carry or a malformed =?base64?...?= form" },
  { why: "a param header missing for a value in the body", headers: without("mcp-param-region"), header: "Mcp-Param-Region", text: "Header mismatch: Mcp-Param-Region header is missing; body value is 'us-west1'" },
  { why: "a param header other than the body's", headers: { ...good, "mcp-param-region": "eu-west1" }, header: "Mcp-Param-Region", text: "Header mismatch: Mcp-Param-Region header value 'eu-west1' does not match body value 'us-west1'" },
  { why: "an integer header that is not a number", headers: { ...good, "mcp-param-limit": "0x2a" }, header: "Mcp-Param-Limit", text: "Header mismatch: Mcp-Param-Limit header value '0x2a' does not match body value '42'" },
  { why: "an integer header of another number", headers: { ...good, "mcp-param-limit": "43" }, header: "Mcp-Param-Limit", text: "Header mismatch: Mcp-Param-Limit header value '43' does not match body value '42'" },
  { why: "a boolean header in another case", headers: { ...good, "mcp-param-confirm": "True" }, header: "Mcp-Param-Confirm", text: "Header mismatch: Mcp-Param-Confirm header value 'True' does not match body value 'true'" },
  { why: "a param header sent for a value absent from the body", headers: { ...good, "mcp-param-greeting": "hi" }, header: "Mcp-Param-Greeting", text: "Header mismatch: Mcp-Param-Greeting header value 'hi' does not match body value (none)" },
  {
    why: "a param header sent for a null value",
    headers: { ...good, "mcp-param-greeting": "null" },
    message: call({ region: "us-west1", options: { limit: 42 }, confirm: true, greeting: null }),
    header: "Mcp-Param-Greeting",
    text: "Header mismatch: Mcp-Param-Greeting header value 'null' does not match body value (none)",
  },
  {
    why: "a param header for an integer past 2^53, which no header can mirror",
    headers: { ...good, "mcp-param-limit": "9007199254740993" },
    message: call({ region: "us-west1", options: { limit: 9007199254740993 }, confirm: true }),
    header: "Mcp-Param-Limit",
    text: "Header mismatch: Mcp-Param-Limit header value '9007199254740993' does not match body value (none)",
  },
  {
    why: "a string param compared as text, not as a number",
    headers: { ...good, "mcp-param-region": "042" },
    message: call({ region: "42", options: { limit: 42 }, confirm: true }),
    header: "Mcp-Param-Region",
    text: "Header mismatch: Mcp-Param-Region header value '042' does not match body value '42'",
  },
];
for (const c of mismatches) {
  test(`headerMismatch: ${c.why}`, () => {
    const found = check(c.headers, c.message ?? body, TOOL_PARAMS);
    assert.equal(found?.header, c.header);
    assert.equal(found?.message, c.text);
  });
}

test("headerMismatch: the description names the header, what was sent and what a conforming client sends", () => {
  assert.deepEqual(check({ ...good, "mcp-param-region": "eu-west1" }, body, TOOL_PARAMS), {
    header: "Mcp-Param-Region",
    expected: "us-west1",
    got: "eu-west1",
    message: "Header mismatch: Mcp-Param-Region header value 'eu-west1' does not match body value 'us-west1'",
  });
  assert.deepEqual(check(without("mcp-name"), body, TOOL_PARAMS), { header: "Mcp-Name", expected: "execute_sql", got: null, message: "Header mismatch: Mcp-Name header is missing; body value is 'execute_sql'" });
});

test("headerMismatch: integers compare as numbers (042, 42.0 and 4.2e1 all match 42)", () => {
  for (const limit of ["042", "42.0", "4.2e1", "=?base64?MDQy?="]) assert.equal(check({ ...good, "mcp-param-limit": limit }, body, TOOL_PARAMS), undefined, limit);
  const negative = call({ region: "us-west1", options: { limit: -7 }, confirm: true });
  assert.equal(check({ ...mirroredHeaders(negative, TOOL_PARAMS), "mcp-param-limit": "-07" }, negative, TOOL_PARAMS), undefined);
});

test("headerMismatch: a body without its name or envelope leaves those headers unchecked (the params readers answer it)", () => {
  const nameless = { method: "tools/call", params: { _meta: META, arguments: {} } };
  assert.equal(check({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" }, nameless), undefined);
  const legacy = { method: "tools/call", params: { name: "execute_sql" } };
  assert.equal(check({ "mcp-protocol-version": "2025-11-25", "mcp-method": "tools/call", "mcp-name": "execute_sql" }, legacy), undefined);
});

test("headerMismatch: a notification needs no header, but one it carries must agree", () => {
  const cancelled = { method: "notifications/cancelled", params: { requestId: 1 } };
  assert.equal(check({}, cancelled, [], "notification"), undefined);
  assert.equal(check({}, cancelled)?.header, "Mcp-Method");
  assert.equal(check({ "mcp-method": "notifications/progress" }, cancelled, [], "notification")?.header, "Mcp-Method");
});

test("headerMismatch: a POST with 1000 headers has only the ones the body calls for read", () => {
  const received = new Headers(good);
  for (let i = 0; i < 1000; i++) received.set(`mcp-param-junk${i}`, "x");
  const read: string[] = [];
  const found = headerMismatch((name) => (read.push(name.toLowerCase()), received.get(name)), body, TOOL_PARAMS);
  assert.equal(found, undefined);
  const wanted = ["mcp-protocol-version", "mcp-method", "mcp-name", ...TOOL_PARAMS.map((p) => `mcp-param-${p.header.toLowerCase()}`)];
  assert.deepEqual([...new Set(read)].sort(), wanted.sort());
  assert.ok(read.length <= 2 * wanted.length);
});
