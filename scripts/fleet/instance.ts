// One process of the fleet `npm run fleet` starts: the demo server over Streamable HTTP, named
// (--instance), with the fleet's requestState key (MCP_WIRE_REQUEST_STATE_KEY) and the three
// shared stores in the Redis at REDIS_URL, over the `redis` package (a devDependency: the library
// takes any client with the commands of src/fleet/redis-commands.ts). Prints its origin on stderr.
// Usage: tsx scripts/fleet/instance.ts --instance NAME --port N   (REDIS_URL, MCP_WIRE_REQUEST_STATE_KEY in the environment)
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports

import { createClient } from "redis";
import { createDemoServer } from "../../src/demo/server-definition.js";
import { readRequestStateKey } from "../../src/fleet/request-state-key.js";
import { RedisStateUses } from "../../src/fleet/redis-state-uses.js";
import { RedisChangeFanout } from "../../src/fleet/redis-change-fanout.js";
import { RedisEventLog } from "../../src/fleet/redis-event-log.js";
import { McpHttpServer } from "../../src/http/server.js";

const args = process.argv.slice(2);
const flag = (name: string): string => {
  const at = args.indexOf(name);
  if (at < 0 || args[at + 1] === undefined) throw new Error(`instance: ${name} is required`);
  return args[at + 1]!;
};
const instance = flag("--instance");
const port = Number(flag("--port"));
const onProblem = (message: string) => process.stderr.write(`fleet ${instance}: ${message}\n`);

const redis = createClient({ url: process.env.REDIS_URL });
redis.on("error", (error: Error) => onProblem(`redis: ${error.message}`));
await redis.connect();
const subscriber = redis.duplicate();
subscriber.on("error", (error: Error) => onProblem(`redis subscriber: ${error.message}`));
await subscriber.connect();

const changes = new RedisChangeFanout(redis, subscriber, { onProblem });
const server = createDemoServer({ requestState: { key: readRequestStateKey({}), sharedUses: new RedisStateUses(redis) }, changes });
await changes.ready;
const http = new McpHttpServer(server, { instance, sharedEvents: new RedisEventLog(redis, { onProblem }), onProblem });
const listening = await http.listen({ port, host: "127.0.0.1" });
process.stderr.write(`fleet ${instance}: listening ${listening.origin}\n`);
process.on("SIGTERM", () => void http.close().then(() => listening.close()).then(() => process.exit(0)));
