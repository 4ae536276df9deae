// The requestState codec's replay memory (src/server/modern/replay-memory.ts), on an injected clock
// and a small capacity: full of live uses, it refuses the next use (-32603 `busy`, with the bound
// and when room frees) and never forgets one to make room, so a flood cannot re-open a used state;
// expired uses make room wherever they sit; one authenticated principal may fill only its share.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr#server-requirements-basic-workflow
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode, RpcError } from "../../src/jsonrpc/messages.js";
import { codec, METHOD, PARAMS, refused, ROUND } from "../helpers/request-state-codec.js";

/** Asserts that a use is refused because the replay memory is full: -32603 with the bound and when a slot frees. */
function busy(use: () => unknown, limit: number, retryAfterSeconds: number): void {
  assert.throws(use, (error: unknown) => {
    assert.ok(error instanceof RpcError, `an RpcError, got ${String(error)}`);
    assert.equal(error.code, ErrorCode.InternalError);
    assert.deepEqual(error.data, { reason: "busy", limit, retryAfterSeconds });
    assert.match(error.message, /^tools\/call: "requestState" /);
    return true;
  });
}

/** A codec with a small replay memory, and the few moves its tests make. */
function smallMemory(maxRememberedUses: number, ttlMs: number) {
  const { codec: c, clock } = codec({ maxRememberedUses, ttlMs });
  const open = (token: string) => c.open(token, METHOD, PARAMS);
  return { c, clock, open, seal: () => c.seal({ ...ROUND, answers: [] }), use: (token: string) => c.consume(open(token), METHOD) };
}

test("replay memory: a full replay memory refuses a new use and forgets no live one", () => {
  const { clock, open, seal, use } = smallMemory(2, 1000);
  const [a, b, d] = [seal(), seal(), seal()];
  use(a);
  use(b);
  clock.now += 400;
  // Full of live entries: d is refused before its handler runs, and a and b stay used up.
  busy(() => open(d), 2, 1);
  refused(() => open(a), "replayed");
  refused(() => open(b), "replayed");
  // Once a and b expire, their room is d's; they are refused as expired now, never re-opened.
  clock.now += 600;
  const e = seal();
  use(e);
  refused(() => open(a), "expired");
  refused(() => open(b), "expired");
  refused(() => open(e), "replayed");
});

test("replay memory: of two retries opened with one slot left, the second to consume is refused and its token stays unused", () => {
  const { c, clock, open, seal, use } = smallMemory(2, 1000);
  const [a, b, d] = [seal(), seal(), seal()];
  use(a);
  const [first, second] = [open(b), open(d)];
  c.consume(first, METHOD);
  busy(() => c.consume(second, METHOD), 2, 1);
  refused(() => open(a), "replayed");
  // The refused retry got no answer: its token may be sent again once there is room.
  clock.now += 999;
  busy(() => open(d), 2, 1);
  const third = seal();
  clock.now += 1;
  refused(() => open(d), "expired");
  use(third);
  refused(() => open(third), "replayed");
});

test("replay memory: an expired entry behind a live one makes room; the live one stays remembered", () => {
  const { clock, open, seal, use } = smallMemory(2, 1000);
  const early = seal(); // expires at +1000
  clock.now += 500;
  const late = seal(); // expires at +1500
  use(late);
  clock.now += 100;
  use(early); // used second, expires first
  clock.now += 500; // +1100: early expired, late (the oldest use) still live
  const next = seal();
  use(next);
  refused(() => open(late), "replayed");
  refused(() => open(next), "replayed");
  refused(() => open(early), "expired");
});

test("replay memory: a flood of uses keeps the memory at its bound and never re-opens one", () => {
  const { clock, open, seal, use } = smallMemory(50, 10_000);
  const victim = seal();
  use(victim);
  let refusedUses = 0;
  for (let i = 0; i < 500; i++) {
    clock.now += 10; // 500 uses in 5 s: the victim's state stays live throughout
    try {
      use(seal());
    } catch (error) {
      assert.ok(error instanceof RpcError && error.code === ErrorCode.InternalError, String(error));
      refusedUses++;
    }
    refused(() => open(victim), "replayed");
  }
  assert.equal(refusedUses, 500 - 49, "49 uses fit beside the victim's; every later one is refused");
});

test("replay memory: an authenticated principal may fill only its share; others are still served, and nothing is forgotten", () => {
  const { codec: c, clock } = codec({ maxRememberedUses: 10, maxRememberedUsesPerPrincipal: 3, ttlMs: 1000 });
  const sealFor = (principal?: string) => c.seal({ ...ROUND, answers: [], principal });
  const use = (token: string, principal?: string) => c.consume(c.open(token, METHOD, PARAMS, principal), METHOD);
  const mallory = [sealFor("mallory"), sealFor("mallory"), sealFor("mallory"), sealFor("mallory")];
  for (const token of mallory.slice(0, 3)) use(token, "mallory");
  busy(() => use(mallory[3]!, "mallory"), 3, 1);
  for (const token of mallory.slice(0, 3)) refused(() => c.open(token, METHOD, PARAMS, "mallory"), "replayed");
  // Alice, and the callers nobody authenticated, are served beside the flood: 3 + 4 more fill the 10.
  for (let i = 0; i < 3; i++) use(sealFor("alice"), "alice");
  for (let i = 0; i < 4; i++) use(sealFor());
  busy(() => use(sealFor()), 10, 1);
  // Once Mallory's expire, her refused state (sealed before them, so expired too) is refused as such.
  clock.now += 1000;
  refused(() => use(mallory[3]!, "mallory"), "expired");
  use(sealFor("mallory"), "mallory");
});

test("replay memory: another principal's expired uses make room for a full memory; live ones stay remembered", () => {
  const { codec: c, clock } = codec({ maxRememberedUses: 2, maxRememberedUsesPerPrincipal: 2, ttlMs: 1000 });
  const sealFor = (principal?: string) => c.seal({ ...ROUND, answers: [], principal });
  const use = (token: string, principal?: string) => c.consume(c.open(token, METHOD, PARAMS, principal), METHOD);
  const alice = sealFor("alice");
  use(alice, "alice"); // expires at +1000
  clock.now += 500;
  const bob = sealFor("bob");
  use(bob, "bob"); // expires at +1500
  clock.now += 600;
  use(sealFor()); // full, but alice's use has expired: it makes the room
  refused(() => c.open(bob, METHOD, PARAMS, "bob"), "replayed");
  busy(() => use(sealFor()), 2, 1);
});

test("replay memory: by default a principal's share is a tenth of the memory, rounded up", () => {
  const { codec: c } = codec({ maxRememberedUses: 15, ttlMs: 1000 });
  const use = () => c.consume(c.open(c.seal({ ...ROUND, answers: [], principal: "p" }), METHOD, PARAMS, "p"), METHOD);
  use();
  use();
  busy(use, 2, 1);
});
