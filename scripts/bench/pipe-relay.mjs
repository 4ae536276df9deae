// The bench's floor for `mcp-wire record`: a process between the host and the server that passes
// bytes both ways with pipe() and does nothing else. Through it, a call pays the extra process hop
// (two more pipe copies and a third process scheduled on the same cores) and no recording; the
// record row is read against it. Run as `node pipe-relay.mjs <command> [args...]`.

import { spawn } from "node:child_process";

const child = spawn(process.argv[2], process.argv.slice(3), { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on("exit", (code) => process.exit(code ?? 1));
