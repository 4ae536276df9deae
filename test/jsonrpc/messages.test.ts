// The codec: every file in fixtures/codec is one case, named by its expected outcome:
// y_<kind>_... decodes to that kind; n_<code>_... is invalid and answered with that error code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { decodeMessage, encodeMessage, errorResponseTo, RpcError } from "../../src/jsonrpc/messages.js";

const dir = new URL("../../fixtures/codec/", import.meta.url);

for (const file of readdirSync(dir).sort()) {
  const [outcome, expected] = file.split("_");
  test(`codec: ${file}`, () => {
    const decoded = decodeMessage(readFileSync(new URL(file, dir), "utf8"));
    if (outcome === "y") assert.equal(decoded.kind, expected);
    else {
      assert.equal(decoded.kind, "invalid");
      assert.equal(decoded.kind === "invalid" && decoded.error.code, Number(expected));
    }
  });
}

test("codec: an invalid request keeps an id it could read, exactly", () => {
  const withNumber = decodeMessage('{"jsonrpc":"1.0","id":7,"method":"ping"}');
  assert.equal(withNumber.kind === "invalid" && withNumber.id, 7);
  const withString = decodeMessage('{"jsonrpc":"2.0","id":"7","method":3}');
  assert.equal(withString.kind === "invalid" && withString.id, "7");
});

test("codec: an id it cannot echo exactly is not read at all", () => {
  for (const text of ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}']) {
    const decoded = decodeMessage(text);
    assert.equal(decoded.kind, "invalid");
    assert.equal(decoded.kind === "invalid" && decoded.id, undefined);
  }
});

test("codec: parse errors name the problem", () => {
  const decoded = decodeMessage("{oops");
  assert.ok(decoded.kind === "invalid" && /^parse error: /.test(decoded.error.message));
});

test("codec: encoding never emits a raw newline, even for strings full of them", () => {
  const text = encodeMessage({ jsonrpc: "2.0", id: 1, result: { text: "a\nb\r\nc\u2028d" } });
  assert.ok(!text.includes("\n"));
  assert.deepEqual(JSON.parse(text).result.text, "a\nb\r\nc\u2028d");
});

test("RpcError renders its wire object, with data only when given", () => {
  assert.deepEqual(new RpcError(-32602, "bad").toErrorObject(), { code: -32602, message: "bad" });
  assert.deepEqual(new RpcError(-32002, "gone", { uri: "x" }).toErrorObject(), { code: -32002, message: "gone", data: { uri: "x" } });
  const back = RpcError.fromErrorObject({ code: -1, message: "no", data: 3 });
  assert.equal(back.code, -1);
  assert.equal(back.data, 3);
});

test("errorResponseTo: a readable id is echoed; an unreadable one is left out (2025-11-25) or null (older versions)", () => {
  const error = new RpcError(-32600, "invalid request: x");
  assert.deepEqual(errorResponseTo("a", error, true), { jsonrpc: "2.0", id: "a", error: { code: -32600, message: "invalid request: x" } });
  assert.deepEqual(errorResponseTo(0, error, false), { jsonrpc: "2.0", id: 0, error: { code: -32600, message: "invalid request: x" } });
  assert.deepEqual(errorResponseTo(undefined, error, true), { jsonrpc: "2.0", error: { code: -32600, message: "invalid request: x" } });
  assert.deepEqual(errorResponseTo(undefined, error, false), { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request: x" } });
});
