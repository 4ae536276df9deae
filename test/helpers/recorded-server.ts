// A stdio MCP server that is only a recording: it plays the server side of a session that our CLI
// had with a foreign server (fixtures/peers/*/, `# direction: their server`), so npm test can check
// that our client still says the same things to it without that server installed.
// Usage: node --import tsx test/helpers/recorded-server.ts RECORDING HEARD
// Each line it hears is matched to the next line the recording's client sent; what the server sent
// after that line, up to the client's next one, goes back. What it heard is written to HEARD (one
// line each, as it came) for the test to compare; a line the recording does not have ends it with 3.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseRecording } from "../../src/recordings/recording.js";

const [file, heard] = process.argv.slice(2);
if (!file || !heard) {
  process.stderr.write("usage: recorded-server.ts RECORDING HEARD\n");
  process.exit(2);
}
const entries = parseRecording(readFileSync(file, "utf8"), file).entries;
writeFileSync(heard, "");

let next = 0;
/** The server's lines up to the client's next one, from `next` on. */
function serverLinesFrom(): string[] {
  const lines: string[] = [];
  while (next < entries.length && entries[next]!.dir === "s2c") lines.push(entries[next++]!.text);
  return lines;
}

for (const line of serverLinesFrom()) process.stdout.write(`${line}\n`);
const input = createInterface({ input: process.stdin });
input.on("line", (line) => {
  appendFileSync(heard, `${line}\n`);
  if (next >= entries.length) {
    process.stderr.write(`recorded-server: the recording has no client line left for: ${line.slice(0, 200)}\n`);
    process.exit(3);
  }
  next++; // the client line this one stands for; the test compares the two
  for (const answer of serverLinesFrom()) process.stdout.write(`${answer}\n`);
});
input.on("close", () => process.exit(0));
