// The public API: src/index.ts exports the pieces the README's reading order names, and the
// package's `exports` map is the boundary a user meets. A throwaway package that depends on this
// one (a node_modules link, no registry) resolves what the map offers and is refused the rest,
// both by Node and by TypeScript; the README imports nothing else. Needs dist/: `npm test` builds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import * as api from "../../src/index.js";

const ROOT = realpathSync(fileURLToPath(new URL("../..", import.meta.url)));
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[]; exports: Record<string, string | Record<string, string>> };

test("index: exports each layer's main pieces", () => {
  for (const name of ["decodeMessage", "encodeMessage", "RpcError", "ErrorCode", "LineDecoder", "PendingRequests", "FieldReader", "Params", "Dispatcher", "Connection", "createMemoryPair", "McpServer", "ServerConnection", "StreamTransport", "serveStdio", "validate", "checkSchema", "supports", "LATEST_PROTOCOL_VERSION", "McpClient", "StdioClientTransport", "StdioServerConnection", "traceTransport", "HandshakeTimeoutError", "HttpClientTransport", "LegacySseClientTransport",
    // Typed rows over the method table: the helpers, the readers they need, and the table's values.
    "requestRows", "notificationRows", "readClientRequestParams", "readServerRequestParams", "readClientNotification", "readServerNotification",
    "LIST_METHODS", "LOGGING_LEVELS", "ClientRequestError", "MalformedResponseError"]) {
    assert.ok(name in api, `${name} is not exported`);
  }
  assert.equal(api.LATEST_PROTOCOL_VERSION, "2025-11-25");
  assert.deepEqual([...api.SUPPORTED_PROTOCOL_VERSIONS], ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
});

// A user's typed rows, written from the public API alone: the table's types, the helper, the reader.
export const userRows = api.requestRows(api.readClientRequestParams, {
  "tools/call": ({ name }) => ({ content: [{ type: "text", text: name }] }),
} satisfies api.RequestHandlers<api.ClientRequests, api.RequestContext>);

/** A temp package whose node_modules/mcp-wire links to this checkout, as `npm install <path>` makes it. */
function withUser(run: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "mcp-wire-user-"));
  try {
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules", "mcp-wire"), "dir");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "user", type: "module", private: true }));
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What Node resolves each specifier to, from the user's package: a path under ROOT, or the error code. */
function nodeResolves(dir: string, specifiers: string[]): Record<string, string> {
  const probe = `const out = {};
for (const specifier of ${JSON.stringify(specifiers)}) {
  try { out[specifier] = new URL(import.meta.resolve(specifier)).pathname; } catch (error) { out[specifier] = error.code; }
}
process.stdout.write(JSON.stringify(out));`;
  writeFileSync(join(dir, "probe.mjs"), probe);
  const out = JSON.parse(execFileSync(process.execPath, [join(dir, "probe.mjs")], { cwd: dir, encoding: "utf8", timeout: 10_000 })) as Record<string, string>;
  return Object.fromEntries(Object.entries(out).map(([specifier, found]) => [specifier, found.startsWith("/") ? relative(ROOT, realpathSync(found)) : found]));
}

/** The declaration file TypeScript (NodeNext, as users of an ESM package compile) finds for a specifier. */
function typesResolve(dir: string, specifier: string): string | undefined {
  const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  const found = ts.resolveModuleName(specifier, join(dir, "user.ts"), options, ts.sys).resolvedModule?.resolvedFileName;
  return found && relative(ROOT, realpathSync(found));
}

test("exports: mcp-wire and mcp-wire/stdout-guard resolve to dist/, deep imports are refused (Node)", () => {
  withUser((dir) => {
    assert.deepEqual(nodeResolves(dir, ["mcp-wire", "mcp-wire/stdout-guard", "mcp-wire/package.json", "mcp-wire/dist/server/connection.js", "mcp-wire/dist/index.js", "mcp-wire/src/index.ts"]), {
      "mcp-wire": "dist/index.js",
      "mcp-wire/stdout-guard": "dist/transports/stdout-guard.js",
      "mcp-wire/package.json": "package.json",
      "mcp-wire/dist/server/connection.js": "ERR_PACKAGE_PATH_NOT_EXPORTED",
      "mcp-wire/dist/index.js": "ERR_PACKAGE_PATH_NOT_EXPORTED",
      "mcp-wire/src/index.ts": "ERR_PACKAGE_PATH_NOT_EXPORTED",
    });
  });
});

test("exports: the entry points have their types, and a deep import has none (TypeScript)", () => {
  withUser((dir) => {
    assert.equal(typesResolve(dir, "mcp-wire"), "dist/index.d.ts");
    assert.equal(typesResolve(dir, "mcp-wire/stdout-guard"), "dist/transports/stdout-guard.d.ts");
    assert.equal(typesResolve(dir, "mcp-wire/dist/server/connection.js"), undefined);
  });
});

test("exports: every file the map names is built and is shipped (under `files`)", () => {
  const targets = Object.values(manifest.exports).flatMap((target) => (typeof target === "string" ? [target] : Object.values(target)));
  for (const target of targets) {
    const path = target.replace(/^\.\//, "");
    assert.ok(existsSync(join(ROOT, path)), `${target} is missing: build first`);
    // npm always packs package.json; the rest must lie under an entry of `files`.
    assert.ok(path === "package.json" || manifest.files.some((entry) => path === entry || path.startsWith(`${entry}/`)), `${target} is not under files ${JSON.stringify(manifest.files)}`);
  }
});

test("exports: the README's examples import only what the map offers", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const imported = [...readme.matchAll(/(?:from|import)\s+["'](mcp-wire[^"']*)["']/g)].map((match) => match[1]!);
  assert.ok(imported.length > 0, "the README shows an import");
  const offered = Object.keys(manifest.exports).map((key) => key.replace(/^\./, "mcp-wire"));
  for (const specifier of imported) assert.ok(offered.includes(specifier), `README imports ${specifier}, which the exports map does not offer`);
});
