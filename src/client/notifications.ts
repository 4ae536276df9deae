// What the client does when the server tells it something: the server's notifications, their
// params already read by mcp/read.ts, turned into McpClient's events and list-cache invalidations.
// The same handlers serve both eras; in 2026-07-28 the list and resource notifications come on the
// listen (modern/listen.ts), and only those tagged with the open listen's id are heard.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools#list-changed-notification,
// server/resources#subscriptions, server/utilities/logging, client/elicitation; and
// 2026-07-28/basic/patterns/subscriptions.

import type { NotificationHandlers } from "../protocol/method-table.js";
import type { ListName, RoleNotifications, ServerNotifications } from "../mcp/methods.js";
import type { Lists } from "./lists.js";
import type { Listen } from "./modern/listen.js";

/** What the handlers reach in the client. */
export interface NotificationTarget {
  readonly lists: Lists;
  /** The open 2026-07-28 listen, or undefined in a handshake session. */
  listen(): Listen | undefined;
  /** The ids of URL-mode elicitations the user accepted (client/handlers.ts). */
  readonly openUrlElicitations: Set<string>;
  emit(event: string, ...args: unknown[]): boolean;
}

export function serverNotificationHandlers(client: NotificationTarget): NotificationHandlers<RoleNotifications<ServerNotifications>> {
  const current = (meta: unknown) => client.listen()?.isCurrent(meta) ?? true;
  const changed = (list: ListName[], event: string) => (params: { _meta?: object } | undefined) => {
    if (!current(params?._meta)) return;
    client.lists.changed(list);
    client.emit(event);
  };
  return {
    "notifications/tools/list_changed": changed(["tools"], "toolsChanged"),
    "notifications/resources/list_changed": changed(["resources", "resourceTemplates"], "resourcesChanged"),
    "notifications/prompts/list_changed": changed(["prompts"], "promptsChanged"),
    "notifications/resources/updated": ({ uri, _meta }) => {
      if (current(_meta)) client.emit("resourceUpdated", uri);
    },
    "notifications/subscriptions/acknowledged": (params) => client.listen()?.acknowledged(params),
    "notifications/elicitation/complete": ({ elicitationId }) => {
      // Spec (client/elicitation#completion-notifications): unknown or completed ids MUST be ignored.
      if (client.openUrlElicitations.delete(elicitationId)) client.emit("elicitationComplete", elicitationId);
    },
    "notifications/message": (params) => void client.emit("log", params),
  };
}
