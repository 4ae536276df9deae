// The Spring AI chapter's peers (issue 23): Spring AI 1.1.2 on the MCP Java SDK 0.17.0, Java 17.
// One Maven project (pom.xml, one jar in the cache) holds the three of them: the MCP Java SDK client
// and the Spring AI client starter against our servers (their-clients.ts), and a Spring AI server
// that our CLI drives (spring-server.ts).
import type { PeerSuite } from "../harness.js";
import { buildJar, jarIn } from "./build.js";
import { theirClients } from "./their-clients.js";
import { theirServer } from "./spring-server.js";

export const suite: PeerSuite = {
  name: "java-spring",
  language: "java",
  install: (ctx) => buildJar(ctx.cacheDir),
  async run(ctx) {
    const jar = jarIn(ctx.cacheDir);
    await theirClients(ctx, jar);
    await theirServer(ctx, jar);
  },
};
