// The sessions recorded with peers in other languages (fixtures/peers/<suite>/, written by
// `npm run interop:peers -- --record`), replayed without those peers, so CI keeps the agreement
// with no Java, Python, Go or Rust installed:
// - `# direction: their client`: a foreign client's session with our server, replayed by the
//   shipped `mcp-wire replay` against a fresh server (the file's own `# command:` over stdio, or
//   that command with --http for `# transport: http`); it must match (exit 0).
// - `# direction: their server`: our CLI's session with a foreign server. The CLI runs again, as
//   `# drive:` says, against test/helpers/recorded-server.ts playing that server's side, and must
//   send what it sent then (ids included; `# ignore:` pointers aside) and exit as `# exit:` says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compareValues, DEFAULT_IGNORE, formatDifference } from "../../src/recordings/compare.js";
import { parseRecording, splitArguments, type Recording } from "../../src/recordings/recording.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const fixtures = join(root, "fixtures", "peers");
const cli = join(root, "dist", "cli.cjs");
const suites = readdirSync(join(root, "scripts", "peers"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, "scripts", "peers", entry.name, "suite.ts")))
  .map((entry) => entry.name);
const files = suites.flatMap((suite) => existsSync(join(fixtures, suite))
  ? readdirSync(join(fixtures, suite)).filter((name) => name.endsWith(".recording")).sort().map((name) => join(suite, name))
  : []);

/** A `# key: value` line of the header that the recording reader keeps as prose. */
function field(recording: Recording, key: string): string | undefined {
  const prefix = `# ${key}: `;
  return recording.header.lines.find((line) => line.startsWith(prefix))?.slice(prefix.length).trim();
}

interface Ran { code: number | null; stdout: string; stderr: string }

function run(command: string, args: string[], timeoutMs = 60_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

/** Starts the recording's server over Streamable HTTP on a free port; resolves with its URL. */
function serveHttp(recording: Recording): Promise<{ url: string; stop: () => void }> {
  const [command, ...words] = splitArguments(recording.header.command ?? "");
  assert.ok(command, "an HTTP recording names its server with # command:");
  const child = spawn(command, [...words, "--http", "--port", "0", "--host", "127.0.0.1", ...recording.header.args], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let said = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      said += chunk;
      const url = /Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(said)?.[1];
      if (url) resolve({ url, stop: () => child.kill() });
    });
    child.on("exit", (code) => reject(new Error(`the server exited (${code}) before listening: ${said}`)));
  });
}

test("peers: every suite under scripts/peers/ has recorded sessions in fixtures/peers/", () => {
  for (const suite of suites) assert.ok(files.some((file) => file.startsWith(`${suite}/`)), `fixtures/peers/${suite}/ holds no .recording`);
});

for (const file of files) {
  test(`peer session: ${file}`, async () => {
    const path = join(fixtures, file);
    const recording = parseRecording(readFileSync(path, "utf8"), path);
    assert.match(field(recording, "peer") ?? "", /^\S.* \S+ \((python|go|java|rust)\)$/, "# peer: NAME VERSION (LANGUAGE)");
    const direction = field(recording, "direction");
    if (direction === "their client") {
      assert.ok(!recording.header.command?.includes("/work/"), "# command: is relative to the project");
      if (recording.header.transport === "http") {
        const server = await serveHttp(recording);
        try {
          const replayed = await run("node", [cli, "replay", path, "--url", server.url]);
          assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
        } finally {
          server.stop();
        }
      } else {
        const replayed = await run("node", [cli, "replay", path]);
        assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
      }
      return;
    }
    assert.equal(direction, "their server", "# direction: their client | their server");
    const drive = splitArguments(field(recording, "drive") ?? "");
    assert.ok(drive.length > 0, "# drive: names the CLI's words");
    const scratch = mkdtempSync(join(tmpdir(), "mcp-wire-peer-golden-"));
    try {
      const heard = join(scratch, "heard");
      const ran = await run("node", [cli, ...drive, "--", process.execPath, "--import", "tsx", join(root, "test", "helpers", "recorded-server.ts"), path, heard]);
      assert.equal(String(ran.code), field(recording, "exit") ?? "0", ran.stdout + ran.stderr);
      const sent = readFileSync(heard, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as unknown);
      const expected = recording.entries.filter((entry) => entry.dir === "c2s").map((entry) => entry.message);
      const differences = compareValues(expected, sent, [...DEFAULT_IGNORE, ...recording.header.ignore].map((pointer) => `/*${pointer}`));
      assert.deepEqual(differences.map(formatDifference), []);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
}
