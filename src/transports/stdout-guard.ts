// Spec (basic/transports#stdio): the server MUST NOT write anything to stdout that is not a valid
// MCP message. Imported first by stdio programs: every console method then writes to stderr, so
// a stray console.log (ours or a dependency's) cannot corrupt the protocol stream.

import { Console } from "node:console";

globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
