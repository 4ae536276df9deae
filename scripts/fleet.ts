// npm run fleet: the 2026-07-28 generation's promise shown end to end. nginx (Debian's, generated
// configuration, loopback only) in front of three demo processes sharing a requestState key and a
// Redis (scripts/fleet/*), driven by the official SDK v2 client and ours in both generations, an
// input round split across processes, a replayed requestState, a list change heard elsewhere, a
// stream resumed elsewhere, calls/s through 1, 2 and 3 processes, and one process SIGKILLed under
// load. One line per check; stops everything it started; exit 1 if a check failed.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/transports and
// https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { McpClient } from "../src/client/client.js";
import { StreamableHttpClientTransport } from "../src/http/client-transport.js";
import { DEFAULT_PEERS_DIR, freePort, installPeers } from "./interop-modern/peers.js";
import { listenElsewhere, ourClient, replayEverywhere, resumeElsewhere, sdkClient, splitRound } from "./fleet/checks.js";
import { runLoad, tally } from "./fleet/load.js";
import { nginxConfig, startNginx } from "./fleet/nginx.js";
import { cpuSeconds, startInstance, startRedis, stopAll, track, waitForPort, type Started } from "./fleet/processes.js";

const NAMES = ["a", "b", "c"];
const LOAD_SECONDS = 3;
const CONCURRENCY = 16;
let failed = 0;

async function check(name: string, body: () => Promise<string> | string): Promise<boolean> {
  try {
    console.log(`ok    ${name}: ${await body()}`);
    return true;
  } catch (error) {
    failed++;
    console.log(`FAIL  ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

for (const binary of ["nginx", "redis-server"]) {
  if (spawnSync("sh", ["-c", `command -v ${binary}`]).status !== 0) {
    console.log(`FAIL  ${binary} is not installed: apt-get install -y redis-server nginx`);
    process.exit(1);
  }
}
const dir = mkdtempSync(join(tmpdir(), "mcp-wire-fleet-"));
for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub));
const stopping = async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
};
process.on("SIGINT", () => void stopping().then(() => process.exit(130)));

try {
  let peers = DEFAULT_PEERS_DIR;
  await check("peers: install", async () => installPeers(peers)) || (peers = "");
  const redis = await startRedis();
  const key = randomBytes(32).toString("hex");
  const instances: Started[] = await Promise.all(NAMES.map((name) => startInstance(name, redis.port, key)));
  const origins = instances.map((instance) => `http://127.0.0.1:${instance.port}`);
  const port = await freePort();
  const sized = await Promise.all(NAMES.map(() => freePort()));
  const nginx = track("nginx", startNginx(dir, nginxConfig(dir, port, sized, NAMES.map((name, i) => ({ name, port: instances[i]!.port })))), port);
  await waitForPort(port);
  const url = `http://127.0.0.1:${port}/mcp`;
  console.log(`fleet: nginx ${url} in front of ${NAMES.map((name, i) => `${name} (${origins[i]})`).join(", ")}; redis on ${redis.port}; ${cpus().length} cores`);

  if (peers) {
    await check("SDK v2 client, 2026-07-28, through nginx", () => sdkClient(peers, "2026-07-28", url));
    await check("SDK v2 client, legacy (sessions), through nginx", () => sdkClient(peers, "legacy", url));
  }
  await check("our client, 2026-07-28, through nginx", () => ourClient(url, "2026-07-28"));
  await check("our client, 2025-11-25 (sessions), through nginx", () => ourClient(url, "2025-11-25"));
  let retry: object | undefined;
  await check("input round split across processes", async () => {
    const split = await splitRound(url);
    retry = split.retry;
    return split.detail;
  });
  if (retry) await check("replayed requestState", () => replayEverywhere(origins, retry!));
  await check("list change heard on another process", () => listenElsewhere(origins[1]!, origins[0]!));
  await check("SSE stream resumed on another process", () => resumeElsewhere(url, origins));

  // Calls/s through 1, 2 and 3 processes, and where the CPU went.
  const all = [...instances, nginx, redis];
  for (let k = 1; k <= NAMES.length; k++) {
    await check(`calls/s through ${k} process${k > 1 ? "es" : ""}`, async () => {
      const before = all.map((p) => cpuSeconds(p.child.pid!));
      const driver = process.cpuUsage();
      const load = await runLoad(`http://127.0.0.1:${sized[k - 1]}/mcp`, CONCURRENCY, LOAD_SECONDS);
      const used = all.map((p, i) => cpuSeconds(p.child.pid!) - before[i]!);
      const own = process.cpuUsage(driver);
      const counts = tally(load);
      if (counts.answers !== load.sent) throw new Error(`${load.sent - counts.answers} of ${load.sent} calls failed: ${JSON.stringify([...counts.errors])}`);
      // Share of one core each process used, and its CPU per call: the second holds however busy the machine is.
      const shares = [...used, (own.user + own.system) / 1e6];
      const cpu = [...all.map((p) => p.name), "driver"].map((name, i) => `${name} ${(shares[i]! / load.seconds * 100).toFixed(0)}% (${(shares[i]! / load.sent * 1e6).toFixed(0)} µs/call)`);
      return `${(load.sent / load.seconds).toFixed(0)} calls/s (${load.sent} tools/call in ${load.seconds.toFixed(1)} s, ${CONCURRENCY} at once, load average ${loadavg()[0]!.toFixed(1)}); CPU: ${cpu.join(", ")}`;
    });
  }

  await check("SIGKILL of one process during a load", async () => {
    let renewed = 0;
    const client = new McpClient({ name: "fleet-session", version: "1" }, { protocolVersion: "2025-11-25" });
    client.on("sessionRenewed", () => renewed++);
    const transport = new StreamableHttpClientTransport(url);
    await client.connect(transport);
    const home = transport.sessionId!.split(".")[0]!;
    const victim = instances[NAMES.indexOf(home)]!;
    const sessionOutcomes: string[] = [];
    let loading = true;
    const sessionCalls = (async () => {
      for (let i = 0; loading; i++) {
        try {
          const result = await client.callTool("add", { a: i, b: 1 });
          sessionOutcomes.push(result.isError ? "isError" : "answer");
        } catch (error) {
          sessionOutcomes.push(`error: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
    const load = await runLoad(url, 8, 4, { at: 1.5, run: () => victim.child.kill("SIGKILL") });
    loading = false;
    await sessionCalls;
    const after = transport.sessionId!.split(".")[0];
    await client.close();
    const counts = tally(load);
    const errors = [...counts.errors].map(([why, n]) => `${n}x ${why}`).join("; ") || "none";
    if (counts.hung || counts.twice || counts.unsettled || load.wrong) throw new Error(`hung ${counts.hung}, twice ${counts.twice}, unsettled ${counts.unsettled}, wrong ${load.wrong}`);
    const failedCalls = load.sent - counts.answers;
    if (failedCalls > 8) throw new Error(`${failedCalls} stateless calls failed, more than were in flight at the kill (8): ${errors}`);
    if (renewed === 0 || after === home) throw new Error(`the session on ${home} was not renewed elsewhere (now on ${after}); its calls: ${sessionOutcomes.slice(-5).join(", ")}`);
    const sessionFailed = sessionOutcomes.filter((o) => o !== "answer");
    return `killed ${home}: ${load.sent} stateless calls, ${counts.answers} answered, ${failedCalls} failed (${errors}), none hung or answered twice; ` +
      `the session on ${home} renewed on ${after} (${sessionOutcomes.length} calls, ${sessionFailed.length} failed${sessionFailed.length ? `: ${sessionFailed[0]}` : ""})`;
  });
} catch (error) {
  failed++;
  console.log(`FAIL  fleet: ${error instanceof Error ? error.stack : String(error)}`);
} finally {
  await stopping();
}
console.log(failed === 0 ? "fleet: every check passed" : `fleet: ${failed} check(s) failed`);
process.exit(failed === 0 ? 0 : 1);
