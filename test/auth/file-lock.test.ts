// The lock between processes under the credentials file (auth/file-lock.ts): a stale lock's
// takeover when a taker before us died in the middle of it (its marker left behind).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LockBusyError, lockGeneration, withLock } from "../../src/auth/file-lock.js";

test("file lock: a stale lock whose taker died mid-way (its marker fresh) is waited on, not spun on; once that marker is stale the next one takes it over", async () => {
  const dir = await mkdtemp(join(tmpdir(), "mcp-wire-lock-"));
  try {
    const lock = join(dir, "f.lock");
    await writeFile(lock, "");
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const generation = await lockGeneration(lock);
    assert.ok(generation);
    const marker = join(dir, `f.lock.${generation}.0.takeover`);
    await writeFile(marker, "");
    // The marker is younger than staleMs: another taker may still be at it.
    await assert.rejects(withLock(lock, { timeoutMs: 100, staleMs: 30_000 }, async () => "held"), LockBusyError);
    assert.equal(await lockGeneration(lock), generation, "the stale lock is still there: only the marker's owner removes it");
    // Older than staleMs: that taker died; the next marker is used.
    await utimes(marker, old, old);
    assert.equal(await withLock(lock, { timeoutMs: 1000, staleMs: 30_000 }, async () => "held"), "held");
    assert.deepEqual((await readdir(dir)).sort(), [`f.lock.${generation}.0.takeover`], "the lock is released; the dead taker's marker is left for the sweep");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
