// Fitting results to the negotiated version: the newest version needs nothing fitted (so
// callToolResultFor may skip the work for it), and older ones still get their blocks fitted.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { ContentBlock } from "../../src/mcp/content.js";
import { LATEST_PROTOCOL_VERSION } from "../../src/mcp/versions.js";
import { callToolResultFor, contentFor, describedFor, TOOL_FIELDS } from "../../src/server/compat.js";

const ANNOTATIONS = { audience: ["user" as const], priority: 0.5, lastModified: "2026-01-01T00:00:00Z" };
const META = { "com.example/x": 1 };
/** One block of each type, with every optional field a version may lack. */
const BLOCKS: ContentBlock[] = [
  { type: "text", text: "t", annotations: ANNOTATIONS, _meta: META },
  { type: "image", data: "AA==", mimeType: "image/png", annotations: ANNOTATIONS, _meta: META },
  { type: "audio", data: "AA==", mimeType: "audio/wav", annotations: ANNOTATIONS, _meta: META },
  { type: "resource_link", uri: "file:///a", name: "a", title: "A", icons: [{ src: "https://x/i.png" }], annotations: ANNOTATIONS, _meta: META },
  { type: "resource", resource: { uri: "file:///b", text: "b", _meta: META }, annotations: ANNOTATIONS, _meta: META },
];

test("compat: fitting anything to the newest version changes nothing", () => {
  for (const block of BLOCKS) assert.deepEqual(contentFor(block, LATEST_PROTOCOL_VERSION), block, block.type);
  const tool = { name: "t", title: "T", icons: [{ src: "https://x/i.png" }], _meta: META, inputSchema: { type: "object" }, outputSchema: { type: "object" }, annotations: { readOnlyHint: true } };
  assert.deepEqual(describedFor(tool, LATEST_PROTOCOL_VERSION, TOOL_FIELDS), tool);
});

test("compat: a tools/call result goes to the newest version with its blocks as they are, and older versions get them fitted", () => {
  const result = { content: BLOCKS, structuredContent: { n: 1 } };
  const latest = callToolResultFor(result, LATEST_PROTOCOL_VERSION);
  assert.equal(latest.content, BLOCKS, "the same blocks, uncopied");
  assert.deepEqual(latest, { content: BLOCKS.map((block) => contentFor(block, LATEST_PROTOCOL_VERSION)), structuredContent: { n: 1 } });
  const old = callToolResultFor(result, "2024-11-05");
  assert.deepEqual(old.content.map((block) => block.type), ["text", "image", "text", "text", "resource"]);
  assert.equal(old.structuredContent, undefined);
  assert.deepEqual(result.content, BLOCKS, "the handler's result is left as it was");
});

test("compat: structured content without content gets its JSON as text, in every version", () => {
  for (const version of [LATEST_PROTOCOL_VERSION, "2025-06-18"] as const) {
    const result = { content: [], structuredContent: { sum: 42 } };
    assert.deepEqual(callToolResultFor(result, version).content, [{ type: "text", text: '{"sum":42}' }], version);
    assert.deepEqual(result.content, [], "the handler's result is left as it was");
  }
});

test("compat: a tools/call result that is not a plain object is copied, so what was checked is what JSON.stringify writes", () => {
  // A class instance whose toJSON writes something else entirely: the copy drops the prototype.
  class Sneaky {
    [key: string]: unknown;
    content: ContentBlock[] = [{ type: "text", text: "checked" }];
    toJSON() {
      return { content: "not an array" };
    }
  }
  const fitted = callToolResultFor(new Sneaky(), LATEST_PROTOCOL_VERSION);
  assert.deepEqual(JSON.parse(JSON.stringify(fitted)), { content: [{ type: "text", text: "checked" }] });
  // A plain object that needs nothing goes as it is.
  const plain = { content: [{ type: "text" as const, text: "plain" }] };
  assert.equal(callToolResultFor(plain, LATEST_PROTOCOL_VERSION), plain);
});
