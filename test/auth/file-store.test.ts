import { test } from "node:test";
import assert from "node:assert/strict";
import { chmod, chown, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CredentialFileError, defaultCredentialsPath, FileCredentialStore } from "../../src/auth/file-store.js";
import type { StoredCredentials } from "../../src/auth/credentials.js";

const posix = process.platform !== "win32";

async function scratch(): Promise<{ dir: string; path: string; done: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-wire-store-"));
  return { dir, path: join(dir, "config", "mcp-wire", "credentials.json"), done: () => rm(dir, { recursive: true, force: true }) };
}

const ENTRY: StoredCredentials = {
  issuer: "https://as.example",
  resource: "https://mcp.example/mcp",
  client: { client_id: "client-1", client_secret: "SECRET-client" },
  tokens: { access_token: "SECRET-access", token_type: "Bearer", refresh_token: "SECRET-refresh", expires_at: 1_900_000_000_000 },
};

test("defaultCredentialsPath: XDG_CONFIG_HOME if absolute, else ~/.config; %APPDATA% on Windows", () => {
  assert.equal(defaultCredentialsPath({ XDG_CONFIG_HOME: "/x/conf" }, "linux", "/home/u"), "/x/conf/mcp-wire/credentials.json");
  assert.equal(defaultCredentialsPath({ XDG_CONFIG_HOME: "relative" }, "linux", "/home/u"), "/home/u/.config/mcp-wire/credentials.json");
  assert.equal(defaultCredentialsPath({}, "darwin", "/Users/u"), "/Users/u/.config/mcp-wire/credentials.json");
  assert.match(defaultCredentialsPath({ APPDATA: "C:\\Users\\u\\AppData\\Roaming" }, "win32", "C:\\Users\\u"), /AppData.Roaming.mcp-wire.credentials\.json$/);
});

test("file store: saves, loads by issuer and resource, removes; a fresh store finds nothing", async () => {
  const { path, done } = await scratch();
  try {
    const store = new FileCredentialStore({ path });
    assert.equal(await store.load(ENTRY), undefined);
    await store.save(ENTRY);
    // Another instance (another run) reads what this one wrote.
    assert.deepEqual(await new FileCredentialStore({ path }).load(ENTRY), ENTRY);
    assert.equal(await store.load({ issuer: "https://other.example", resource: ENTRY.resource }), undefined);
    await store.remove(ENTRY);
    assert.equal(await store.load(ENTRY), undefined);
    // staleLockMs: how old a lock must be to be taken over.
    await writeFile(`${path}.lock`, "");
    await new Promise((resolve) => setTimeout(resolve, 20));
    await new FileCredentialStore({ path, lockTimeoutMs: 50, staleLockMs: 5 }).save(ENTRY);
    assert.ok(await store.load(ENTRY));
  } finally {
    await done();
  }
});

test("file store: the directory is made 0700 and the file 0600; no temp or lock file is left", { skip: !posix }, async () => {
  const { path, done } = await scratch();
  try {
    await new FileCredentialStore({ path }).save(ENTRY);
    assert.equal((await stat(join(path, ".."))).mode & 0o777, 0o700);
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.deepEqual(await readdir(join(path, "..")), ["credentials.json"]);
  } finally {
    await done();
  }
});

test("file store: a file readable by others is refused, naming the path and the fix, and left as it is", { skip: !posix }, async () => {
  const { path, done } = await scratch();
  try {
    const store = new FileCredentialStore({ path });
    await store.save(ENTRY);
    await chmod(path, 0o644);
    for (const attempt of [() => store.load(ENTRY), () => store.save(ENTRY)]) {
      await assert.rejects(attempt(), (e: unknown) => e instanceof CredentialFileError && e.message.includes(path) && /readable by other users \(mode 644\)/.test(e.message) && /chmod 600/.test(e.message));
    }
    assert.equal((await stat(path)).mode & 0o777, 0o644);
  } finally {
    await done();
  }
});

// Review I2: whoever may write to the directory may put a file of theirs in the credentials file's place.
test("file store: a directory writable by others is refused, naming it and the fix; nothing is written in it", { skip: !posix }, async () => {
  const { path, done } = await scratch();
  const directory = join(path, "..");
  try {
    const store = new FileCredentialStore({ path });
    await store.save(ENTRY);
    for (const mode of [0o777, 0o720, 0o1777]) {
      await chmod(directory, mode);
      for (const attempt of [() => store.load(ENTRY), () => store.save(ENTRY), () => store.remove(ENTRY)]) {
        await assert.rejects(attempt(), (e: unknown) => e instanceof CredentialFileError &&
          e.message === `credentials directory ${directory} is writable by other users (mode ${(mode & 0o777).toString(8)}); refusing to use it: they could replace the credentials file. Run chmod 700 on it`);
      }
      assert.deepEqual(await readdir(directory), ["credentials.json"], "no lock or temporary file was made");
    }
    await chmod(directory, 0o700);
    assert.deepEqual(await store.load(ENTRY), ENTRY, "once fixed, the file is used again");
  } finally {
    await done();
  }
});

// Only root can give a directory to another user; elsewhere this test has nothing to arrange.
test("file store: a directory another user owns is refused, naming it and its owner", { skip: !posix || process.getuid?.() !== 0 }, async () => {
  const { path, done } = await scratch();
  const directory = join(path, "..");
  try {
    const store = new FileCredentialStore({ path });
    await store.save(ENTRY);
    await chown(directory, 65534, 65534);
    for (const attempt of [() => store.load(ENTRY), () => store.save(ENTRY)]) {
      await assert.rejects(attempt(), (e: unknown) => e instanceof CredentialFileError &&
        e.message === `credentials directory ${directory} belongs to another user (uid 65534); refusing to use it: they could replace the credentials file. Use a directory of your own (chown it, or delete it)`);
    }
  } finally {
    await done();
  }
});

test("file store: a directory that cannot be made is an error naming the file", async () => {
  const { dir, done } = await scratch();
  try {
    await writeFile(join(dir, "a-file"), "");
    const store = new FileCredentialStore({ path: join(dir, "a-file", "mcp-wire", "credentials.json") });
    await assert.rejects(store.save(ENTRY), (e: unknown) => e instanceof CredentialFileError && /could not make its directory \((ENOTDIR|EEXIST)\)/.test(e.message));
  } finally {
    await done();
  }
});

test("file store: a corrupt file is an error naming the path, never showing its content", async () => {
  const { path, done } = await scratch();
  try {
    const store = new FileCredentialStore({ path });
    await store.save(ENTRY);
    const key = JSON.stringify([ENTRY.issuer, ENTRY.resource]);
    // Review I2: entries of the right keys whose client or tokens have the wrong types.
    const entry = (fields: object) => JSON.stringify({ version: 1, credentials: { [key]: { issuer: ENTRY.issuer, resource: ENTRY.resource, ...fields } } });
    const cases = ['{"version":1,"credentials":{"SECRET-in-file"', '{"version":2,"credentials":{}}', '{"version":1,"credentials":{"[\\"a\\",\\"b\\"]":{"issuer":"SECRET-x","resource":"b"}}}', "[]",
      entry({ tokens: { access_token: { SECRET: 1 }, token_type: "Bearer" } }),
      entry({ tokens: { access_token: "SECRET-a", token_type: "Bearer", expires_at: "soon" } }),
      entry({ tokens: { access_token: "SECRET-a", token_type: "Bearer", refresh_token: 7 } }),
      entry({ tokens: { access_token: "SECRET-a" } }),
      entry({ tokens: "SECRET-a" }),
      entry({ client: { client_secret: "SECRET-c" } }),
      entry({ client: { client_id: "c", client_secret: ["SECRET-c"] } }),
      entry({ client: { client_id: "c", issuer: 1 } }),
      entry({ client: { client_id: "c", client_secret_expires_at: "never" } }),
      entry({ client: { client_id: "c", redirect_uris: "http://127.0.0.1/callback" } }),
      entry({ client: null }),
    ];
    for (const text of cases) {
      await writeFile(path, text, { mode: 0o600 });
      await assert.rejects(store.load(ENTRY), (e: unknown) => e instanceof CredentialFileError && e.message.includes(path) && !e.message.includes("SECRET") && /delete it/.test(e.message), text);
    }
    // Every field credentials.ts declares, of its type: read as it was written.
    const full = { ...ENTRY, client: { ...ENTRY.client!, issuer: ENTRY.issuer, client_secret_expires_at: 0, token_endpoint_auth_method: "client_secret_basic", redirect_uris: ["http://127.0.0.1:1/callback"] }, tokens: { ...ENTRY.tokens!, scope: "a b" } };
    await writeFile(path, entry({ client: full.client, tokens: full.tokens }), { mode: 0o600 });
    assert.deepEqual(await store.load(ENTRY), full);
  } finally {
    await done();
  }
});

test("file store: many concurrent saves (separate stores, as separate runs) lose none and leave valid JSON", async () => {
  const { path, done } = await scratch();
  try {
    const saves = Array.from({ length: 12 }, (_, i) =>
      new FileCredentialStore({ path }).save({ issuer: `https://as${i}.example`, resource: ENTRY.resource, tokens: { access_token: `t${i}`, token_type: "Bearer" } }));
    await Promise.all(saves);
    const file = JSON.parse(await readFile(path, "utf8"));
    assert.equal(Object.keys(file.credentials).length, 12);
    assert.deepEqual(await readdir(join(path, "..")), ["credentials.json"]);
  } finally {
    await done();
  }
});

test("file store: a lock held by a live run makes a change wait, then fail clearly; a stale one is taken over", async () => {
  const { path, done } = await scratch();
  try {
    const store = new FileCredentialStore({ path, lockTimeoutMs: 50 });
    await store.save(ENTRY);
    await writeFile(`${path}.lock`, "");
    await assert.rejects(store.save(ENTRY), (e: unknown) => e instanceof CredentialFileError && /held the lock/.test(e.message) && e.message.includes(`${path}.lock`));
    // A lock a minute old was left by a run that died.
    const { utimes } = await import("node:fs/promises");
    const old = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, old, old);
    await store.remove(ENTRY);
    assert.equal(await store.load(ENTRY), undefined);
    // staleLockMs: how old a lock must be to be taken over.
    await writeFile(`${path}.lock`, "");
    await new Promise((resolve) => setTimeout(resolve, 20));
    await new FileCredentialStore({ path, lockTimeoutMs: 50, staleLockMs: 5 }).save(ENTRY);
    assert.ok(await store.load(ENTRY));
  } finally {
    await done();
  }
});

test("file store: removeResource forgets every issuer's entry for a resource (logout), and only those", async () => {
  const { path, done } = await scratch();
  try {
    const store = new FileCredentialStore({ path });
    await store.save(ENTRY);
    await store.save({ ...ENTRY, issuer: "https://as2.example" });
    await store.save({ ...ENTRY, resource: "https://other.example/mcp" });
    // The origin as the resource: its tokens reach /mcp too. A sibling path and a longer name do not.
    await store.save({ ...ENTRY, issuer: "https://as3.example", resource: "https://mcp.example" });
    await store.save({ ...ENTRY, resource: "https://mcp.example/mcp2" });
    await store.save({ ...ENTRY, resource: "https://mcp.example/other" });
    const removed = await store.removeResource("https://mcp.example/mcp/");
    assert.deepEqual(removed.map((key) => key.issuer).sort(), ["https://as.example", "https://as2.example", "https://as3.example"]);
    assert.ok(await store.load({ issuer: ENTRY.issuer, resource: "https://mcp.example/mcp2" }));
    assert.ok(await store.load({ issuer: ENTRY.issuer, resource: "https://mcp.example/other" }));
    assert.equal(await store.load(ENTRY), undefined);
    assert.ok(await store.load({ issuer: ENTRY.issuer, resource: "https://other.example/mcp" }));
    assert.deepEqual(await store.removeResource("https://nothing.example"), []);
  } finally {
    await done();
  }
});
