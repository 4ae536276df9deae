// Soak cases for the CLI's credentials file (issue 19, items 3, 4 and 5, and two attacks): a
// hostile authorization server's 1e400, runs that find a stale lock at once, runs refreshing at
// once at a server that rotates refresh tokens, a run SIGKILLed in the middle of a save, and a
// credentials file or directory that is a link or another's. The CLI is `node dist/cli.js`; the
// servers are the OAuth tests' stub (test/helpers/oauth-stubs.ts: the demo MCP server behind a
// bearer check, with its authorization server), on 127.0.0.1; the person's browser is played here.

import { chmod, chown, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stubAuthorization, type Stub, type StubOptions } from "../../test/helpers/oauth-stubs.js";
import { judge, ROOT, sleep, type CaseContext, type SoakCase, type Tracked } from "./harness.js";

/** The authorization URL the CLI prints for the person. */
const AUTHORIZE_URL = /\n {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)\n/;

interface CliRun {
  cli: Tracked;
  /** Sign-ins the CLI asked for (each was played to its end). */
  signIns: number;
  timedOut: boolean;
}

/**
 * Runs the CLI with its config directory at `config` until it ends (killed after `limitMs`),
 * playing the person: each authorization URL it prints is opened, and the redirect followed.
 */
async function runCli(context: CaseContext, config: string, args: string[], limitMs = 20_000): Promise<CliRun> {
  const browser = args.includes("--url") ? ["--no-browser"] : [];
  const cli = context.spawnNode("cli", ["dist/cli.js", ...browser, ...args], { env: { ...process.env, XDG_CONFIG_HOME: config } });
  const run: CliRun = { cli, signIns: 0, timedOut: false };
  const deadline = Date.now() + limitMs;
  let from = 0;
  while (cli.alive && Date.now() < deadline) {
    const match = cli.stderrText.slice(from).match(AUTHORIZE_URL);
    if (match) {
      from += match.index! + match[0].length;
      run.signIns++;
      const approved = await fetch(match[1]!, { redirect: "manual", signal: context.signal });
      await fetch(approved.headers.get("location")!, { signal: context.signal }).then((page) => page.text()).catch(() => "");
    }
    await sleep(10, context.signal);
  }
  if (cli.alive) {
    run.timedOut = true;
    cli.kill();
  }
  await cli.exited;
  return run;
}

async function scratchConfig(context: CaseContext): Promise<string> {
  const config = await mkdtemp(join(tmpdir(), "mcp-wire-soak-creds-"));
  context.onEnd(() => rm(config, { recursive: true, force: true }));
  return config;
}

async function stub(context: CaseContext, options: StubOptions = {}): Promise<Stub> {
  const started = await stubAuthorization(options);
  context.onEnd(() => started.close());
  return started;
}

const credentialsFile = (config: string) => join(config, "mcp-wire", "credentials.json");

/** The file's entries, or a reason it could not be read as JSON of ours. */
async function entries(config: string): Promise<Record<string, { issuer: string; tokens?: { expires_at?: number } }> | string> {
  try {
    const json = JSON.parse(await readFile(credentialsFile(config), "utf8"));
    return json.version === 1 && typeof json.credentials === "object" ? json.credentials : "not a credentials file";
  } catch (error) {
    return `unreadable: ${(error as Error).message.slice(0, 80)}`;
  }
}

const lastError = (run: CliRun) => run.cli.stderrText.trim().split("\n").filter((line) => line.startsWith("mcp-wire:")).at(-1)?.slice(0, 320) ?? "(none)";
const ok = (run: CliRun) => !run.timedOut && run.cli.exit?.code === 0;

export const credentialsInfinityCase: SoakCase = {
  name: "creds-infinity",
  title: "authorization servers answering expires_in 1e400 and client_secret_expires_at 1e400 (Infinity), between runs for a good server",
  bound: "each hostile sign-in fails naming the field; the good server's stored token keeps working (no second sign-in), the file stays readable",
  limitMs: 90_000,
  async run(context) {
    const config = await scratchConfig(context);
    const good = await stub(context);
    const hostile = {
      expires_in: await stub(context, { rewrite: (path, text) => (path === "/token" ? text.replace(/"expires_in":\d+/, '"expires_in":1e400') : text) }),
      client_secret_expires_at: await stub(context, { rewrite: (path, text) => (path === "/register" ? text.replace(/\}$/, ',"client_secret":"s","client_secret_expires_at":1e400}') : text) }),
    };
    const checks: [boolean, string][] = [];
    const first = await runCli(context, config, ["--url", good.url, "tools"]);
    checks.push([ok(first) && first.signIns === 1, `good server: exit ${first.cli.exit?.code}, ${first.signIns} sign-in`]);
    const rounds = context.scaled(3);
    for (let round = 0; round < rounds; round++) {
      for (const [field, server] of Object.entries(hostile)) {
        const refused = await runCli(context, config, ["--url", server.url, "tools"]);
        const named = lastError(refused).includes(`"${field}" must be`);
        if (round === 0 || !named || refused.cli.exit?.code === 0) checks.push([named && refused.cli.exit?.code === 1, `${field} 1e400: exit ${refused.cli.exit?.code}: ${lastError(refused)}`]);
        const again = await runCli(context, config, ["--url", good.url, "tools"]);
        if (round === 0 || !ok(again) || again.signIns > 0) checks.push([ok(again) && again.signIns === 0, `good server after it: exit ${again.cli.exit?.code}, ${again.signIns} sign-in(s)${ok(again) ? "" : `: ${lastError(again)}`}`]);
      }
    }
    const file = await entries(config);
    checks.push([typeof file === "object" && Object.keys(file).length >= 1, `file after ${rounds} round(s): ${typeof file === "object" ? `${Object.keys(file).length} entries, readable` : file}`]);
    return judge(checks);
  },
};

export const credentialsStaleLockCase: SoakCase = {
  name: "creds-stale-lock",
  title: "a lock left by a run that died, then sign-ins to many servers at once (each run saves its registration and tokens)",
  bound: "every run ends 0 and the file holds every run's entry, in every round",
  limitMs: 150_000,
  async run(context) {
    const count = context.scaled(10, 4);
    const servers = await Promise.all(Array.from({ length: count }, () => stub(context)));
    const checks: [boolean, string][] = [];
    const rounds = context.scaled(3);
    let lost = 0;
    let failed = 0;
    for (let round = 0; round < rounds; round++) {
      const config = await scratchConfig(context);
      await mkdir(join(config, "mcp-wire"), { mode: 0o700 });
      // As an old run leaves it, a minute ago: an empty lock file.
      const lock = `${credentialsFile(config)}.lock`;
      await writeFile(lock, "");
      await utimes(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      const runs = await Promise.all(servers.map((server) => runCli(context, config, ["--url", server.url, "tools"], 40_000)));
      failed += runs.filter((run) => !ok(run)).length;
      const file = await entries(config);
      const kept = typeof file === "object" ? Object.keys(file).length : 0;
      lost += count - kept;
      if (round === 0 || kept !== count) checks.push([kept === count, `round ${round}: ${kept} of ${count} entries kept${typeof file === "string" ? ` (${file})` : ""}`]);
    }
    checks.push([failed === 0, `${failed} of ${count * rounds} runs failed`], [lost === 0, `${lost} entries lost in ${rounds} round(s) of ${count} runs`]);
    return judge(checks);
  },
};

export const credentialsRefreshCase: SoakCase = {
  name: "creds-refresh",
  title: "ten runs at once whose tokens have expired, at an authorization server that rotates refresh tokens (each works once)",
  bound: "no run asks the person to sign in again, none fails; one refresh per round",
  limitMs: 150_000,
  async run(context) {
    const server = await stub(context, { rotateRefresh: true });
    const config = await scratchConfig(context);
    const first = await runCli(context, config, ["--url", server.url, "tools"]);
    const checks: [boolean, string][] = [[ok(first) && first.signIns === 1, `first run: exit ${first.cli.exit?.code}, ${first.signIns} sign-in`]];
    const rounds = context.scaled(4, 2);
    const count = 10;
    let signIns = 0;
    let failed = 0;
    for (let round = 0; round < rounds; round++) {
      // Every stored access token expired long ago: each run must renew before its first request.
      const path = credentialsFile(config);
      const json = JSON.parse(await readFile(path, "utf8"));
      for (const entry of Object.values(json.credentials) as { tokens?: { expires_at?: number } }[]) if (entry.tokens) entry.tokens.expires_at = 1000;
      await writeFile(path, JSON.stringify(json));
      const runs = await Promise.all(Array.from({ length: count }, () => runCli(context, config, ["--url", server.url, "tools"], 40_000)));
      signIns += runs.reduce((sum, run) => sum + run.signIns, 0);
      failed += runs.filter((run) => !ok(run)).length;
    }
    const refreshes = server.tokenRequests.filter((form) => form.get("grant_type") === "refresh_token").length;
    checks.push([signIns === 0, `${signIns} sign-ins in ${rounds} round(s) of ${count} runs`], [failed === 0, `${failed} runs failed`],
      [refreshes === rounds, `${refreshes} refreshes for ${rounds} round(s)`]);
    return judge(checks);
  },
};

/** A node program saving entries in a loop with the built store, printing each index when saved. */
const SAVING_LOOP = `import { FileCredentialStore } from ${JSON.stringify(new URL("dist/auth/file-store.js", `file://${ROOT}`).href)};
const store = new FileCredentialStore({ path: process.argv[1] });
for (let i = 0; ; i++) {
  await store.save({ issuer: "https://as" + i + ".example", resource: "https://mcp.example/mcp", tokens: { access_token: "t" + i, token_type: "Bearer", refresh_token: "r".repeat(8192) } });
  process.stderr.write("saved " + i + "\\n");
}`;

export const credentialsSigkillCase: SoakCase = {
  name: "creds-sigkill",
  title: "a run SIGKILLed in the middle of saving the credentials file, again and again, each time at another moment",
  bound: "the file is always whole (old or new content) with every completed save; the next CLI run (logout) is not held up by the dead run's lock",
  limitMs: 120_000,
  async run(context) {
    const config = await scratchConfig(context);
    const path = credentialsFile(config);
    const kills = context.scaled(24, 8);
    let broken = 0;
    let missing = 0;
    let wedged = 0;
    let leftovers = 0;
    let killedHolding = 0;
    const lockFiles = async () => (await readdir(join(config, "mcp-wire")).catch(() => [] as string[])).filter((name) => name.endsWith(".lock")).length;
    for (let kill = 0; kill < kills; kill++) {
      const saver = context.spawnNode("saver", ["--input-type=module", "-e", SAVING_LOOP, path]);
      // Killed after some saves, a little later each time: mid-write, mid-rename, holding the lock.
      await saver.awaitStderr(/saved \d+\n/, 10_000);
      await sleep(kill % 7, context.signal);
      saver.kill();
      await saver.exited;
      if ((await lockFiles()) > 0) killedHolding++;
      const completed = [...saver.stderrText.matchAll(/saved (\d+)\n/g)].map((match) => `https://as${match[1]}.example`);
      const file = await entries(config);
      if (typeof file === "string") broken++;
      else {
        const issuers = new Set(Object.values(file).map((entry) => entry.issuer));
        missing += completed.filter((issuer) => !issuers.has(issuer)).length;
      }
      // logout changes the file under the lock; its wait is 5 s, the dead run's lock 30 s from stale by age.
      const logout = await runCli(context, config, ["logout", "https://mcp.example/mcp"], 15_000);
      if (!ok(logout)) wedged++;
      leftovers = Math.max(leftovers, await lockFiles());
    }
    return judge([
      [broken === 0, `${broken} of ${kills} kills left a file that is not whole`],
      [missing === 0, `${missing} completed saves missing`],
      [wedged === 0, `${wedged} of ${kills} following runs held up by the lock (${killedHolding} kills left it held)`],
      [leftovers === 0, `${leftovers} lock file(s) left after the following run`],
    ]);
  },
};

export const credentialsPlaceCase: SoakCase = {
  name: "creds-place",
  title: "the credentials file as a symbolic link, its directory (or the directory's parent) writable by others or another user's (as root: file and directory given away)",
  bound: "every run refuses, naming the problem, exit 1; nothing is written through the link or into the directory",
  limitMs: 60_000,
  async run(context) {
    const server = await stub(context);
    const checks: [boolean, string][] = [];
    const refuses = async (label: string, config: string, saying: RegExp) => {
      for (const args of [["--url", server.url, "tools"], ["logout", server.url]]) {
        const run = await runCli(context, config, args);
        checks.push([run.cli.exit?.code === 1 && saying.test(lastError(run)) && run.signIns === 0, `${label} (${args[0]}): exit ${run.cli.exit?.code}, ${run.signIns} sign-in(s): ${lastError(run)}`]);
      }
    };
    // A link to a file of ours elsewhere: would be read from and written over.
    const linked = await scratchConfig(context);
    await mkdir(join(linked, "mcp-wire"), { mode: 0o700 });
    const target = join(linked, "elsewhere.json");
    await writeFile(target, JSON.stringify({ version: 1, credentials: {} }), { mode: 0o600 });
    await symlink(target, credentialsFile(linked));
    await refuses("file is a symlink", linked, /is a symbolic link; refusing to use it/);
    const untouched = (await readFile(target, "utf8")) === JSON.stringify({ version: 1, credentials: {} }) && (await readlink(credentialsFile(linked))) === target;
    checks.push([untouched, untouched ? "the link and its target untouched" : "the link or its target was changed"]);
    const open = await scratchConfig(context);
    await mkdir(join(open, "mcp-wire"));
    await chmod(join(open, "mcp-wire"), 0o777);
    await refuses("directory mode 777", open, /is writable by other users \(mode 777\)/);
    // A parent every user may write to (not sticky): the directory itself could be swapped.
    const parent = await scratchConfig(context);
    await mkdir(join(parent, "mcp-wire"), { mode: 0o700 });
    await chmod(parent, 0o777);
    await refuses("parent mode 777", parent, /which every user may write to \(mode 777\)/);
    if (process.getuid?.() === 0) {
      const given = await scratchConfig(context);
      await mkdir(join(given, "mcp-wire"), { mode: 0o700 });
      await chown(join(given, "mcp-wire"), 65534, 65534);
      await refuses("directory of uid 65534", given, /belongs to another user \(uid 65534\)/);
      const file = await scratchConfig(context);
      await mkdir(join(file, "mcp-wire"), { mode: 0o700 });
      await writeFile(credentialsFile(file), JSON.stringify({ version: 1, credentials: {} }), { mode: 0o600 });
      await chown(credentialsFile(file), 65534, 65534);
      await refuses("file of uid 65534", file, /credentials file .* belongs to another user \(uid 65534\)/);
    }
    return judge(checks);
  },
};
