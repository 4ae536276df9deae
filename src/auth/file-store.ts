// The CLI's CredentialStore: one JSON file under the user's configuration directory, readable by
// the user alone in a directory only the user can change, so that a second run reuses the
// registration and tokens of the first.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-theft
// (clients MUST store tokens securely); entries are keyed by issuer and resource (storeKey, 2026-07-28).
// The file is replaced whole (temp file, then rename), and changed under a lock file, so neither
// a crash nor two runs at once can leave it half-written or lose one run's entry.

import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isObject } from "../jsonrpc/messages.js";
import { storeKey, type ClientRegistration, type CredentialKey, type CredentialStore, type StoredCredentials, type TokenSet } from "./credentials.js";
import { sameResource } from "./metadata.js";

export interface FileStoreOptions {
  /** The file (default: defaultCredentialsPath()). */
  path?: string;
  /** How long a change waits for another run's lock (default 5 s). */
  lockTimeoutMs?: number;
  /** A lock older than this (default 30 s) was left by a run that died holding it: no change takes so long. */
  staleLockMs?: number;
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

/** The file's shape: one entry per storeKey(). */
interface CredentialFile {
  version: 1;
  credentials: { [key: string]: StoredCredentials };
}

export class FileCredentialStore implements CredentialStore {
  readonly path: string;
  readonly #lockTimeoutMs: number;
  readonly #staleLockMs: number;

  constructor(options: FileStoreOptions = {}) {
    this.path = options.path ?? defaultCredentialsPath();
    this.#lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    this.#staleLockMs = options.staleLockMs ?? DEFAULT_STALE_LOCK_MS;
  }

  async load(key: CredentialKey): Promise<StoredCredentials | undefined> {
    // No lock: the file is only ever replaced whole, so a reader sees the old one or the new one.
    return (await this.#read()).credentials[storeKey(key)];
  }

  save(credentials: StoredCredentials): Promise<void> {
    return this.#change((file) => {
      file.credentials[storeKey(credentials)] = credentials;
    });
  }

  remove(key: CredentialKey): Promise<void> {
    return this.#change((file) => {
      delete file.credentials[storeKey(key)];
    });
  }

  /**
   * Forgets every issuer's credentials used for the server at `url` (`mcp-wire logout`): those of
   * that resource, and of a resource above it (a server's metadata may name its origin as the
   * resource, and those tokens reach this URL too). Resolves with the keys removed.
   */
  async removeResource(url: string): Promise<CredentialKey[]> {
    const removed: CredentialKey[] = [];
    await this.#change((file) => {
      for (const [key, entry] of Object.entries(file.credentials)) {
        if (!covers(entry.resource, url)) continue;
        removed.push({ issuer: entry.issuer, resource: entry.resource });
        delete file.credentials[key];
      }
    });
    return removed;
  }

  async #read(): Promise<CredentialFile> {
    let text: string;
    try {
      await this.#checkDirectory();
      await this.#checkMode();
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if (codeOf(error) === "ENOENT") return { version: 1, credentials: {} };
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
    if (!isCredentialFile(json)) {
      throw new CredentialFileError(`credentials file ${this.path} is not an mcp-wire credentials file; delete it (the servers will ask you to authorize again)`);
    }
    return json;
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
  }

  /**
   * A file others can read is refused rather than quietly fixed: its tokens may have been read
   * already, which the user should know (and revoke), as ssh does for a private key.
   */
  async #checkMode(): Promise<void> {
    if (process.platform === "win32") return;
    const { mode } = await stat(this.path);
    // Spec (authorization#token-theft): clients MUST store tokens securely; a file others can read is not.
    if ((mode & 0o077) !== 0) {
      throw new CredentialFileError(`credentials file ${this.path} is readable by other users (mode ${(mode & 0o777).toString(8)}); refusing to use it: its tokens may have been seen. Run chmod 600 on it, or delete it`);
    }
  }

  /** Read, change, write back, all under the lock. */
  async #change(edit: (file: CredentialFile) => void): Promise<void> {
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new CredentialFileError(`credentials file ${this.path}: could not make its directory (${codeOf(error)})`, { cause: error });
    }
    // Before the lock, which is a file in that directory too.
    await this.#checkDirectory();
    await this.#locked(async () => {
      const file = await this.#read();
      edit(file);
      await this.#write(file);
    });
  }

  async #write(file: CredentialFile): Promise<void> {
    const temporary = `${this.path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      // Spec (authorization#token-theft): clients MUST store tokens securely: readable by this user alone.
      // Created 0600 (not chmod-ed after): there is no moment at which others could open it.
      const handle = await open(temporary, "wx", 0o600);
      try {
        await handle.writeFile(JSON.stringify(file, null, 2) + "\n");
        await handle.sync();
      } finally {
        await handle.close();
      }
      // A umask cannot widen a mode, but a file system may ignore it; the rename carries this mode.
      await chmod(temporary, 0o600);
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw new CredentialFileError(`credentials file ${this.path}: could not be written (${codeOf(error)})`, { cause: error });
    }
  }

  /** Runs `work` holding `<path>.lock`, made with O_EXCL: one run at a time changes the file. */
  async #locked(work: () => Promise<void>): Promise<void> {
    const lock = `${this.path}.lock`;
    const deadline = Date.now() + this.#lockTimeoutMs;
    for (;;) {
      try {
        await (await open(lock, "wx", 0o600)).close();
        break;
      } catch (error) {
        if (codeOf(error) !== "EEXIST") {
          throw new CredentialFileError(`credentials file ${this.path}: could not take the lock ${lock} (${codeOf(error)})`, { cause: error });
        }
      }
      const held = await stat(lock).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > this.#staleLockMs) {
        await rm(lock, { force: true });
        continue;
      }
      if (Date.now() >= deadline) {
        throw new CredentialFileError(`credentials file ${this.path}: another mcp-wire run held the lock ${lock} for ${this.#lockTimeoutMs} ms (if none is running, delete the lock)`);
      }
      await sleep(10 + Math.random() * 20);
    }
    try {
      await work();
    } finally {
      await rm(lock, { force: true });
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

/**
 * The shape this file writes: each entry names its issuer and resource, under the key they make,
 * and its client and tokens have the types credentials.ts gives them: an entry the OAuth client
 * would trip over (a token that is an object, an expiry that is text) is the file's fault, said so.
 */
function isCredentialFile(value: unknown): value is CredentialFile {
  if (!isObject(value) || value.version !== 1 || !isObject(value.credentials)) return false;
  return Object.entries(value.credentials).every(([key, entry]) =>
    isObject(entry) && typeof entry.issuer === "string" && typeof entry.resource === "string" && key === storeKey({ issuer: entry.issuer, resource: entry.resource }) &&
    (entry.client === undefined || isClientRegistration(entry.client)) && (entry.tokens === undefined || isTokenSet(entry.tokens)));
}

function isClientRegistration(value: unknown): value is ClientRegistration {
  return isObject(value) && typeof value.client_id === "string" && optional(value.issuer, "string") && optional(value.client_secret, "string") &&
    optional(value.client_secret_expires_at, "number") && optional(value.token_endpoint_auth_method, "string") &&
    (value.redirect_uris === undefined || (Array.isArray(value.redirect_uris) && value.redirect_uris.every((uri) => typeof uri === "string")));
}

function isTokenSet(value: unknown): value is TokenSet {
  return isObject(value) && typeof value.access_token === "string" && typeof value.token_type === "string" &&
    optional(value.refresh_token, "string") && optional(value.scope, "string") && optional(value.expires_at, "number");
}

/** Absent, or of that JSON type (JSON has no NaN or Infinity, so a number is finite). */
function optional(value: unknown, type: "string" | "number"): boolean {
  return value === undefined || typeof value === type;
}

function codeOf(error: unknown): string {
  return (isObject(error) && typeof error.code === "string" ? error.code : undefined) ?? "error";
}
