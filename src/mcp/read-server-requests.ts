// The requests a server sends (sampling, elicitation, roots, ping): their params as a client reads
// them, their results as the server reads them, and the server's notifications.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/schema, client/sampling,
// client/elicitation, client/roots and server/utilities/logging.

import type { NotificationReaders, ParamsReaders, ResultReaders } from "../protocol/method-table.js";
import { LOGGING_LEVELS } from "./logging.js";
import type { RoleNotifications, ServerNotifications, ServerRequests } from "./methods.js";
import { checked, meta, nothing, nullAsAbsent, resultReaders, subscriptionFilter, TYPE, uri } from "./read-fields.js";

/** The params of the requests a server sends, as a client reads them. */
export const readServerRequestParams: ParamsReaders<ServerRequests> = {
  ping: nothing,
  "sampling/createMessage"(p) {
    p.array("messages");
    p.number("maxTokens");
    p.optionalObject("modelPreferences");
    p.optionalString("systemPrompt");
    p.optionalChoice("includeContext", ["none", "thisServer", "allServers"]);
    p.optionalNumber("temperature");
    p.optionalArray("stopSequences");
    p.optionalRecord("metadata");
    p.optionalArray("tools");
    p.optionalObject("toolChoice");
    return checked(meta(p));
  },
  "roots/list": nothing,
  "elicitation/create"(p) {
    // Spec (client/elicitation): a request without `mode` is form mode. An unknown mode is left
    // for the client's handler to refuse, naming the mode.
    const mode = p.optionalString("mode") ?? "form";
    p.string("message");
    if (mode === "form") p.object("requestedSchema");
    if (mode === "url") {
      p.string("url");
      p.string("elicitationId");
    }
    return checked(meta(p));
  },
};

/** The results of the requests a server sends, as the server reads them. */
export const readServerRequestResult: ResultReaders<ServerRequests> = {
  ping: nothing,
  "sampling/createMessage"(p) {
    p.choice("role", ["user", "assistant"]);
    if (!Array.isArray(p.value.content)) p.object("content").string("type");
    else p.objectsWith("content", TYPE);
    p.string("model");
    nullAsAbsent(p, "stopReason").optionalString("stopReason");
    return checked(meta(p));
  },
  "roots/list"(p) {
    p.objectsWith("roots", ["uri"]);
    return checked(meta(p));
  },
  "elicitation/create"(p) {
    p.choice("action", ["accept", "decline", "cancel"]);
    nullAsAbsent(p, "content").optionalRecord("content");
    return checked(meta(p));
  },
};

/** The same, as functions of the raw result, for Connection.request. */
export const readServerResult = resultReaders(readServerRequestResult);

/** The params of the notifications a server sends, as a client reads them (cancellation and progress likewise excepted). */
export const readServerNotification: NotificationReaders<RoleNotifications<ServerNotifications>> = {
  "notifications/message"(p) {
    p.choice("level", LOGGING_LEVELS);
    p.optionalString("logger");
    p.present("data");
    return checked(meta(p));
  },
  "notifications/resources/updated": uri,
  "notifications/resources/list_changed": nothing,
  "notifications/tools/list_changed": nothing,
  "notifications/prompts/list_changed": nothing,
  "notifications/elicitation/complete"(p) {
    p.string("elicitationId");
    return checked(meta(p));
  },
  "notifications/subscriptions/acknowledged"(p) {
    subscriptionFilter(p.object("notifications"));
    return checked(meta(p));
  },
};
