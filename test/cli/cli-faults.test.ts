// The built CLI against servers that misbehave or are asked the impossible: a request timeout that
// must end the process while the server stalls, and failures that must name their step.
// Run `npm run build` first: these tests spawn the built CLI.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ExitCode } from "../../src/cli/output.js";
import { initializeResult, json, routine, scriptedServer } from "../helpers/scripted-http.js";
import { runCli } from "./program.js";

/** A run still going after 15 s is killed and fails the test: that is the hang. */
const run = (args: string[]) => runCli(args, 15_000);

describe("cli program, faults", { concurrency: 2 }, () => {
  test("--timeout ends the run when the server never answers the POST (nor the cancel)", async () => {
    const server = await scriptedServer((seen, response) => {
      if (seen.rpc === "tools/call" || seen.rpc === "notifications/cancelled") return;
      if (routine(seen, response)) return;
      json(response, initializeResult(seen.body!.id), { "mcp-session-id": "s1" });
    });
    try {
      const result = await run(["--url", server.url, "--timeout", "300", "call", "slow", "{}"]);
      assert.equal(result.code, ExitCode.failed, result.stderr);
      assert.match(result.stderr, /^mcp-wire: tools\/call failed: no response after 300 ms/m);
    } finally {
      await server.close();
    }
  });

  test("--handshake-timeout ends the run when the server opens the stream and never answers initialize", async () => {
    const server = await scriptedServer((seen, response) => {
      if (seen.rpc === "initialize") return void response.writeHead(200, { "content-type": "text/event-stream" }).flushHeaders();
      routine(seen, response);
    });
    try {
      const result = await run(["--url", server.url, "--handshake-timeout", "300", "ping"]);
      assert.equal(result.code, ExitCode.failed, result.stderr);
      assert.match(result.stderr, /^mcp-wire: handshake timed out after 300 ms/m);
    } finally {
      await server.close();
    }
  });

  test("a result nested too deeply to print fails its step by name, with exit 1", async () => {
    const depth = 200_000;
    const server = await scriptedServer((seen, response) => {
      if (routine(seen, response)) return;
      if (seen.rpc === "initialize") return json(response, initializeResult(seen.body!.id));
      json(response, `{"jsonrpc":"2.0","id":${seen.body!.id},"result":{"content":[],"deep":${"[".repeat(depth)}${"]".repeat(depth)}}}`);
    });
    try {
      const result = await run(["--url", server.url, "call", "deep"]);
      assert.equal(result.code, ExitCode.failed, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(result.stderr, /^mcp-wire: tools\/call failed: the result is nested too deeply to print$/m);
    } finally {
      await server.close();
    }
  });

  test("--cwd naming a directory that does not exist says so, not that the command could not start", async () => {
    const result = await run(["--cwd", "/nonexistent/mcp-wire-dir", "ping", "--", process.execPath, "-e", ""]);
    assert.equal(result.code, ExitCode.failed, result.stderr);
    assert.match(result.stderr, /^mcp-wire: spawn failed: the working directory "\/nonexistent\/mcp-wire-dir" does not exist$/m);
  });
});
