// The CLI's CredentialStore: one JSON file under the user's configuration directory, readable by
// the user alone in a directory only the user can change, so that a second run reuses the
// registration and tokens of the first.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-theft
// (clients MUST store tokens securely); entries are keyed by issuer and resource (storeKey, 2026-07-28).
// The file is replaced whole (temp file, then rename), and changed (read, edited, written) under a
// lock file (auth/file-lock.ts), so neither a crash nor runs at once can leave it half-written or
// lose one run's entry. An entry that is not in the shape this file writes is passed over (and
// kept as it is), so that one bad entry costs one server its sign-in, not every server.

import { createHash } from "node:crypto";
import { chmod, lstat, mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { isObject } from "../jsonrpc/messages.js";
import { storeKey, type CredentialKey, type CredentialStore, type StoredCredentials } from "./credentials.js";
import { isStoredEntry } from "./credentials-shape.js";
import { codeOf, LockBusyError, sweepLeftovers, temporaryName, withLock } from "./file-lock.js";
import { sameResource } from "./metadata.js";

export interface FileStoreOptions {
  /** The file (default: defaultCredentialsPath()). */
  path?: string;
  /** How long a change waits for another run's lock (default 5 s). */
  lockTimeoutMs?: number;
  /**
   * A lock older than this (default 30 s) was left by a run that died holding it: no change takes
   * so long. A lock whose run is gone (its pid, on this host) is taken over at once.
   */
  staleLockMs?: number;
  /** Told (once per store) of entries passed over for their shape; default: a process warning. */
  onWarning?: (message: string) => void;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;
export const DEFAULT_STALE_LOCK_MS = 30_000;

/** The credentials file cannot be used as it is. The message names the file, never its content. */
export class CredentialFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CredentialFileError";
  }
}

/**
 * $XDG_CONFIG_HOME/mcp-wire/credentials.json, else ~/.config/mcp-wire/credentials.json; on
 * Windows %APPDATA%\mcp-wire\credentials.json. (XDG says a relative XDG_CONFIG_HOME is ignored.)
 */
export function defaultCredentialsPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = platform === "win32" ? env.APPDATA ?? join(home, "AppData", "Roaming") : xdg?.startsWith("/") ? xdg : join(home, ".config");
  return join(base, "mcp-wire", "credentials.json");
}

/** The file as read: one entry per storeKey(), and those passed over for their shape, kept as they were. */
interface CredentialFile {
  credentials: { [key: string]: StoredCredentials };
  unreadable: { [key: string]: unknown };
}

export class FileCredentialStore implements CredentialStore {
  readonly path: string;
  readonly #lockTimeoutMs: number;
  readonly #staleLockMs: number;
  readonly #onWarning: (message: string) => void;
  #warned = false;

  constructor(options: FileStoreOptions = {}) {
    this.path = options.path ?? defaultCredentialsPath();
    this.#lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    this.#staleLockMs = options.staleLockMs ?? DEFAULT_STALE_LOCK_MS;
    this.#onWarning = options.onWarning ?? ((message) => process.emitWarning(message, "CredentialFileWarning"));
  }

  async load(key: CredentialKey): Promise<StoredCredentials | undefined> {
    // No lock: the file is only ever replaced whole, so a reader sees the old one or the new one.
    return (await this.#read()).credentials[storeKey(key)];
  }

  async save(credentials: StoredCredentials): Promise<void> {
    await this.update(credentials, () => credentials);
  }

  async remove(key: CredentialKey): Promise<void> {
    await this.update(key, () => undefined);
  }

  async update(key: CredentialKey, edit: (current: StoredCredentials | undefined) => StoredCredentials | undefined): Promise<StoredCredentials | undefined> {
    const name = storeKey(key);
    let kept: StoredCredentials | undefined;
    await this.#change((file) => {
      kept = edit(file.credentials[name]);
      delete file.credentials[name];
      delete file.unreadable[name];
      if (kept === undefined) return;
      // What could not be read back (Infinity is written as null) is refused here, not found broken by the next run.
      if (storeKey(kept) !== name || !isStoredEntry(name, JSON.parse(JSON.stringify(kept)))) {
        throw new CredentialFileError(`credentials file ${this.path}: the credentials for ${name} were not saved: they are not in the shape of the file (a number that is not finite?)`);
      }
      file.credentials[name] = kept;
    });
    return kept;
  }

  /**
   * Runs `work` holding `<path>.<key hash>.lock`, one per issuer and resource, apart from the
   * file's own lock: a refresh holds it for a network round trip, which other servers' changes
   * need not wait for. Waited for up to the stale-lock age and the lock timeout: past them a holder is taken to be gone.
   */
  async exclusive<T>(key: CredentialKey, work: () => Promise<T>): Promise<T> {
    await this.#makeDirectory();
    const lock = `${this.path}.${createHash("sha256").update(storeKey(key)).digest("hex").slice(0, 16)}.lock`;
    return this.#withLock(lock, this.#staleLockMs + this.#lockTimeoutMs, () => work());
  }

  /**
   * Forgets every issuer's credentials used for the server at `url` (`mcp-wire logout`): those of
   * that resource, and of a resource above it (a server's metadata may name its origin as the
   * resource, and those tokens reach this URL too). Resolves with the keys removed.
   */
  async removeResource(url: string): Promise<CredentialKey[]> {
    const removed: CredentialKey[] = [];
    await this.#change((file) => {
      for (const entries of [file.credentials, file.unreadable]) {
        for (const [key, entry] of Object.entries(entries)) {
          // An unreadable entry goes too when it names its issuer and resource as text.
          if (!isObject(entry) || typeof entry.issuer !== "string" || typeof entry.resource !== "string" || !covers(entry.resource, url)) continue;
          removed.push({ issuer: entry.issuer, resource: entry.resource });
          delete entries[key];
        }
      }
    });
    return removed;
  }

  async #read(): Promise<CredentialFile> {
    let text: string;
    try {
      await this.#checkDirectory();
      await this.#checkFile();
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if (codeOf(error) === "ENOENT") return { credentials: {}, unreadable: {} };
      if (error instanceof CredentialFileError) throw error;
      throw new CredentialFileError(`credentials file ${this.path}: could not be read (${codeOf(error)})`, { cause: error });
    }
    // The parser's message would quote the text, and the text holds secrets: neither is shown.
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CredentialFileError(`credentials file ${this.path} is not valid JSON; delete it (the servers will ask you to authorize again)`);
    }
    if (!isObject(json) || json.version !== 1 || !isObject(json.credentials)) {
      throw new CredentialFileError(`credentials file ${this.path} is not an mcp-wire credentials file; delete it (the servers will ask you to authorize again)`);
    }
    const file: CredentialFile = { credentials: {}, unreadable: {} };
    for (const [key, entry] of Object.entries(json.credentials)) {
      if (isStoredEntry(key, entry)) file.credentials[key] = entry;
      else file.unreadable[key] = entry;
    }
    const passedOver = Object.keys(file.unreadable).length;
    if (passedOver > 0 && !this.#warned) {
      this.#warned = true;
      // Neither keys nor content: an entry's content may hold secrets.
      this.#onWarning(`credentials file ${this.path}: ${passedOver} ${passedOver === 1 ? "entry is" : "entries are"} not in the shape mcp-wire writes and ${passedOver === 1 ? "was" : "were"} passed over (${passedOver === 1 ? "its server asks" : "their servers ask"} you to authorize again; the others are used)`);
    }
    return file;
  }

  /**
   * A directory another user owns, or may write to, is refused: whoever can write to it can put a
   * file of theirs in the credentials file's place (a rename needs only the directory), and have us
   * send our tokens where they like, or read the refresh token we then write. As ssh does for ~/.ssh.
   */
  async #checkDirectory(): Promise<void> {
    if (process.platform === "win32") return;
    const directory = dirname(this.path);
    const { mode, uid } = await stat(directory);
    // Spec (authorization#token-theft): clients MUST store tokens securely; a place others can change is not.
    if (uid !== process.getuid?.()) {
      throw new CredentialFileError(`credentials directory ${directory} belongs to another user (uid ${uid}); refusing to use it: they could replace the credentials file. Use a directory of your own (chown it, or delete it)`);
    }
    if ((mode & 0o022) !== 0) {
      throw new CredentialFileError(`credentials directory ${directory} is writable by other users (mode ${(mode & 0o777).toString(8)}); refusing to use it: they could replace the credentials file. Run chmod 700 on it`);
    }
    // The directory itself may be replaced by whoever owns its link, or may write to its parent (unless sticky, as /tmp).
    const entry = await lstat(directory);
    if (entry.isSymbolicLink() && entry.uid !== uid) {
      throw new CredentialFileError(`credentials directory ${directory} is a symbolic link of another user (uid ${entry.uid}); refusing to use it: they could point it elsewhere. Use a directory of your own`);
    }
    const parent = await stat(dirname(directory));
    if ((parent.mode & 0o002) !== 0 && (parent.mode & 0o1000) === 0) {
      throw new CredentialFileError(`credentials directory ${directory} is in ${dirname(directory)}, which every user may write to (mode ${(parent.mode & 0o777).toString(8)}); refusing to use it: they could replace the directory. Use a directory of your own`);
    }
  }

  /**
   * A file others can read is refused rather than quietly fixed: its tokens may have been read
   * already, which the user should know (and revoke), as ssh does for a private key. A symbolic
   * link is refused too: we would read (and replace) whatever it points to.
   */
  async #checkFile(): Promise<void> {
    if (process.platform === "win32") return;
    const info = await lstat(this.path);
    if (info.isSymbolicLink()) {
      throw new CredentialFileError(`credentials file ${this.path} is a symbolic link; refusing to use it: its tokens would be read from (and written over) wherever it points. Put the file itself there, or delete the link`);
    }
    if (!info.isFile()) throw new CredentialFileError(`credentials file ${this.path} is not a regular file; refusing to use it`);
    if (info.uid !== process.getuid?.()) {
      throw new CredentialFileError(`credentials file ${this.path} belongs to another user (uid ${info.uid}); refusing to use it: its tokens are not yours to trust. Delete it`);
    }
    // Spec (authorization#token-theft): clients MUST store tokens securely; a file others can read is not.
    if ((info.mode & 0o077) !== 0) {
      throw new CredentialFileError(`credentials file ${this.path} is readable by other users (mode ${(info.mode & 0o777).toString(8)}); refusing to use it: its tokens may have been seen. Run chmod 600 on it, or delete it`);
    }
  }

  async #makeDirectory(): Promise<void> {
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new CredentialFileError(`credentials file ${this.path}: could not make its directory (${codeOf(error)})`, { cause: error });
    }
    // Before the lock, which is a file in that directory too.
    await this.#checkDirectory();
  }

  /** Read, change, write back, all under the lock: a change made by another run in the meantime is kept. */
  async #change(edit: (file: CredentialFile) => void): Promise<void> {
    await this.#makeDirectory();
    await this.#withLock(`${this.path}.lock`, this.#lockTimeoutMs, async (stillHeld) => {
      await sweepLeftovers(this.path, this.#staleLockMs);
      const file = await this.#read();
      edit(file);
      await this.#write(file, stillHeld);
    });
  }

  async #withLock<T>(lock: string, timeoutMs: number, work: (stillHeld: () => Promise<boolean>) => Promise<T>): Promise<T> {
    try {
      return await withLock(lock, { timeoutMs, staleMs: this.#staleLockMs }, work);
    } catch (error) {
      if (error instanceof CredentialFileError) throw error;
      if (error instanceof LockBusyError) {
        throw new CredentialFileError(`credentials file ${this.path}: another mcp-wire run held the lock ${lock} for ${timeoutMs} ms (if none is running, delete the lock)`);
      }
      throw new CredentialFileError(`credentials file ${this.path}: could not take the lock ${lock} (${codeOf(error)})`, { cause: error });
    }
  }

  async #write(file: CredentialFile, stillHeld: () => Promise<boolean>): Promise<void> {
    const temporary = temporaryName(this.path);
    const content = { version: 1, credentials: { ...file.unreadable, ...file.credentials } };
    try {
      // Spec (authorization#token-theft): clients MUST store tokens securely: readable by this user alone.
      // Created 0600 (not chmod-ed after): there is no moment at which others could open it.
      const handle = await open(temporary, "wx", 0o600);
      try {
        await handle.writeFile(JSON.stringify(content, null, 2) + "\n");
        await handle.sync();
      } finally {
        await handle.close();
      }
      // A umask cannot widen a mode, but a file system may ignore it; the rename carries this mode.
      await chmod(temporary, 0o600);
      // A run slower than staleLockMs has lost its lock to another: its file would undo that run's change.
      if (!(await stillHeld())) throw new CredentialFileError(`credentials file ${this.path}: not written: this run held the lock longer than ${this.#staleLockMs} ms and another run took it over`);
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      if (error instanceof CredentialFileError) throw error;
      throw new CredentialFileError(`credentials file ${this.path}: could not be written (${codeOf(error)})`, { cause: error });
    }
  }
}

/** Whether tokens for `resource` are the ones sent to `url`: the same resource, or one whose path holds url's. */
function covers(resource: string, url: string): boolean {
  if (sameResource(resource, url)) return true;
  try {
    const [outer, inner] = [new URL(resource), new URL(url)];
    const base = outer.pathname.endsWith("/") ? outer.pathname : `${outer.pathname}/`;
    return outer.origin === inner.origin && outer.search === "" && inner.pathname.startsWith(base);
  } catch {
    return false;
  }
}
