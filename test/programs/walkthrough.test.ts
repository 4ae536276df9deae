// `npm start`: the walkthrough plays a whole session against the real demo server and explains
// every message. This checks that it does, in order, and that each wire message gets its note.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const WALKTHROUGH = fileURLToPath(new URL("../../dist/walkthrough.js", import.meta.url));

test("walkthrough: plays every step against dist/server.js and explains each message", () => {
  const run = spawnSync(process.execPath, [WALKTHROUGH], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  const out = run.stdout;
  const steps = [...out.matchAll(/^(\d+)\. (.+)$/gm)].map((m) => m[2]);
  assert.deepEqual(steps, ["The handshake", "Tools", "Progress", "Resources", "Prompts and completion", "Utilities", "Shutdown"]);
  const lines = out.split("\n");
  const wire = lines.flatMap((line, i) => (/^[→←] /.test(line) ? [i] : []));
  assert.ok(wire.length >= 30, `only ${wire.length} wire messages shown`);
  for (const i of wire) assert.match(lines[i + 1]!, /^ {3}\S/, `no note after: ${lines[i]!.slice(0, 80)}`);
  for (const method of ["initialize", "notifications/initialized", "tools/list", "tools/call", "notifications/progress", "resources/read", "resources/templates/list", "prompts/get", "completion/complete", "ping"]) {
    assert.ok(out.includes(`"method":"${method}"`), `${method} was not played`);
  }
  assert.match(out, /code -32601 is Method not found/);
  assert.match(out, /code -32002 is Resource not found/);
  assert.match(out, /The server \(pid \d+\) has exited/);
});
