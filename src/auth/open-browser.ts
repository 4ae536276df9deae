// Opening the person's browser at the authorization URL: the platform's own opener (open on macOS,
// url.dll's handler on Windows, xdg-open elsewhere), started without a shell and left to run on its
// own. A best effort: the URL is always printed too (auth/loopback.ts), so any failure is ignored.
// RFC 8252 section 4.1: a native app uses the person's browser (an external user-agent), never its own.

import { spawn, type SpawnOptions } from "node:child_process";

/** `spawn`'s shape, so a test can watch what would run. */
export type Spawner = (command: string, args: string[], options: SpawnOptions) => { on(event: "error", listener: () => void): unknown; unref(): void };

/** The opener of `platform` and its arguments before the URL. */
export function browserOpener(platform: NodeJS.Platform): { command: string; args: string[] } {
  if (platform === "darwin") return { command: "open", args: [] };
  // Not `cmd /c start`: cmd would read & and ^ in the URL's query as its own syntax.
  if (platform === "win32") return { command: "rundll32", args: ["url.dll,FileProtocolHandler"] };
  return { command: "xdg-open", args: [] };
}

/**
 * Starts the browser at `url`; returns false (and starts nothing) for a URL that is not http(s),
 * since an authorization server's metadata is not trusted to name what runs on this machine.
 */
export function openBrowser(url: URL, spawner: Spawner = spawn, platform: NodeJS.Platform = process.platform): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const { command, args } = browserOpener(platform);
  try {
    // No shell: the URL is one argument, whatever it holds. Detached and unreferenced, so that
    // neither a browser that stays open nor an opener that hangs keeps us running.
    const child = spawner(command, [...args, url.href], { detached: true, stdio: "ignore", shell: false, windowsHide: true });
    child.on("error", () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
