// Textbook: Connection.#receive in src/textbook/connection.ts; this adds the bound on work in
//  flight, and what happens to the order when a handler waits.
// The order in which a connection takes up what arrives. Messages are handled in arrival order,
// each until it is answered or, once another has arrived behind it, until the event loop turns,
// whichever comes first: quick answers keep the order of their requests, and a handler that waits
// (on a timer, on I/O, on the peer) does not hold up the messages behind it. JSON-RPC allows any
// order; this one is easy to follow.
// It also counts the work in flight, so that the connection can stop reading at a bound.

export class Inbox {
  /** Jobs not yet taken up, from #head on, and the weight of each (a parallel array: no object per job). */
  #jobs: ((() => Promise<unknown>) | undefined)[] = [];
  #weights: number[] = [];
  #head = 0;
  #pumping = false;
  /** The job the pump waits on (its promise), until it settles or the loop turns. */
  #waitingOn: Promise<unknown> | undefined;
  /** Whether a wake-up at the next turn of the event loop is already scheduled. */
  #turnScheduled = false;
  /** The weight of the jobs waiting or running, each until its promise settles. */
  #busy = 0;
  #idleWaiters: (() => void)[] = [];
  readonly #limit: number;
  readonly #onFull: (full: boolean) => void;
  /** Whether onFull(true) was the last word: set at the limit, cleared at half of it. */
  #full = false;

  /**
   * `onFull(true)` once the weight in flight reaches `limit`, `onFull(false)` once it is down to
   * half of it. (Resuming as soon as one job ends would stop and start the input once per message
   * under a steady flood: the gap between the two marks lets each pause cover many.)
   */
  constructor(limit = Infinity, onFull: (full: boolean) => void = () => {}) {
    this.#limit = limit;
    this.#onFull = onFull;
  }

  /** Takes in a job; `weight` is how much work it stands for (a batch: its number of items). */
  enqueue(job: () => Promise<unknown>, weight = 1): void {
    // Every job weighs at least 1: even an empty batch is owed an answer, and idle() must not
    // find nothing in flight while one is still to be written.
    weight = Math.max(weight, 1);
    this.#busy += weight;
    if (!this.#full && this.#busy >= this.#limit) {
      this.#full = true;
      this.#onFull(true);
    }
    // Nothing in progress: taken up at once, never queued (most connections have one message at a time).
    if (!this.#pumping) return this.#run(job, weight);
    this.#jobs.push(job);
    this.#weights.push(weight);
    this.#scheduleTurn();
  }

  /** Resolves once every job taken in so far has finished. */
  idle(): Promise<void> {
    return this.#busy === 0 ? Promise.resolve() : new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Takes up the next job, if any, and returns: its settling, or the next turn of the loop,
   * whichever comes first, calls this again. (A callback rather than an await: a promise and its
   * resolvers per message were a measurable share of a quick call's cost.)
   */
  #pump(): void {
    this.#waitingOn = undefined;
    if (this.#head === this.#jobs.length) {
      this.#jobs.length = 0;
      this.#weights.length = 0;
      this.#head = 0;
      this.#pumping = false;
      return;
    }
    const job = this.#jobs[this.#head]!;
    const weight = this.#weights[this.#head]!;
    this.#jobs[this.#head++] = undefined;
    if (this.#head > 1024 && this.#head * 2 > this.#jobs.length) this.#compact();
    this.#run(job, weight);
  }

  /** Runs one job, the pump's from here on: its settling, or the turn, takes up the next. */
  #run(job: () => Promise<unknown>, weight: number): void {
    this.#pumping = true;
    let running: Promise<unknown>;
    try {
      running = job();
    } catch (error) {
      // A job that throws instead of rejecting must not leave the pump stuck on it.
      running = Promise.reject(error);
    }
    this.#waitingOn = running;
    const done = () => {
      this.#finished(weight);
      if (this.#waitingOn === running) this.#pump();
    };
    running.then(done, done);
    if (this.#head < this.#jobs.length) this.#scheduleTurn();
  }

  /**
   * The wake-up at the next turn of the loop, which takes up the next job if the one in progress
   * still waits. Only needed while a job waits behind it: a connection that gets one message at a
   * time (most, and every one made for a single HTTP request) schedules none. A job that arrives
   * while another is in progress waits until the turn at the latest.
   */
  #scheduleTurn(): void {
    if (this.#turnScheduled) return;
    this.#turnScheduled = true;
    setImmediate(() => {
      this.#turnScheduled = false;
      if (this.#waitingOn) this.#pump();
    });
  }

  /** A long burst is read from the front: the consumed part is dropped now and then, not per job. */
  #compact(): void {
    this.#jobs.splice(0, this.#head);
    this.#weights.splice(0, this.#head);
    this.#head = 0;
  }

  #finished(weight: number): void {
    this.#busy -= weight;
    if (this.#full && this.#busy <= Math.floor(this.#limit / 2)) {
      this.#full = false;
      this.#onFull(false);
    }
    if (this.#busy === 0) for (const wake of this.#idleWaiters.splice(0)) wake();
  }
}
