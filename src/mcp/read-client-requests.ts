// Textbook: need in src/textbook/server.ts; this adds a checked reader for every client request's
//  params and result.
// The requests a client sends: their params as a server reads them, their results as the client
// reads them, and the client's notifications. These are the handshake era's readers; a 2026-07-28
// request's retry fields are read by read-modern.ts, for modern requests only.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/schema (the types) and
// https://www.jsonrpc.org/specification#error_object (-32602, naming the method and the field).

import type { NotificationReaders, ParamsReaders, ResultReaders } from "../protocol/method-table.js";
import type { FieldReader } from "../jsonrpc/field-reader.js";
import { LOGGING_LEVELS } from "./logging.js";
import type { ClientNotifications, ClientRequests, RoleNotifications } from "./methods.js";
import { checked, implementation, meta, nothing, nullAsAbsent, page, paginated, resultReaders, subscriptionFilter, TYPE, uri } from "./read-fields.js";

/** tools/call's own fields, in both eras (a 2026-07-28 retry adds its own: read-modern.ts). */
export function toolsCallFields(p: FieldReader): void {
  p.string("name");
  p.optionalRecord("arguments");
}

/** prompts/get's own fields, likewise. */
export function promptsGetFields(p: FieldReader): void {
  p.string("name");
  p.optionalStringRecord("arguments");
}

/** The params of the requests a client sends, as a server reads them. */
export const readClientRequestParams: ParamsReaders<ClientRequests> = {
  ping: nothing,
  "server/discover": nothing,
  "subscriptions/listen"(p) {
    subscriptionFilter(p.object("notifications"));
    return checked(meta(p));
  },
  initialize(p) {
    p.string("protocolVersion");
    p.object("capabilities");
    implementation(p.object("clientInfo"));
    return checked(meta(p));
  },
  "completion/complete"(p) {
    const ref = p.object("ref");
    if (ref.choice("type", ["ref/prompt", "ref/resource"]) === "ref/prompt") ref.string("name");
    else ref.string("uri");
    const argument = p.object("argument");
    argument.string("name");
    argument.string("value");
    p.optionalObject("context")?.optionalStringRecord("arguments");
    return checked(meta(p));
  },
  "logging/setLevel"(p) {
    // Spec (server/utilities/logging#error-handling): an invalid level SHOULD get -32602.
    p.choice("level", LOGGING_LEVELS);
    return checked(meta(p));
  },
  "prompts/list": paginated,
  "prompts/get"(p) {
    promptsGetFields(p);
    return checked(meta(p));
  },
  "resources/list": paginated,
  "resources/templates/list": paginated,
  "resources/read": uri,
  "resources/subscribe": uri,
  "resources/unsubscribe": uri,
  "tools/list": paginated,
  "tools/call"(p) {
    toolsCallFields(p);
    return checked(meta(p));
  },
};

/** The results of the requests a client sends, as the client reads them. */
export const readClientRequestResult: ResultReaders<ClientRequests> = {
  ping: nothing,
  "server/discover"(p) {
    p.array("supportedVersions").forEach((version, i) => {
      if (typeof version !== "string") throw p.error(`supportedVersions[${i}]`, "must be a string");
    });
    p.object("capabilities");
    nullAsAbsent(p, "instructions").optionalString("instructions");
    return checked(meta(p));
  },
  "subscriptions/listen": nothing,
  initialize(p) {
    p.string("protocolVersion");
    p.object("capabilities");
    implementation(p.object("serverInfo"));
    nullAsAbsent(p, "instructions").optionalString("instructions");
    return checked(meta(p));
  },
  "completion/complete"(p) {
    const completion = p.object("completion");
    const values = completion.array("values");
    values.forEach((value, i) => {
      if (typeof value !== "string") throw completion.error(`values[${i}]`, "must be a string");
    });
    nullAsAbsent(completion, "total", "hasMore");
    completion.optionalNumber("total");
    completion.optionalBoolean("hasMore");
    return checked(meta(p));
  },
  "logging/setLevel": nothing,
  "prompts/list": page("prompts", ["name"]),
  "prompts/get"(p) {
    nullAsAbsent(p, "description").optionalString("description");
    for (const message of p.objects("messages")) {
      message.choice("role", ["user", "assistant"]);
      message.object("content").string("type");
    }
    return checked(meta(p));
  },
  "resources/list": page("resources", ["uri", "name"]),
  "resources/templates/list": page("resourceTemplates", ["uriTemplate", "name"]),
  "resources/read"(p) {
    p.objectsWith("contents", ["uri"]);
    return checked(meta(p));
  },
  "resources/subscribe": nothing,
  "resources/unsubscribe": nothing,
  "tools/list": page("tools", ["name"]),
  "tools/call"(p) {
    p.objectsWith("content", TYPE);
    nullAsAbsent(p, "structuredContent", "isError");
    // Since 2026-07-28 structuredContent may be any JSON value; before, only an object.
    if (p.value.resultType === undefined) p.optionalRecord("structuredContent");
    p.optionalBoolean("isError");
    return checked(meta(p));
  },
};

/** The same, as functions of the raw result, for Connection.request. */
export const readClientResult = resultReaders(readClientRequestResult);

/**
 * The params of the notifications a client sends, as a server reads them; cancellation and
 * progress are read by the connection (see ProtocolNotificationMethod).
 */
export const readClientNotification: NotificationReaders<RoleNotifications<ClientNotifications>> = {
  "notifications/initialized": nothing,
  "notifications/roots/list_changed": nothing,
};
