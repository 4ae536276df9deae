// A resume (GET with Last-Event-ID) that names a session this process does not hold, served from a
// fleet's shared event log (fleet/stores.ts): the session's process ended or died, and what it had
// sent on the stream after that id is replayed here; then the stream ends, since no process will
// write to it again. The next request with that session id gets 404, and the client starts a new
// session. The session's last owed answers reach the client; the session itself is over.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery

import type { SharedEventLog } from "../fleet/stores.js";
import { HttpAnswer, streamAnswer } from "./exchange.js";
import { formatEvent, SSE_HEADERS } from "./sse.js";
import { SseSink, type SseSinkOptions } from "./sse-sink.js";

/** Session ids this fleet mints (instance name, ".", base64url): anything else is not looked up. */
const SESSION_ID = /^[A-Za-z0-9_.-]{1,200}$/;
/** Event ids as EventStore makes them: `<stream>:<number>`. */
const EVENT_ID = /^[A-Za-z0-9_-]{1,64}:\d{1,16}$/;

/** The replay, or undefined when the log has nothing for this session, owner and event id. */
export async function resumeFromLog(log: SharedEventLog, session: string, lastEventId: string, owner: string | undefined, sinkOptions: SseSinkOptions): Promise<HttpAnswer | undefined> {
  if (!SESSION_ID.test(session) || !EVENT_ID.test(lastEventId)) return undefined;
  let missed;
  try {
    missed = await log.after(session, lastEventId, owner);
  } catch {
    // The log unreachable is the same, to the client, as a session gone: 404, and it starts over.
    return undefined;
  }
  if (!missed) return undefined;
  const sink = new SseSink(undefined, sinkOptions);
  for (const event of missed) sink.replay(formatEvent(event));
  // Spec (transports#session-management): the session is over: the stream ends, its id gets 404 from now on.
  sink.end(() => log.ended(session));
  return streamAnswer(sink, SSE_HEADERS);
}
