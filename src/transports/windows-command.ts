// How to start a server command on each platform. On Windows, `npx`, `npm` and other `.cmd` /
// `.bat` scripts can only run through cmd.exe (Node refuses to spawn them directly since the
// CVE-2024-27980 fix), and cmd.exe needs the whole command line quoted by its own rules.

export interface Launch {
  file: string;
  args: string[];
  windowsVerbatimArguments: boolean;
}

/** Commands that are batch scripts on Windows even when written without their extension. */
const WINDOWS_SCRIPTS = new Set(["npx", "npm", "pnpm", "yarn", "corepack"]);

export function launchCommand(command: string, args: string[], platform: NodeJS.Platform = process.platform): Launch {
  if (platform !== "win32" || !needsShell(command)) return { file: command, args, windowsVerbatimArguments: false };
  const line = [command, ...args].map(quoteForCmd).join(" ");
  // /d: no AutoRun commands; /s with the outer quotes: cmd.exe takes the line between them verbatim.
  return { file: "cmd.exe", args: ["/d", "/s", "/c", `"${line}"`], windowsVerbatimArguments: true };
}

function needsShell(command: string): boolean {
  const name = command.replace(/^.*[\\/]/, "").toLowerCase();
  return /\.(cmd|bat)$/.test(name) || WINDOWS_SCRIPTS.has(name);
}

/**
 * Quotes one argument for a program started by cmd.exe: first as the C runtime parses argv
 * (double quotes, with backslashes doubled before a quote), then with cmd.exe's own special
 * characters escaped by ^ so that `&`, `|`, `%` and friends stay text.
 */
export function quoteForCmd(arg: string): string {
  let quoted = arg;
  if (arg === "" || /[\s"]/.test(arg)) {
    quoted = '"' + arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1") + '"';
  }
  return quoted.replace(/[()%!^"<>&|]/g, "^$&");
}
