// The declarations the tarball ships compile clean in a user's project set to the strictest
// settings people use (@tsconfig/strictest's checks, and skipLibCheck off, so every shipped .d.ts
// is checked as the user's compiler reads it), under each module resolution a project may choose:
// nodenext (Node runs the output), and bundler (with module esnext, or preserve).
// The consumer is fixtures/package-consumer/consumer.ts. Needs dist/: `npm test` builds.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { pack, ROOT } from "../helpers/packed-package.js";

let dir = "";

before(() => {
  const packed = pack();
  dir = packed.dir;
  // The tarball's files as npm installs them (in package/, which npm renames to the package's name).
  mkdirSync(join(dir, "node_modules"));
  const untar = spawnSync("tar", ["-xzf", packed.tarball, "-C", join(dir, "node_modules")], { encoding: "utf8" });
  assert.equal(untar.status, 0, untar.stderr);
  renameSync(join(dir, "node_modules", "package"), join(dir, "node_modules", "mcp-wire"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  copyFileSync(join(ROOT, "fixtures", "package-consumer", "consumer.ts"), join(dir, "consumer.ts"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** @tsconfig/strictest's options, but with skipLibCheck off (it turns it on). */
const STRICTEST: ts.CompilerOptions = {
  strict: true,
  allowUnusedLabels: false,
  allowUnreachableCode: false,
  noUnusedLocals: true,
  noUnusedParameters: true,
  isolatedModules: true,
  esModuleInterop: true,
  forceConsistentCasingInFileNames: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  skipLibCheck: false,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts"],
  // Our declarations use Node's types (streams, http); the user's project has @types/node.
  types: ["node"],
  typeRoots: [join(ROOT, "node_modules", "@types")],
};

const RESOLUTIONS = [
  { name: "nodenext", module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
  { name: "bundler, module esnext", module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  { name: "bundler, module preserve", module: ts.ModuleKind.Preserve, moduleResolution: ts.ModuleResolutionKind.Bundler },
];

// TypeScript's own lib files and @types/node are parsed once for all three programs: a source
// file parsed with the same settings is the same tree (TypeScript's language service shares them so).
const parsed = new Map<string, ts.SourceFile | undefined>();

/** The errors a compiler with these options reports for the consumer and the package's declarations. */
function compile(options: ts.CompilerOptions): string[] {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, settings, ...rest) => {
    const key = `${fileName} ${JSON.stringify(settings)}`;
    if (!parsed.has(key)) parsed.set(key, read(fileName, settings, ...rest));
    return parsed.get(key);
  };
  const program = ts.createProgram([join(dir, "consumer.ts")], options, host);
  const ours = program.getSourceFiles().filter((file) => !file.fileName.includes("/node_modules/typescript/") && !file.fileName.includes("/@types/"));
  assert.ok(ours.some((file) => file.fileName.endsWith("/node_modules/mcp-wire/dist/index.d.ts")), "the consumer did not reach the package's declarations");
  // Node's and TypeScript's own declarations are theirs to keep clean; ours are every file under
  // node_modules/mcp-wire, and the consumer's use of them.
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  return diagnostics.map((diagnostic) => {
    const where = diagnostic.file ? `${diagnostic.file.fileName.slice(dir.length + 1)}(${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}): ` : "";
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  });
}

for (const { name, module, moduleResolution } of RESOLUTIONS) {
  test(`package types: a consumer compiles clean with the strictest settings and skipLibCheck off, resolving ${name}`, () => {
    assert.deepEqual(compile({ ...STRICTEST, module, moduleResolution }), []);
  });
}
