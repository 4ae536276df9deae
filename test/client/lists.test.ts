// Following nextCursor (client/lists.ts): a listing is bounded in all, in items and in bytes, and a
// cursor seen before ends it; against a server whose pages never end (fixtures/servers/minimal.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { McpClient, type ClientOptions } from "../../src/client/client.js";
import { ListingTooLargeError } from "../../src/client/errors.js";
import { collectPages, DEFAULT_LISTING_LIMITS } from "../../src/client/lists.js";
import { StdioClientTransport } from "../../src/transports/stdio-client.js";

const MINIMAL = fileURLToPath(new URL("../../fixtures/servers/minimal.mjs", import.meta.url));
/** The fixture's items per page, and the most pages it serves (far past every bound below). */
const PER_PAGE = 100;
const SERVED_AT_MOST = 1000;

/** A client of the endless-pages fixture, and how to ask it how many pages it has served. */
async function endlessPages(options: ClientOptions = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MINIMAL, "endless-pages", String(SERVED_AT_MOST)], graceMs: 500 });
  const client = new McpClient({ name: "lists-test", version: "1" }, { protocolVersion: "2025-11-25", ...options });
  await client.connect(transport);
  const pages = async () => {
    const [content] = (await client.callTool("pages")).content;
    return Number(content?.type === "text" ? content.text : Number.NaN);
  };
  return { client, pages };
}

test("listAllTools against pages that never end: stops at the default item bound, naming the method and the bound", async () => {
  const { client, pages } = await endlessPages();
  try {
    const maxItems = DEFAULT_LISTING_LIMITS.maxItems;
    await assert.rejects(client.listAllTools(), (e: unknown) =>
      e instanceof ListingTooLargeError && e.method === "tools/list" && new RegExp(`^tools/list: .*${maxItems} items`).test(e.message));
    // The page that went past the bound is the last one asked for.
    assert.equal(await pages(), Math.floor(maxItems / PER_PAGE) + 1);
  } finally {
    await client.close();
  }
});

test("every listAll* is bounded by ClientOptions.listLimits.maxItems", async () => {
  const maxItems = 250;
  const { client, pages } = await endlessPages({ listLimits: { maxItems } });
  try {
    const listings = [
      ["tools/list", () => client.listAllTools()],
      ["resources/list", () => client.listAllResources()],
      ["resources/templates/list", () => client.listAllResourceTemplates()],
      ["prompts/list", () => client.listAllPrompts()],
    ] as const;
    for (const [method, list] of listings) {
      const before = await pages();
      await assert.rejects(list(), (e: unknown) => e instanceof ListingTooLargeError && e.method === method && e.message.includes(`${maxItems} items`), method);
      assert.equal((await pages()) - before, Math.floor(maxItems / PER_PAGE) + 1, method);
    }
  } finally {
    await client.close();
  }
});

test("a listing is bounded in bytes too (ClientOptions.listLimits.maxBytes)", async () => {
  // Each page holds about 100 KiB of items: the budget is passed on the third.
  const maxBytes = 250 * 1024;
  const { client, pages } = await endlessPages({ listLimits: { maxBytes } });
  try {
    await assert.rejects(client.listAllTools(), (e: unknown) => e instanceof ListingTooLargeError && /^tools\/list: .*256000 bytes/.test(e.message));
    assert.equal(await pages(), 3);
  } finally {
    await client.close();
  }
});

test("a cursor seen before ends the listing with an error naming the method", async () => {
  const cursors = ["a", "b", "a", "b"];
  let asked = 0;
  const fetchPage = async () => ({ tools: [], nextCursor: cursors[asked++] });
  await assert.rejects(collectPages(fetchPage, "tools"), /^Error: tools\/list: the server sent the cursor "a" a second time/);
  assert.equal(asked, 3);
});

test("the cursors kept to spot a loop count against the byte budget", async () => {
  let asked = 0;
  // Empty pages, each with a new 10 KiB cursor: only the cursors add up.
  const fetchPage = async () => ({ tools: [], nextCursor: `${asked++}`.padEnd(10 * 1024, "c") });
  await assert.rejects(collectPages(fetchPage, "tools", { maxBytes: 100 * 1024 }), (e: unknown) => e instanceof ListingTooLargeError && e.method === "tools/list");
  assert.ok(asked <= 11, `asked ${asked} pages`);
});
