// The requestState key every process of a fleet shares (RequestStateOptions.key), read from a file
// or an environment variable, never from the command line, where any user of the machine can read
// it (ps, /proc/<pid>/cmdline). Refused when shorter than HMAC-SHA256 needs.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
// (requestState is attacker-controlled: its integrity protection is only as strong as its key).

import { readFileSync } from "node:fs";
import { MIN_REQUEST_STATE_KEY_BYTES } from "../server/modern/request-state.js";

/** The environment variable a key may come from. */
export const REQUEST_STATE_KEY_VARIABLE = "MCP_WIRE_REQUEST_STATE_KEY";

/** A key that is missing, unreadable or too short; the message says which, and what to do. */
export class RequestStateKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RequestStateKeyError";
  }
}

/**
 * The key's bytes: the file's contents if `file` is given, else the variable's value if it is set,
 * else undefined (each process then draws its own). One trailing newline is not part of the key
 * (`openssl rand -hex 32 > key` writes one). Both at once is refused: which one wins would be a guess.
 */
export function readRequestStateKey(source: { file?: string; env?: NodeJS.ProcessEnv }): Uint8Array | undefined {
  const fromEnv = (source.env ?? process.env)[REQUEST_STATE_KEY_VARIABLE];
  if (source.file !== undefined && fromEnv !== undefined) {
    throw new RequestStateKeyError(`a requestState key file was given and ${REQUEST_STATE_KEY_VARIABLE} is set: use one`);
  }
  let text: string;
  let from: string;
  if (source.file !== undefined) {
    try {
      text = readFileSync(source.file, "utf8");
    } catch (error) {
      throw new RequestStateKeyError(`cannot read the requestState key file ${source.file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    from = `the file ${source.file}`;
  } else if (fromEnv !== undefined) {
    text = fromEnv;
    from = REQUEST_STATE_KEY_VARIABLE;
  } else {
    return undefined;
  }
  const key = Buffer.from(text.replace(/\r?\n$/, ""), "utf8");
  if (key.byteLength < MIN_REQUEST_STATE_KEY_BYTES) {
    throw new RequestStateKeyError(`the requestState key in ${from} is ${key.byteLength} bytes; it must be at least ${MIN_REQUEST_STATE_KEY_BYTES} (e.g. openssl rand -hex 32)`);
  }
  return key;
}
