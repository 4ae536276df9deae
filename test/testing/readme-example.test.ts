// The guide's example for mcp-wire/testing, run as written: a user's own server golden-tested from
// node:test. It imports the package by its name, as a user's project would (Node resolves a package's
// own name through its "exports"), so it runs what dist/ ships. Between the markers is README's text;
// only the golden's place differs (a temporary directory here, beside the test in README).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";

const dir = mkdtempSync(join(tmpdir(), "mcp-wire-readme-testing-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const golden = join(dir, "forecast.recording");

// README example begins
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { McpServer, text } from "mcp-wire";
import { assertChecks, assertReplays, recordSession, replayTranscript } from "mcp-wire/testing";

function weatherServer(sky = "Sunny"): McpServer {
  const server = new McpServer({ name: "weather", version: "1.0.0" });
  server.tool(
    { name: "forecast", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
    async ({ city }) => ({ content: [text(`${sky} in ${city}.`)] }),
  );
  return server;
}

test("forecast: the golden session still replays, and keeps to the spec", async () => {
  // Recorded once (or again, with UPDATE_GOLDENS=1), then reviewed and committed like any golden.
  if (!existsSync(golden) || process.env.UPDATE_GOLDENS) {
    const recording = await recordSession({ server: weatherServer() }, async (client) => {
      await client.callTool("forecast", { city: "Paris" });
    }, { prose: ["tomorrow's forecast for Paris"] });
    writeFileSync(golden, recording);
  }
  assertChecks(golden); // the spec linter: throws with `mcp-wire check`'s lines
  await assertReplays(golden, { server: weatherServer() }); // in process; or { command: "node", args: ["dist/weather.js"] }
});

test("forecast: a changed answer fails with the pointer at fault", async () => {
  const result = await replayTranscript(golden, { server: weatherServer("Rainy") });
  assert.equal(result.ok, false);
  assert.match(result.text, /at \/result\/content\/0\/text\n {4}expected: "Sunny in Paris\."\n {4}actual: {3}"Rainy in Paris\."/);
});
// README example ends
