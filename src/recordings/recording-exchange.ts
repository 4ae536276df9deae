// Which HTTP exchange each message of a session recording (recording.ts, form 2) crossed in: what
// `record --listen` notes so that `check` can tell one session from another by what the wire said.
// A note "# exchange N: {facts}" gives exchange N's facts as a JSON object (the request's: its
// connection and method, the Mcp-Session-Id it carried; the answer's: its status, the
// Mcp-Session-Id it gave), and a bare "# exchange N" says that the lines after it are exchange N's
// again (an SSE event of an earlier request, after other exchanges' lines). The messages after
// either belong to exchange N, until the next such note. Other readers skip these "#" lines as
// they skip every note, so a recording with them still reads where exchanges mean nothing.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management

/** What the wire said about one HTTP exchange (a request and its answer). */
export interface Exchange {
  /** The client's connection to the proxy, numbered from 1 as they opened. */
  connection?: number;
  /** The request's HTTP method. */
  method?: string;
  /** The answer's status, once it came (502: the target failed, the client got ours). */
  status?: number;
  /** The Mcp-Session-Id the request carried, else the one its answer gave (initialize's). */
  session?: string;
}

const EXCHANGE_NOTE = /^# exchange (\d{1,15})(?:: (.*))?$/s;

/** The note that says the lines after it are exchange `n`'s, with what is newly known of it. */
export function exchangeNote(n: number, facts?: Exchange): string {
  const known = Object.fromEntries(Object.entries(facts ?? {}).filter(([, value]) => value !== undefined));
  return Object.keys(known).length === 0 ? `# exchange ${n}` : `# exchange ${n}: ${JSON.stringify(known)}`;
}

/**
 * Reads an exchange note into `exchanges` (the facts of several notes of one exchange add up; the
 * first said of each wins, so the request's session id stands over its answer's). Returns the
 * exchange's number, undefined for any other note, or a string that says why the note is unreadable.
 */
export function readExchangeNote(line: string, exchanges: Map<number, Exchange>): number | string | undefined {
  const match = EXCHANGE_NOTE.exec(line);
  if (!match) return undefined;
  const n = Number(match[1]);
  const known = exchanges.get(n) ?? {};
  exchanges.set(n, known);
  if (match[2] === undefined) return n;
  let facts: unknown;
  try {
    facts = JSON.parse(match[2]);
  } catch {
    return "an exchange note whose facts are not JSON";
  }
  if (typeof facts !== "object" || facts === null || Array.isArray(facts)) return "an exchange note whose facts are not a JSON object";
  const { connection, method, status, session } = facts as { [key: string]: unknown };
  if (Number.isSafeInteger(connection)) known.connection ??= connection as number;
  if (typeof method === "string") known.method ??= method;
  if (Number.isSafeInteger(status)) known.status ??= status as number;
  if (typeof session === "string") known.session ??= session;
  return n;
}

/** Whether an exchange's answer was an HTTP refusal (no 2xx): a request in it never reached the server's JSON-RPC. */
export function refused(exchange: Exchange | undefined): boolean {
  return exchange?.status !== undefined && (exchange.status < 200 || exchange.status > 299);
}

/** Whether a body answers a request by its id (a response with a non-null id, or a batch holding one). */
export function answersById(body: unknown): boolean {
  const answers = (value: unknown) => typeof value === "object" && value !== null && "id" in value && value.id !== null && ("result" in value || "error" in value);
  return Array.isArray(body) ? body.some(answers) : answers(body);
}

/**
 * An HTTP recording from before the exchange notes recorded every answer's body as a message.
 * Its note "# < STATUS PATH ..." still tells the ones that were not: the line right after the note
 * of an HTTP error that answers no request by id, or of a /.well-known/ document. What the note
 * says, if `line` is one; undefined otherwise.
 */
export function olderAnswerNote(line: string): { notAMessage: (body: unknown) => boolean } | undefined {
  const match = /^# < (\d{3}) (\S*)/.exec(line);
  if (!match) return undefined;
  const status = Number(match[1]);
  if (match[2]!.startsWith("/.well-known/")) return { notAMessage: () => true };
  return { notAMessage: (body) => (status < 200 || status > 299) && !answersById(body) };
}
