// The way in (issue 20): every production file on the tools/call path (README's tour) opens by
// naming the textbook function it elaborates, and what it adds; the names must exist there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readme, section, tourStops } from "../helpers/tour.js";

const src = fileURLToPath(new URL("../../src/", import.meta.url));
const files = [...new Set(tourStops(section(readme(), "One tools/call, bytes to bytes")).map((stop) => stop.file))];

/** Whether `text` defines `name`: a function, constant, class or type, or (Class.member) a member. */
export function defines(text: string, name: string): boolean {
  const [owner, member] = name.includes(".") ? name.split(".") as [string, string] : [undefined, name];
  if (owner && !new RegExp(`\\bclass ${owner}\\b`).test(text)) return false;
  const escaped = member.replace(/[#$]/g, (c) => `\\${c}`);
  const pattern = owner ? `^\\s+(?:readonly |static |async )*${escaped}\\s*(?:[(=:<])` : `(?:function|const|class|type|interface) ${escaped}\\b`;
  return new RegExp(pattern, "m").test(text);
}

test("way in: the tour covers files, each of which opens by naming its textbook counterpart", () => {
  assert.ok(files.length >= 10, `only ${files.length} files on the tour`);
  for (const file of files) {
    const text = readFileSync(join(src, file), "utf8");
    const opening = /^\/\/ Textbook: ([^;]+?) in src\/textbook\/([\w-]+\.ts)[^;]*; this adds\b/.exec(text);
    assert.ok(opening, `${file} does not open with "// Textbook: NAME in src/textbook/FILE.ts; this adds ..."`);
    const textbook = readFileSync(join(src, "textbook", opening[2]!), "utf8");
    for (const name of opening[1]!.replace(/ \(.*\)$/, "").split(/, /)) {
      assert.ok(defines(textbook, name), `${file} names ${name}, which src/textbook/${opening[2]} does not define`);
    }
  }
});

test("way in: the name check tells a defined name from one that is not", () => {
  const text = "export class Server {\n  route: Route = () => {};\n  #call(params) {}\n}\nexport function need() {}\n";
  for (const name of ["Server.route", "Server.#call", "need", "Server"]) assert.ok(defines(text, name), name);
  for (const name of ["Server.#read", "Client.route", "needs"]) assert.ok(!defines(text, name), name);
});
