// The files that `npm test`'s coverage leaves out besides mcp/ are the ones that hold types only:
// they compile to an empty module, which would count as lines never run. A file listed there that
// gains code, or a code file added to the list, fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/tour.js";

const script = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.test as string;

test("coverage: every file left out as types-only holds no code", () => {
  const listed = /--exclude 'src\/\{([^}]+)\}\.ts'/.exec(script)?.[1]?.split(",") ?? [];
  assert.ok(listed.length > 0, "the test script lists no types-only files");
  for (const name of listed) {
    const code = readFileSync(join(ROOT, "src", `${name}.ts`), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "").replace(/^\s*import type [^;]+;/gm, "")
      .replace(/^\s*export type \{[^}]*\} from [^;]+;/gm, "");
    assert.doesNotMatch(code, /^\s*(export\s+)?(const|let|var|function|class|enum)\b|^\s*import\s+(?!type\b)|^\s*export\s+\{/m, `src/${name}.ts has code`);
    assert.ok(script.includes(`dist/{${listed.join(",")}}.js`), "the dist side lists the same files");
  }
});
