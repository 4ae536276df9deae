// The client side of sessions recorded from real MCP clients (fixtures/recorded/, captured
// against the reference server), replayed against our demo server as a real child process. Their
// tools and prompts are the reference server's, so many calls fail; what must hold is the rule
// that every request gets exactly one well-formed response, and nothing else reaches stdout.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { replayChild } from "../helpers/transcript.js";

const dir = fileURLToPath(new URL("../../fixtures/recorded/", import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort();

test("recorded sessions: the recordings are there", () => {
  assert.ok(files.length >= 5, `${files.length} recordings at ${dir}`);
});

for (const file of files) {
  test(`recorded session: ${file}`, async () => {
    const recorded = readFileSync(dir + file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as { dir: string; msg: Record<string, unknown> });
    const client = recorded.filter((r) => r.dir === "c2s").map((r) => r.msg);
    const requests = client.filter((m) => typeof m.method === "string" && "id" in m);
    const { lines, code } = await replayChild({ header: [], args: [], server: [], client: client.map((m) => JSON.stringify(m)) });
    assert.equal(code, 0);
    const responses = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((m) => !("method" in m));
    for (const request of requests) {
      const answers = responses.filter((r) => r.id === request.id);
      assert.equal(answers.length, 1, `${request.method} (id ${JSON.stringify(request.id)}): ${answers.length} answers`);
      const answer = answers[0]!;
      assert.equal(answer.jsonrpc, "2.0");
      if ("result" in answer) assert.equal(typeof answer.result, "object");
      else {
        const error = answer.error as { code: unknown; message: unknown };
        assert.ok(Number.isInteger(error.code) && typeof error.message === "string", JSON.stringify(answer));
      }
    }
    assert.equal(responses.length, requests.length, "no answers to anything but requests");
    const init = responses.find((r) => r.id === requests[0]!.id)!;
    assert.equal((init.result as { protocolVersion: string }).protocolVersion, "2025-11-25");
  });
}

// The client side of the official SDK v2 client's 2026-07-28 sessions (fixtures/modern/, recorded by
// `npm run interop:modern -- --capture` against SDK v2's own server), replayed against ours: every
// request gets exactly one answer, and every answer to an enveloped request is a 2026-07-28 one
// (resultType on results; -32022 for the unsupported version). Its server's tools are named like
// ours; its input keys are not, so a retry's answers are ignored and the question is asked again.
const modernDir = fileURLToPath(new URL("../../fixtures/modern/", import.meta.url));
const modernFiles = readdirSync(modernDir).filter((f) => f.endsWith(".jsonl") && f !== "sdk-v2-auto-vs-legacy-server.jsonl").sort();

for (const file of modernFiles) {
  test(`recorded SDK v2 session against our server: ${file}`, async () => {
    const recorded = readFileSync(modernDir + file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as { dir: string; msg: Record<string, unknown> });
    const client = recorded.filter((r) => r.dir === "c2s").map((r) => r.msg);
    const requests = client.filter((m) => typeof m.method === "string" && "id" in m);
    assert.ok(requests.length >= 1);
    const { lines, code } = await replayChild({ header: [], args: [], server: [], client: client.map((m) => JSON.stringify(m)) });
    assert.equal(code, 0);
    const responses = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((m) => !("method" in m));
    for (const request of requests) {
      const answers = responses.filter((r) => r.id === request.id);
      // A listen the client cancelled gets no answer (spec: basic/transports/stdio#cancellation); every other request exactly one.
      const cancelled = client.some((m) => m.method === "notifications/cancelled" && (m.params as { requestId?: unknown }).requestId === request.id);
      assert.equal(answers.length, cancelled ? 0 : 1, `${String(request.method)} (id ${JSON.stringify(request.id)}): ${answers.length} answers`);
      const answer = answers[0];
      if (!answer) continue;
      if ("result" in answer) assert.ok(["complete", "input_required"].includes((answer.result as { resultType?: string }).resultType ?? ""), JSON.stringify(answer));
      else assert.ok([-32022, -32602].includes((answer.error as { code: number }).code), JSON.stringify(answer));
    }
  });
}
