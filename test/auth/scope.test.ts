// Which scope the client asks for (src/auth/scope.ts), from the spec's scope selection strategy.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chooseScope, withOfflineAccess, type ScopeInputs } from "../../src/auth/scope.js";
import type { Discovery } from "../../src/auth/discovery.js";

function discovery(prmScopes?: string[], asScopes?: string[]): Discovery {
  return {
    resource: "https://mcp.example/mcp",
    issuer: "https://as.example",
    prm: { resource: "https://mcp.example/mcp", authorization_servers: ["https://as.example"], ...(prmScopes && { scopes_supported: prmScopes }) },
    metadata: { issuer: "https://as.example", ...(asScopes && { scopes_supported: asScopes }) },
  };
}
const inputs = (over: Partial<ScopeInputs>): ScopeInputs => ({ configured: undefined, asked: undefined, granted: undefined, challenge: undefined, discovery: discovery(), ...over });

test("chooseScope: the configured scope, else the challenge's, else the PRM's scopes_supported, else none", () => {
  const prm = discovery(["a", "b"]);
  assert.equal(chooseScope(inputs({ configured: "x", challenge: { scope: "c" }, discovery: prm }), false), "x");
  assert.equal(chooseScope(inputs({ challenge: { scope: "c" }, discovery: prm }), false), "c");
  assert.equal(chooseScope(inputs({ discovery: prm }), false), "a b");
  assert.equal(chooseScope(inputs({}), false), undefined);
  assert.equal(chooseScope(inputs({ challenge: { scope: "  " } }), false), undefined, "a blank scope is no scope");
});

test("chooseScope: a step-up adds the 403's scope to what was asked before (else granted, else configured), each once", () => {
  assert.equal(chooseScope(inputs({ asked: "a b", granted: "z", challenge: { scope: "b c" } }), true), "a b c");
  assert.equal(chooseScope(inputs({ granted: "a", challenge: { scope: "c" } }), true), "a c");
  assert.equal(chooseScope(inputs({ configured: "x", challenge: { scope: "c" } }), true), "x c");
});

test("withOfflineAccess: only when the authorization server lists it, and never added to an omitted scope", () => {
  assert.equal(withOfflineAccess("a", discovery(undefined, ["a", "offline_access"])), "a offline_access");
  assert.equal(withOfflineAccess("a", discovery(undefined, ["a"])), "a");
  assert.equal(withOfflineAccess(undefined, discovery(undefined, ["offline_access"])), undefined);
});
