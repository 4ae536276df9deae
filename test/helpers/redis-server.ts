// A real Redis for the fleet tests: Debian's redis-server, started on a free loopback port with
// nothing written to disk, stopped after. If the binary is missing the tests skip with a note
// saying how to install it (.ci/run installs it, so CI always runs them).
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { after, before } from "node:test";
import { createClient } from "redis";
import { withinLimit } from "./http-peer.js";

export type RedisClient = ReturnType<typeof createClient>;

/** Why the Redis tests cannot run here, or undefined if they can. */
export const REDIS_MISSING = spawnSync("redis-server", ["--version"]).error
  ? "redis-server is not installed (apt-get install -y redis-server); the tests that need a real Redis are skipped"
  : undefined;

export interface RunningRedis {
  url: string;
  /** A connected client; each call makes a new one, closed by stop(). */
  client(): Promise<RedisClient>;
  stop(): Promise<void>;
}

/** A port nobody is listening on now (the OS picks it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await withinLimit("redis-server to start", new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve();
    });
    void exited.then(() => reject(new Error(`redis-server exited: ${output}`)));
  }), 20_000);
  const url = `redis://127.0.0.1:${port}`;
  const clients: RedisClient[] = [];
  return {
    url,
    async client() {
      const client = createClient({ url });
      client.on("error", () => {});
      await client.connect();
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.all(clients.map((client) => client.quit().catch(() => {})));
      child.kill();
      await exited;
    },
  };
}

/** What a fleet test file shares: one Redis with a client, and the servers to close after its tests. */
export class RedisFixture {
  redis!: RunningRedis;
  client!: RedisClient;
  readonly running: { close(): Promise<void> }[] = [];
}

/** Starts a Redis before the file's tests (unless REDIS_MISSING), and stops it and the servers in `running` after. */
export function redisFixture(): RedisFixture {
  const fixture = new RedisFixture();
  before(async () => {
    if (REDIS_MISSING) return;
    fixture.redis = await startRedis();
    fixture.client = await fixture.redis.client();
  });
  after(async () => {
    await Promise.all(fixture.running.map((served) => served.close()));
    await fixture.redis?.stop();
  });
  return fixture;
}
