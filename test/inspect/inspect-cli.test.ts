// `mcp-wire inspect` without a browser: the guard every request passes (token, Host, Origin), the
// actions the page sends, and the recording it saves, which `mcp-wire check`, `diagram` and `replay` accept.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startInspect, type RunningInspect } from "../helpers/inspect-program.js";
import { CLI } from "../cli/program.js";

/** A raw request, so that Host and Origin can be anything (fetch sets Host itself). */
function get(url: string, headers: { [name: string]: string } = {}, path?: string): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: target.port, path: path ?? target.pathname, headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("mcp-wire inspect", () => {
  let inspect: RunningInspect;
  before(async () => { inspect = await startInspect(); });
  after(async () => { await inspect.stop(); });

  it("serves the page at its token's address, on loopback", async () => {
    assert.match(inspect.url, /^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/$/);
    assert.equal(await get(inspect.url), 200);
    const port = new URL(inspect.url).port;
    assert.equal(await get(inspect.url, { host: `localhost:${port}` }), 200);
  });

  it("answers 404 to a request without the token, or with another", async () => {
    assert.equal(await get(inspect.url, {}, "/"), 404);
    assert.equal(await get(inspect.url, {}, "/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/"), 404);
    assert.equal(await get(inspect.url, {}, `${new URL(inspect.url).pathname.slice(0, -2)}/`), 404);
  });

  it("refuses a Host that is not its own loopback address (DNS rebinding)", async () => {
    assert.equal(await get(inspect.url, { host: "attacker.example" }), 403);
    assert.equal(await get(inspect.url, { host: `attacker.example:${new URL(inspect.url).port}` }), 403);
  });

  it("refuses a request from another Origin, even with the token", async () => {
    assert.equal(await get(inspect.url, { origin: "http://attacker.example" }), 403);
    assert.equal(await get(inspect.url, { origin: `http://localhost:${new URL(inspect.url).port}` }), 403);
    assert.equal(await get(inspect.url, { origin: new URL(inspect.url).origin }), 200);
  });

  it("takes actions as JSON only", async () => {
    const response = await fetch(new URL("api", inspect.url), { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify({ action: "tools" }) });
    assert.equal(response.status, 415);
  });

  it("calls a tool for the page, and names an unknown action", async () => {
    const answer = await inspect.act({ action: "call", name: "add", arguments: { a: 3, b: 4 }, callId: "c1" });
    assert.equal(answer.ok, true);
    assert.deepEqual(answer.result?.structuredContent, { sum: 7 });
    const unknown = await inspect.act({ action: "nonsense" });
    assert.equal(unknown.ok, false);
    assert.match(unknown.error ?? "", /no action "nonsense"/);
  });

  it("saves a recording that mcp-wire check and diagram accept", async () => {
    const answer = await inspect.act({ action: "save" });
    const text = String(answer.result?.recording);
    assert.match(text, /^# Recorded by mcp-wire inspect/);
    assert.match(text, /# transport: stdio\n# command: node dist\/server\.js\n-- session --\n> \+\d+ \{/);
    assert.match(text, /"method":"tools\/call"/);
    const file = join(mkdtempSync(join(tmpdir(), "mcp-wire-inspect-")), "session.recording");
    writeFileSync(file, text);
    const check = spawnSync(process.execPath, [CLI, "check", file], { encoding: "utf8" });
    assert.equal(check.status, 0, check.stdout + check.stderr);
    const diagram = spawnSync(process.execPath, [CLI, "diagram", file], { encoding: "utf8" });
    assert.equal(diagram.status, 0, diagram.stderr);
    assert.match(diagram.stdout, /tools\/call add/);
  });

  it("saves a 2026-07-28 session, its listen still open, that mcp-wire replay plays back unchanged", async () => {
    await inspect.act({ action: "call", name: "add", arguments: { a: 1, b: 2 }, callId: "c2" });
    const text = String((await inspect.act({ action: "save" })).result?.recording);
    // The page's session keeps a subscriptions/listen open for list changes: saved unanswered.
    assert.match(text, /"method":"subscriptions\/listen"/);
    const file = join(mkdtempSync(join(tmpdir(), "mcp-wire-inspect-")), "session.recording");
    writeFileSync(file, text);
    const replay = spawnSync(process.execPath, [CLI, "replay", file], { encoding: "utf8" });
    assert.equal(replay.status, 0, replay.stdout + replay.stderr);
  });

  it("saves a handshake-era session that mcp-wire replay plays back unchanged", async () => {
    const handshake = await startInspect(["node", "dist/server.js"], ["--protocol-version", "2025-11-25"]);
    try {
      await handshake.act({ action: "call", name: "add", arguments: { a: 3, b: 4 }, callId: "c1" });
      const file = join(mkdtempSync(join(tmpdir(), "mcp-wire-inspect-")), "session.recording");
      writeFileSync(file, String((await handshake.act({ action: "save" })).result?.recording));
      const replay = spawnSync(process.execPath, [CLI, "replay", file], { encoding: "utf8" });
      assert.equal(replay.status, 0, replay.stdout + replay.stderr);
    } finally {
      await handshake.stop();
    }
  });

  it("stops once its page has gone (and stayed gone: a reload comes back in time)", async () => {
    const closing = await startInspect();
    const exited = new Promise<number | null>((resolve) => closing.child.once("exit", resolve));
    const page = new AbortController();
    const events = await fetch(new URL("events", closing.url), { signal: page.signal });
    assert.equal(events.headers.get("content-type"), "text/event-stream");
    page.abort();
    assert.equal(await exited, 0);
  });

  it("stops on Ctrl-C, and stops its server", async () => {
    const second = await startInspect();
    assert.equal(await second.stop(), 0);
  });
});
