// Soak cases for issue 19's requestState items: (a) over HTTP with the OAuth resource server, each
// of many users retries with another user's requestState and is refused, while the owner's own
// retry completes; then one user floods past a principal's share of the replay memory and is
// refused there, while another user is still served; (b) over stdio, one client floods a small replay memory (the demo's
// --max-remembered-states) with completed round trips far past its capacity, while a state used
// before the flood is presented again and again: it must never complete again, the flood's retries
// past the capacity are refused -32603 busy, and the server's memory stays flat.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow

import { startAuthServer } from "../../test/helpers/auth-server.js";
import { judge, MIB, retainedCheck, serverChecks, type CaseContext, type SoakCase, type Tracked } from "./harness.js";
import { greet, MODERN, summarize } from "./modern-wire.js";
import { describe, exchange, LineReader, within, writeLine, type Message } from "./wire.js";

/** Retained heap (after a full GC) may grow by this much at most across a case. */
const RETAINED_BOUND = 16 * MIB;
/** The HTTP case's replay memory: its principal's share is a tenth, 200 (DEFAULT_PRINCIPAL_SHARE). */
const HTTP_CAPACITY = 2000;
const HTTP_SHARE = 200;

/** A first round's state and the key of its one ask, and the retry that answers it with `name`. */
interface Round {
  state: string;
  key: string;
}

function retryOf(id: string, round: Round, name: string): Message {
  return greet(id, { requestState: round.state, inputResponses: { [round.key]: { action: "accept", content: { name } } } });
}

/** The round an input_required answer opens, or undefined for any other answer. */
function roundIn(answer: Message | undefined): Round | undefined {
  const result = answer?.result;
  if (result?.resultType !== "input_required" || typeof result.requestState !== "string") return undefined;
  const key = Object.keys(result.inputRequests ?? {})[0];
  return key === undefined ? undefined : { state: result.requestState, key };
}

/** Counts of each summary, in words. */
function tally(outcomes: Map<string, number>): string {
  return [...outcomes].map(([text, n]) => `${n} x ${text}`).join(", ");
}

function count(outcomes: Map<string, number>, text: string): void {
  outcomes.set(text, (outcomes.get(text) ?? 0) + 1);
}

export const statePrincipalHttpCase: SoakCase = {
  name: "state-principal-http",
  title: `HTTP with --auth-issuer, 2026-07-28: 300 users each start greet; another user (own valid token, same issuer and audience) retries with that state; then the owner retries; then one user completes ${HTTP_SHARE * 1.5} round trips (a principal's share of --max-remembered-states ${HTTP_CAPACITY} is ${HTTP_SHARE})`,
  bound: `every cross-user retry is 200 -32602 other-request, before the handler runs; every owner's retry completes once, then is replayed; the flooding user gets ${HTTP_SHARE} completions, then -32603 busy, and another user still completes; retained heap grows < 16 MiB; server up`,
  limitMs: 180_000,
  async run(context) {
    const as = await startAuthServer();
    context.onEnd(() => as.close());
    const started = await context.httpServer(["--auth-issuer", as.issuer, "--max-remembered-states", String(HTTP_CAPACITY)]);
    const bearer = (sub: string) => ({ authorization: `Bearer ${as.mint({ audience: started.url, claims: { sub } })}` });
    const post = async (message: Message, headers: Record<string, string>): Promise<{ summary: string; answer?: Message }> => {
      try {
        const reply = await exchange(started.url, message, { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "greet", ...headers }, within(context.signal, 15_000));
        const answer = reply.messages.find((m) => m.id === message.id);
        return { summary: `HTTP ${reply.status} ${answer ? summarize(answer) : `no answer: ${reply.text.slice(0, 80)}`}`, answer };
      } catch (error) {
        return { summary: `failed: ${describe(error)}` };
      }
    };
    const idle = await started.server.heapAfterGc();
    const users = context.scaled(300, 60);
    const outcomes = { stolen: new Map<string, number>(), own: new Map<string, number>(), again: new Map<string, number>(), first: new Map<string, number>() };
    let next = 0;
    const worker = async () => {
      while (next < users && started.server.alive && !context.signal.aborted) {
        const user = next++;
        const [owner, thief] = [bearer(`alice-${user}`), bearer(`bob-${user}`)];
        const first = await post(greet(`first-${user}`), owner);
        count(outcomes.first, first.summary);
        const round = roundIn(first.answer);
        if (!round) continue;
        count(outcomes.stolen, (await post(retryOf(`stolen-${user}`, round, "Mallory"), thief)).summary);
        count(outcomes.own, (await post(retryOf(`own-${user}`, round, "Alice"), owner)).summary);
        count(outcomes.again, (await post(retryOf(`again-${user}`, round, "Alice"), owner)).summary);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    // One user floods; their own retries past the share are refused, nobody else's.
    const flooder = bearer("mallory");
    const flood = new Map<string, number>();
    for (let i = 0; i < HTTP_SHARE * 1.5 && started.server.alive && !context.signal.aborted; i++) {
      const round = roundIn((await post(greet(`flood-${i}`), flooder)).answer);
      count(flood, round ? (await post(retryOf(`flood-${i}-retry`, round, "Mallory"), flooder)).summary : "no round");
    }
    const other = bearer("carol");
    const carolRound = roundIn((await post(greet("carol"), other)).answer);
    const carol = carolRound ? (await post(retryOf("carol-retry", carolRound, "Carol"), other)).summary : "no round";
    const all = (outcomes: Map<string, number>, text: string) => outcomes.get(text) === users;
    return judge([
      [all(outcomes.first, "HTTP 200 result input_required"), `${users} first rounds: ${tally(outcomes.first)}`],
      [all(outcomes.stolen, "HTTP 200 error -32602/other-request"), `${users} retries with another user's state: ${tally(outcomes.stolen)}`],
      [all(outcomes.own, "HTTP 200 result complete"), `${users} owners' retries: ${tally(outcomes.own)}`],
      [all(outcomes.again, "HTTP 200 error -32602/replayed"), `${users} owners' retries again: ${tally(outcomes.again)}`],
      [flood.get("HTTP 200 result complete") === HTTP_SHARE && flood.get("HTTP 200 error -32603/busy") === HTTP_SHARE / 2, `one user's ${HTTP_SHARE * 1.5} round trips: ${tally(flood)}`],
      [carol === "HTTP 200 result complete", `another user after the flood: ${carol}`],
      await retainedCheck(started.server, idle, RETAINED_BOUND),
      ...serverChecks(started.server),
    ]);
  },
};

/** A stdio server spoken to the 2026-07-28 way, keeping each answer's summary and, for first rounds, its round. */
class StateStdio {
  readonly server: Tracked;
  readonly reader: LineReader;
  /** The rounds of the first-round answers not yet taken (#roundOf), by id. */
  readonly #rounds = new Map<string | number, Round>();
  readonly #context: CaseContext;

  constructor(context: CaseContext, args: string[]) {
    this.#context = context;
    this.server = context.stdioServer(args);
    this.server.child.stdin!.on("error", () => {});
    this.reader = new LineReader(this.server.child.stdout!, (answer) => {
      const round = roundIn(answer);
      if (round && answer.id !== undefined) this.#rounds.set(answer.id, round);
      return summarize(answer);
    });
  }

  /** Sends every message at once, then waits for all their answers' summaries ("no answer" past 15 s). */
  async calls(messages: Message[]): Promise<string[]> {
    for (const message of messages) if (!(await writeLine(this.server.child.stdin!, message, 5000))) break;
    const summaries: string[] = [];
    for (const message of messages) {
      const answered = await this.reader.answered(message.id!, 15_000, this.#context.signal);
      summaries.push(answered ? this.reader.summaries.get(message.id!)! : "no answer");
      this.reader.summaries.delete(message.id!);
      this.reader.answers.delete(message.id!);
    }
    return summaries;
  }

  /** Takes the round a first-round answer opened (kept until taken, so the map stays small). */
  roundOf(id: string): Round | undefined {
    const round = this.#rounds.get(id);
    this.#rounds.delete(id);
    return round;
  }
}

export const stateFloodStdioCase: SoakCase = {
  name: "state-flood-stdio",
  title: "stdio, 2026-07-28, --max-remembered-states 20000: one client completes greet round trips 1.5x past the replay memory's capacity, presenting a state it used before the flood after every batch",
  bound: "the used state is never accepted again (-32602 replayed every time); exactly capacity - 1 flood retries complete, every later one is -32603 busy; retained heap grows < 16 MiB; server up",
  limitMs: 240_000,
  async run(context) {
    const capacity = context.scaled(20_000, 500);
    const peer = new StateStdio(context, ["--max-remembered-states", String(capacity)]);
    const [victimFirst] = await peer.calls([greet("victim")]);
    const victim = peer.roundOf("victim");
    if (!victim) return { held: false, detail: `the victim's first round: ${victimFirst}` };
    const [victimDone] = await peer.calls([retryOf("victim-retry", victim, "Ada")]);
    const idle = await peer.server.heapAfterGc();
    const flood = Math.round(capacity * 1.5);
    const batch = 100;
    const outcomes = new Map<string, number>();
    const replays = new Map<string, number>();
    for (let start = 0; start < flood && peer.server.alive && !context.signal.aborted; start += batch) {
      const ids = Array.from({ length: Math.min(batch, flood - start) }, (_, i) => `flood-${start + i}`);
      const firsts = await peer.calls(ids.map((id) => greet(id)));
      for (const summary of firsts) if (summary !== "result input_required") count(outcomes, `first round: ${summary}`);
      const retries = ids.flatMap((id) => {
        const round = peer.roundOf(id);
        return round ? [retryOf(`${id}-retry`, round, "Flood")] : [];
      });
      for (const summary of await peer.calls(retries)) count(outcomes, summary);
      const [replay] = await peer.calls([retryOf(`victim-again-${start}`, victim, "Mallory")]);
      count(replays, replay!);
    }
    const batches = Math.ceil(flood / batch);
    const completed = outcomes.get("result complete") ?? 0;
    const busy = outcomes.get("error -32603/busy") ?? 0;
    return judge([
      [victimDone === "result complete", `the victim's own retry: ${victimDone}`],
      [replays.get("error -32602/replayed") === batches, `the victim's used state presented ${batches} times during the flood: ${tally(replays)}`],
      [completed === capacity - 1 && busy === flood - completed, `${flood} flood round trips past a capacity of ${capacity}: ${tally(outcomes)}`],
      await retainedCheck(peer.server, idle, RETAINED_BOUND),
      ...serverChecks(peer.server),
    ]);
  },
};
