// The Go suite: the official Go SDK (github.com/modelcontextprotocol/go-sdk, pinned in go.mod)
// as a client of our servers and as a server for our client and CLI. One Go program (main.go)
// plays both roles; it is built into the cache with the machine's Go (GOPATH, GOMODCACHE and
// GOCACHE there too), never into the repository.
import type { PeerSuite } from "../harness.js";
import { recordGoldens } from "./goldens.js";
import { runTheirClient } from "./their-client.js";
import { runTheirServer } from "./their-server.js";
import { buildPeer, LANGUAGE } from "./toolchain.js";

export const suite: PeerSuite = {
  name: "go",
  language: LANGUAGE,
  async install(ctx) {
    await buildPeer(ctx.cacheDir);
  },
  async run(ctx) {
    await runTheirClient(ctx);
    await runTheirServer(ctx);
    if (ctx.record) await recordGoldens(ctx);
  },
};
