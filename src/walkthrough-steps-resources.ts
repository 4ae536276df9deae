// The walkthrough's resource steps: reading the demo's protocol notes (and a URI nobody serves),
// the URI template of their sections, and a subscription that hears of an edit. The notes are the
// side's own copy (the runner's), so that editing them touches nothing of the package.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/resources and
// https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions

import { once } from "node:events";
import { NOTES_URI, SECTION_TEMPLATE } from "./demo/server-definition.js";
import { SPEC, type Step } from "./walkthrough-steps.js";

export const RESOURCE_STEPS: Step[] = [
  {
    title: "Resources",
    why: "Resources are data the client can read by URI: here the protocol notes; a URI nobody serves is an error.",
    play: async (client, { say }) => {
      await client.listResources();
      const { contents } = await client.readResource(NOTES_URI);
      say(`read ${contents.length} item: the notes as ${contents[0]?.mimeType}, ${"text" in contents[0]! ? contents[0].text.length : 0} characters of text.`);
      await client.readResource("docs://demo/nothing-here").catch(() => {});
    },
    changed: "a missing resource was -32002 (Resource not found); 2026-07-28 answers -32602 (Invalid params), the uri still in data; lists and reads gain the cache hints.",
    spec: `${SPEC}/server/resources`,
  },
  {
    title: "Resource templates",
    why: "A template (RFC 6570) names a family of URIs the server can read: here one section of the notes by its slug.",
    play: async (client) => {
      await client.listResourceTemplates();
      await client.readResource(SECTION_TEMPLATE.replace("{section}", "lifecycle"));
    },
    changed: "only the envelope and resultType; a read through the template says ttlMs 0 and cacheScope private, what a server that gives no hint says (the demo gives one to its fixed resource only).",
    spec: `${SPEC}/server/resources`,
  },
  {
    title: "Subscribing to a resource",
    why: "The client asks to hear when the notes change; someone edits them, and the server says so (without the contents).",
    play: async (client, { say, editNotes }) => {
      await client.subscribe(NOTES_URI);
      const updated = once(client, "resourceUpdated");
      say("the subscription is taken; now the notes file is edited (the walkthrough appends a line to its copy).");
      editNotes();
      await updated;
      say("heard notifications/resources/updated: a client showing the notes would read them again.");
    },
    changed: "resources/subscribe is gone: the client cancels its listen and opens a new one naming the URI in resourceSubscriptions; the update comes on it, tagged with its subscriptionId.",
    spec: `${SPEC}/basic/patterns/subscriptions`,
  },
];
