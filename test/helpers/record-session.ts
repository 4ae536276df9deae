// A session file for the tests of `record --listen`'s body handling (test/recordings/record-http-*.test.ts):
// a Recorder that writes straight to it, and its session lines read back without their times.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionFile } from "../../src/recordings/record-file.js";
import type { Recorder } from "../../src/recordings/record-http-body.js";

const dir = mkdtempSync(join(tmpdir(), "mcp-wire-record-session-"));

/** A session file named `name`; read() closes it and gives its "#", ">" and "<" lines ("+MS" left out). */
export function session(name: string): { record: Recorder; read: () => string[] } {
  const path = join(dir, `${name}.recording`);
  const file = new SessionFile(path, { transport: "http" });
  return {
    record: (write) => file.record(() => write(file)),
    read: () => (file.close(), readFileSync(path, "utf8").split("\n").filter((line) => /^(#|[<>]) /.test(line) && !line.startsWith("# transport")).map((line) => line.replace(/ \+\d+ /, " "))),
  };
}
