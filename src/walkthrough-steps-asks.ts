// The walkthrough's steps where the server asks the client: the user (elicitation), the client's
// model (sampling), and the client's roots. In the handshake era each ask is a request of the
// server's, mid-call; in 2026-07-28 the server sends none: the call is answered input_required
// and retried with the answers. The canned handlers that answer are the runner's (walkthrough.ts).

import { SPEC, type Step } from "./walkthrough-steps.js";

export const ASK_STEPS: Step[] = [
  {
    title: "Elicitation: the server asks the user",
    why: "greet needs a name it does not have: mid-call, the server asks the client to ask its user.",
    play: async (client) => void (await client.callTool("greet", {})),
    changed: "the server sends no request of its own: it answers input_required (inputRequests + requestState), and the client retries the call under a new id with inputResponses and the requestState echoed.",
    spec: `${SPEC}/basic/patterns/mrtr`,
  },
  {
    title: "Sampling: the server asks the client's model",
    why: "summarize has no model of its own: mid-call, it borrows the client's.",
    play: async (client) => void (await client.callTool("summarize", { text: SUMMARIZED })),
    changed: "the same round trip as greet, with sampling/createMessage inside inputRequests (and sampling is deprecated in 2026-07-28).",
    spec: `${SPEC}/basic/patterns/mrtr`,
  },
  {
    title: "Roots: the server asks where it may work",
    why: "list_roots (the demo's, with --roots-tool) asks the client which folders the user opened: roots/list.",
    play: async (client) => void (await client.callTool("list_roots", {})),
    changed: "roots/list becomes one more inputRequests entry of an input_required result, answered by the retry; notifications/roots/list_changed is gone (the server asks each time it needs them).",
    spec: `${SPEC}/basic/patterns/mrtr`,
  },
];

export const SUMMARIZED =
  "The Model Context Protocol lets an application give a language model tools, data and prompts from separate servers, " +
  "over JSON-RPC, and lets those servers ask the application back for a user's input or a model's completion.";
