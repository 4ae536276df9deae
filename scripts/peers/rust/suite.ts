// The Rust peer: the official Rust SDK, rmcp (pinned in Cargo.toml, locked in Cargo.lock), as one
// small program, rmcp-peer, with a client (their-client.ts drives it against our servers) and a
// server (their-server.ts drives our CLI against it). Built with cargo into the suite's cache:
// CARGO_HOME (the crates) and CARGO_TARGET_DIR (the build) are both there, nothing in this tree.
// A debug build: on this project's 2-core machines it compiles faster than --release, and a
// test peer has no need of speed.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand, tailOf, type PeerContext, type PeerSuite } from "../harness.js";
import { theirClient } from "./their-client.js";
import { theirServer } from "./their-server.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));

function cargoEnv(ctx: PeerContext): NodeJS.ProcessEnv {
  return { ...process.env, CARGO_HOME: join(ctx.cacheDir, "cargo-home"), CARGO_TARGET_DIR: join(ctx.cacheDir, "target") };
}

const binaryIn = (ctx: PeerContext) => join(ctx.cacheDir, "target", "debug", "rmcp-peer");

export const suite: PeerSuite = {
  name: "rust",
  language: "rust",
  async install(ctx) {
    // cargo itself decides what is fresh: a warm cache rebuilds nothing.
    const built = await runCommand("cargo", ["build", "--locked", "--manifest-path", join(HERE, "Cargo.toml")], { env: cargoEnv(ctx), timeoutMs: 60 * 60_000 });
    if (built.code !== 0 || !existsSync(binaryIn(ctx))) throw new Error(`cargo build failed (exit ${built.code}):\n${tailOf(built.stderr, 30)}`);
  },
  async run(ctx) {
    await theirClient(ctx, binaryIn(ctx));
    await theirServer(ctx, binaryIn(ctx));
  },
};
