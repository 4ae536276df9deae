// Textbook: Server, text in src/textbook/server.ts; this adds the catalog's checks and bounds
//  (catalog.ts), and many connections to one definition.
// A server *definition*: its catalog (who the server is and what it offers, catalog.ts) and the
// connections it serves. One definition serves any number of connections; each is a
// ServerConnection (connection.ts), and hears of the catalog's changes while it is open.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server (the three primitives).

import type { ContentBlock } from "../mcp/content.js";
import type { Transport } from "../protocol/transport.js";
import { Catalog } from "./catalog.js";
import { ServerConnection, type ServerConnectionOptions } from "./connection.js";

export {
  DEFAULT_MAX_LISTENS, DEFAULT_MAX_SUBSCRIPTIONS, DEFAULT_MAX_URI_LENGTH,
  type Completer, type PromptRenderer, type RegisteredPrompt, type RegisteredResource, type RegisteredTemplate, type RegisteredTool,
  type ResourceReader, type ServerInfo, type ServerOptions, type TemplateReader, type ToolHandler,
} from "./catalog.js";

export class McpServer extends Catalog {
  /** Serves one connection over `transport`. */
  connect(transport: Transport, options: ServerConnectionOptions = {}): ServerConnection {
    const connection = new ServerConnection(this, transport, options);
    // One made for one HTTP request has no channel to tell its client of a change: it hears of
    // them from its first listen on (ServerConnection.listens), sparing the catalog's set of
    // listeners an entry added and taken out per request.
    if (!options.singleRequest) this.listen(connection);
    connection.start();
    return connection;
  }
}

/** A text block, the most common content. */
export function text(value: string): ContentBlock {
  return { type: "text", text: value };
}
