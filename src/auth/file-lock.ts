// A lock between processes on one file system, for the credentials file (auth/file-store.ts):
// a lock file made whole and at once (its content written to a file of our own, then hard-linked
// into place, which fails if the lock exists), naming the run that holds it. A lock whose run has
// died (its pid gone, on this host) or that is older than `staleMs` is taken over, and exactly one
// of the runs that find it stale takes it over: the one that creates the takeover marker named
// after that lock's generation (its content, inode and time). Node has no flock(); a rename or an
// unlink alone would let two takers each remove the other's fresh lock and both hold one.

import { createHash, randomBytes } from "node:crypto";
import { link, open, readdir, rm, stat, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface LockOptions {
  /** How long to wait for another run's lock before giving up. */
  timeoutMs: number;
  /** A lock (or a leftover file of ours) older than this was left by a run that died: no holder keeps it so long. */
  staleMs: number;
}

/** Another run held the lock for all of `timeoutMs`. */
export class LockBusyError extends Error {
  constructor(readonly lock: string) {
    super(`${lock} is held by another run`);
    this.name = "LockBusyError";
  }
}

/** What the lock file says: which run holds it. */
interface Holder {
  pid: number;
  host: string;
  nonce: string;
}

/** Takeovers of one stale lock whose takers died mid-way, tried before waiting on (each leaves a marker). */
const MAX_TAKEOVER_MARKERS = 8;

/**
 * Runs `work` holding `lock`. `work` gets `stillHeld`, for a check right before a change that must
 * not be made by a run whose lock was taken over (it was too slow: past `staleMs`).
 */
export async function withLock<T>(lock: string, options: LockOptions, work: (stillHeld: () => Promise<boolean>) => Promise<T>): Promise<T> {
  const holder: Holder = { pid: process.pid, host: hostname(), nonce: randomBytes(12).toString("hex") };
  await acquire(lock, holder, options);
  try {
    return await work(async () => (await readHolder(lock))?.nonce === holder.nonce);
  } finally {
    // Only our own: a lock taken over from us is the new holder's.
    if ((await readHolder(lock))?.nonce === holder.nonce) await rm(lock, { force: true });
  }
}

async function acquire(lock: string, holder: Holder, options: LockOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await tryCreate(lock, holder)) return;
    const found = await inspect(lock);
    // Tried again at once only if this run removed it; else another taker is at it: waited for like a holder.
    if (found !== undefined && isStale(found, options.staleMs) && (await takeOver(lock, found.generation, options.staleMs))) continue;
    if (Date.now() >= deadline) throw new LockBusyError(lock);
    await sleep(10 + Math.random() * 20);
  }
}

/** Creates the lock naming `holder`; false if it exists. */
async function tryCreate(lock: string, holder: Holder): Promise<boolean> {
  const content = JSON.stringify(holder);
  const own = temporaryName(lock);
  await writeFile(own, content, { flag: "wx", mode: 0o600 });
  try {
    // link() fails with EEXIST if the lock exists: taking it and saying who holds it are one step.
    await link(own, lock);
    return true;
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    if (!NO_HARD_LINKS.has(codeOf(error))) throw error;
  } finally {
    await rm(own, { force: true });
  }
  // A file system without hard links: O_EXCL, then the content (a reader may see it empty a moment: not stale then).
  try {
    const handle = await open(lock, "wx", 0o600);
    try {
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    throw error;
  }
}

/** What link() fails with where a file system has no hard links (FAT, some network shares). */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * Removes the stale lock of `generation`, unless another taker does: the marker named after that
 * generation is created by one taker alone (O_EXCL), which checks the lock is still that one
 * before removing it. A marker older than staleMs belongs to a taker that died: the next is tried.
 * True if this run made the attempt (the lock is gone, or is another by now).
 */
async function takeOver(lock: string, generation: string, staleMs: number): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_TAKEOVER_MARKERS; attempt++) {
    const marker = `${lock}.${generation}.${attempt}.takeover`;
    try {
      await (await open(marker, "wx", 0o600)).close();
    } catch (error) {
      if (codeOf(error) !== "EEXIST") throw error;
      const made = await stat(marker).catch(() => undefined);
      if (made !== undefined && Date.now() - made.mtimeMs > staleMs) continue;
      // Another run is taking it over now.
      return false;
    }
    try {
      if ((await inspect(lock))?.generation === generation) await unlink(lock).catch(() => {});
    } finally {
      await rm(marker, { force: true });
    }
    return true;
  }
  return false;
}

interface FoundLock {
  holder: Holder | undefined;
  ageMs: number;
  /** Which lock this is: another made at the same path has another generation. */
  generation: string;
}

/** The lock at `lock` now (content and times from one open file), or undefined if there is none. */
async function inspect(lock: string): Promise<FoundLock | undefined> {
  let handle;
  try {
    handle = await open(lock, "r");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  }
  try {
    const info = await handle.stat();
    // A lock is a few dozen bytes; an old mcp-wire's is empty. More is not ours to read.
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(1024), 0, 1024, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8");
    const generation = createHash("sha256").update(`${text}\0${info.ino}\0${info.mtimeMs}\0${info.ctimeMs}`).digest("hex").slice(0, 24);
    return { holder: parseHolder(text), ageMs: Date.now() - info.mtimeMs, generation };
  } finally {
    await handle.close();
  }
}

/** Which lock is at `lock` now (undefined: none): what its takeover markers are named after. */
export async function lockGeneration(lock: string): Promise<string | undefined> {
  return (await inspect(lock))?.generation;
}

async function readHolder(lock: string): Promise<Holder | undefined> {
  return (await inspect(lock).catch(() => undefined))?.holder;
}

/** Stale: older than staleMs, or held by a process of this host that no longer runs. */
function isStale(found: FoundLock, staleMs: number): boolean {
  if (found.ageMs > staleMs) return true;
  const holder = found.holder;
  if (holder === undefined || holder.host !== hostname() || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user. A pid reused by another program keeps the lock until staleMs.
    return codeOf(error) === "ESRCH";
  }
}

function parseHolder(text: string): Holder | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return undefined;
    const { pid, host, nonce } = value as Record<string, unknown>;
    return Number.isSafeInteger(pid) && typeof host === "string" && typeof nonce === "string" ? { pid: pid as number, host, nonce } : undefined;
  } catch {
    return undefined;
  }
}

/** A name beside `path` for a file of ours being made: `<path>.<pid>.<random>.tmp`. */
export function temporaryName(path: string): string {
  return `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
}

/**
 * Removes what runs killed mid-way left beside `path` (half-written temporary files, takeover
 * markers) once older than staleMs: no live run keeps one so long. Call it holding the lock.
 */
export async function sweepLeftovers(path: string, staleMs: number): Promise<void> {
  const directory = dirname(path);
  const prefix = `${basename(path)}.`;
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !(name.endsWith(".tmp") || name.endsWith(".takeover"))) continue;
    const file = join(directory, name);
    const info = await stat(file).catch(() => undefined);
    if (info !== undefined && Date.now() - info.mtimeMs > staleMs) await rm(file, { force: true });
  }
}

export function codeOf(error: unknown): string {
  return (typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string" ? (error as { code: string }).code : undefined) ?? "error";
}
