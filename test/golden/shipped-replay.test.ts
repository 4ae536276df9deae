// Every golden transcript stands alone: the shipped CLI, `node dist/cli.js replay FILE -- <server>`,
// passes it with no test helper (its placeholders, "# args:" and editions are in the file,
// src/recordings/directives.ts). The production server runs every transcript; the textbook server
// (`node dist/textbook/demo.js`, --edition textbook) every one whose "# editions:" line names it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { editions } from "../../src/recordings/directives.js";
import { parseRecording } from "../../src/recordings/recording.js";

const dir = fileURLToPath(new URL("../../fixtures/transcripts/", import.meta.url));
const dist = (path: string) => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));
const files = readdirSync(dir).filter((file) => file.endsWith(".transcript")).sort();
const SERVERS = { production: dist("server.js"), textbook: dist("textbook/demo.js") };
/** The transcripts each edition holds for: all of them for production, the named ones for the textbook. */
export const TEXTBOOK = files.filter((file) =>
  editions(parseRecording(readFileSync(dir + file, "utf8"), file)).holdsFor?.includes("textbook"));

function replay(file: string, edition: keyof typeof SERVERS): Promise<{ code: number | null; stdout: string }> {
  const args = [dist("cli.js"), "replay", dir + file, "--edition", edition, "--", process.execPath, SERVERS[edition]];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout })));
}

/** Runs the replays a few at a time: the machine is shared. */
async function all(list: string[], edition: keyof typeof SERVERS) {
  const results = new Map<string, { code: number | null; stdout: string }>();
  const queue = [...list];
  await Promise.all([1, 2, 3].map(async () => {
    for (let file; (file = queue.shift()) !== undefined;) results.set(file, await replay(file, edition));
  }));
  return results;
}

test("shipped replay: every transcript passes against the production server (node dist/server.js)", async () => {
  const results = await all(files, "production");
  const failed = [...results].filter(([, result]) => result.code !== 0).map(([file, { stdout }]) => `${file}:\n${stdout}`);
  assert.deepEqual(failed, []);
  assert.ok(files.length >= 40, `only ${files.length} transcripts`);
});

test("shipped replay: every textbook transcript passes against the textbook server (node dist/textbook/demo.js)", async () => {
  const results = await all(TEXTBOOK, "textbook");
  const failed = [...results].filter(([, result]) => result.code !== 0).map(([file, { stdout }]) => `${file}:\n${stdout}`);
  assert.deepEqual(failed, []);
  assert.ok(TEXTBOOK.length >= 15, `only ${TEXTBOOK.length} transcripts name the textbook`);
});

test("shipped replay: a transcript that does not name the edition is refused for it (exit 2), not passed", async () => {
  const other = files.find((file) => !TEXTBOOK.includes(file))!;
  const { code } = await replay(other, "textbook");
  assert.equal(code, 2);
});

test("shipped replay: README's first screen says how many transcripts hold for the textbook", () => {
  const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
  assert.equal(Number(/the (\d+) that say `# editions: textbook production`/.exec(readme)?.[1]), TEXTBOOK.length);
});
