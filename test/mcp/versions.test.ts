// The version rules of src/mcp/versions.ts that are not features: which capability a client request
// needs of the server, and the one version rule in it (2024-11-05 completions).
import { test } from "node:test";
import assert from "node:assert/strict";
import { undeclaredServerCapability } from "../../src/mcp/versions.js";

const cases: { name: string; method: string; version: "2025-11-25" | "2024-11-05"; declared: object; missing: string | undefined }[] = [
  { name: "tools/call needs tools", method: "tools/call", version: "2025-11-25", declared: {}, missing: "tools" },
  { name: "tools/call with tools", method: "tools/call", version: "2025-11-25", declared: { tools: {} }, missing: undefined },
  { name: "subscribe needs resources.subscribe", method: "resources/subscribe", version: "2025-11-25", declared: { resources: {} }, missing: "resource subscriptions" },
  { name: "completions need their flag since 2025-03-26", method: "completion/complete", version: "2025-11-25", declared: { prompts: {} }, missing: "completions" },
  { name: "in 2024-11-05, prompts imply completions", method: "completion/complete", version: "2024-11-05", declared: { prompts: {} }, missing: undefined },
  { name: "in 2024-11-05, no prompts nor resources: no completions", method: "completion/complete", version: "2024-11-05", declared: { tools: {} }, missing: "completions" },
  { name: "ping needs nothing", method: "ping", version: "2025-11-25", declared: {}, missing: undefined },
  { name: "a method outside the table needs nothing", method: "x/unknown", version: "2025-11-25", declared: {}, missing: undefined },
  { name: "a name on Object.prototype is outside the table", method: "toString", version: "2025-11-25", declared: {}, missing: undefined },
];

for (const c of cases) {
  test(`undeclaredServerCapability: ${c.name}`, () => {
    assert.equal(undeclaredServerCapability(c.method, c.version, c.declared)?.name, c.missing);
  });
}
