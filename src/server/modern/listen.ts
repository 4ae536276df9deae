// subscriptions/listen: the 2026-07-28 way to hear about changes, which replaces unsolicited
// list_changed notifications, resources/subscribe and the HTTP GET stream. One listen is one request
// held open: the server acknowledges the part of the filter it will honour, then sends the matching
// notifications, each tagged with the listen's id, until the client cancels it (stdio:
// notifications/cancelled, HTTP: closing the stream) or the server ends it with the listen's result.
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions
// One Listens per session; the bound on open listens is the server's.

import { ErrorCode, RpcError, type RequestId } from "../../jsonrpc/messages.js";
import { invalidParams } from "../../jsonrpc/field-reader.js";
import type { ServerCapabilities } from "../../mcp/lifecycle.js";
import type { ChangingList } from "../../mcp/methods.js";
import { META, type SubscriptionFilter, type SubscriptionsListenResult } from "../../mcp/modern.js";
import type { RequestContext } from "../../protocol/method-table.js";
import type { Catalog } from "../catalog.js";
import type { Notifier } from "../served.js";

/** The filter flag that asks for each list's changes. */
const FLAG_OF: Record<ChangingList, "toolsListChanged" | "promptsListChanged" | "resourcesListChanged"> = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
};

interface OpenListen {
  filter: SubscriptionFilter;
  /** The resource URIs of the filter, for the lookup every resource update makes. */
  uris: Set<string>;
  /** Ends the listen gracefully: its handler returns the listen's result. */
  end(): void;
}

export class Listens {
  readonly #session: Notifier & { readonly server: Catalog };
  readonly #open = new Map<RequestId, OpenListen>();
  /**
   * Set by endAll. Requests read before the input ended may still be queued behind slow ones; a
   * listen among them, opened after endAll, must end too, or it would hold the connection's
   * closing forever and never be answered.
   */
  #ending = false;

  constructor(session: Notifier & { readonly server: Catalog }) {
    this.#session = session;
  }

  get size(): number {
    return this.#open.size;
  }

  /** The handler of one subscriptions/listen: runs until the listen ends, then returns its result. */
  async listen(requested: SubscriptionFilter, context: RequestContext, capabilities: ServerCapabilities): Promise<SubscriptionsListenResult> {
    const server = this.#session.server;
    const filter = honoured(requested, capabilities, server);
    const subscriptionId = context.id;
    const acknowledge = () => this.#session.notify("notifications/subscriptions/acknowledged", { notifications: filter, _meta: { [META.subscriptionId]: subscriptionId } }, { relatedRequestId: subscriptionId });
    if (Object.keys(filter).length === 0) {
      // Nothing asked for is offered: the listen is acknowledged and ended at once, so that it holds
      // no slot (a client cannot take every slot with listens that can never carry anything).
      await acknowledge();
      return listenResult(subscriptionId);
    }
    if (!server.claimListen()) {
      throw new RpcError(ErrorCode.InternalError, `subscriptions/listen: the server has ${server.maxListens} listens open, the most it keeps: end one first`, { limit: server.maxListens });
    }
    try {
      const ended = new Promise<void>((resolve) => {
        this.#open.set(subscriptionId, { filter, uris: new Set(filter.resourceSubscriptions), end: resolve });
        context.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      // Spec (basic/patterns/subscriptions): the acknowledgement is the first message for this listen, with the
      // honoured part of the filter, tagged like every message of the stream.
      await acknowledge();
      if (!this.#ending) await ended;
    } finally {
      this.#open.delete(subscriptionId);
      server.releaseListen();
    }
    // Sent only when the server ended the listen: a cancelled request gets no answer (dispatch.ts).
    return listenResult(subscriptionId);
  }

  /** A list changed: every listen that asked for it hears so. */
  listChanged(kind: ChangingList): void {
    for (const [id, listen] of this.#open) {
      if (listen.filter[FLAG_OF[kind]]) this.#send(id, `notifications/${kind}/list_changed`);
    }
  }

  /** A resource changed: every listen that named its URI hears so. */
  resourceUpdated(uri: string): void {
    for (const [id, listen] of this.#open) if (listen.uris.has(uri)) this.#send(id, "notifications/resources/updated", uri);
  }

  /** Ends every listen gracefully (the client's input ended, or the server is closing). */
  endAll(): void {
    this.#ending = true;
    for (const listen of this.#open.values()) listen.end();
  }

  #send(id: RequestId, method: `notifications/${ChangingList}/list_changed` | "notifications/resources/updated", uri?: string): void {
    const _meta = { [META.subscriptionId]: id };
    if (method === "notifications/resources/updated") void this.#session.notify(method, { uri: uri!, _meta }, { relatedRequestId: id });
    else void this.#session.notify(method, { _meta }, { relatedRequestId: id });
  }
}

/** Spec (basic/patterns/subscriptions): a listen the server ends gets its result, tagged like its notifications. */
function listenResult(subscriptionId: RequestId): SubscriptionsListenResult {
  return { _meta: { [META.subscriptionId]: subscriptionId } };
}

/**
 * The part of a filter the server honours: list changes of the lists it has, and resource updates
 * if it offers subscriptions. Spec (basic/patterns/subscriptions): the acknowledgement names only what will be sent.
 * The resource URIs are bounded as resources/subscribe bounded them (count and length): -32602 past that.
 */
function honoured(requested: SubscriptionFilter, capabilities: ServerCapabilities, server: Catalog): SubscriptionFilter {
  const filter: SubscriptionFilter = {};
  if (requested.toolsListChanged && capabilities.tools?.listChanged) filter.toolsListChanged = true;
  if (requested.promptsListChanged && capabilities.prompts?.listChanged) filter.promptsListChanged = true;
  if (requested.resourcesListChanged && capabilities.resources?.listChanged) filter.resourcesListChanged = true;
  const uris = requested.resourceSubscriptions;
  if (uris && capabilities.resources?.subscribe) {
    if (uris.length > server.maxSubscriptions) {
      throw invalidParams("subscriptions/listen", "notifications.resourceSubscriptions", `names ${uris.length} URIs, over the limit of ${server.maxSubscriptions}`, { limit: server.maxSubscriptions });
    }
    const tooLong = uris.find((uri) => uri.length > server.maxUriLength);
    if (tooLong !== undefined) {
      throw invalidParams("subscriptions/listen", "notifications.resourceSubscriptions", `holds a URI ${tooLong.length} characters long, over the limit of ${server.maxUriLength}`, { limit: server.maxUriLength });
    }
    filter.resourceSubscriptions = [...new Set(uris)];
  }
  return filter;
}
