// Spec (basic/transports#stdio): the server MUST NOT write anything to stdout that is not a valid
// MCP message. Imported first by stdio programs: every console method then writes to stderr, so
// a stray console.log (ours or a dependency's) cannot corrupt the protocol stream.

import { inspect } from "node:util";

// error, warn, trace and assert already write to stderr. table, group, count and time* print
// through console.log, so pointing log, info, debug and dirxml at error covers them; dir writes to
// stdout directly. (Cheaper at start-up than building a new Console; test/transports checks each.)
console.log = console.info = console.debug = console.dirxml = console.error;
console.dir = (item: unknown, options?: object) => void process.stderr.write(inspect(item, options) + "\n");
