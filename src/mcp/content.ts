// Content blocks: the pieces of text, media and resources that tool results and prompt messages
// are made of (a resource as a link, or its contents embedded: the resource types are in resources.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/tools (content types);
// the same page under https://modelcontextprotocol.io/specification/2026-07-28/.
// Everything here is the same in both generations.
// The sampling-only blocks `tool_use` and `tool_result` live in client-features.ts.

import type { Annotations, Meta } from "./base.js";
import type { BlobResourceContents, Resource, TextResourceContents } from "./resources.js";

/** A piece of plain text. */
export interface TextContent {
  /** Discriminator for `ContentBlock`. */
  type: "text";
  /** The text itself. */
  text: string;
  /** Hints on audience and importance (see `Annotations`). */
  annotations?: Annotations;
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/** An image, inline. */
export interface ImageContent {
  /** Discriminator for `ContentBlock`. */
  type: "image";
  /** The image bytes; MUST be base64-encoded. */
  data: string;
  /** The image format, e.g. `image/png`; required, since the bytes alone do not say. */
  mimeType: string;
  /** Hints on audience and importance (see `Annotations`). */
  annotations?: Annotations;
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/** A sound clip, inline. Since 2025-03-26: do not send it to a peer on 2024-11-05. */
export interface AudioContent {
  /** Discriminator for `ContentBlock`. */
  type: "audio";
  /** The audio bytes; MUST be base64-encoded. */
  data: string;
  /** The audio format, e.g. `audio/wav`. */
  mimeType: string;
  /** Hints on audience and importance (see `Annotations`). */
  annotations?: Annotations;
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/**
 * A pointer to a resource instead of its contents: a full `Resource` description plus `type`.
 * The client may fetch it with `resources/read`. A link returned by a tool need not appear in
 * `resources/list`. Since 2025-06-18.
 */
export interface ResourceLink extends Resource {
  /** Discriminator for `ContentBlock`. */
  type: "resource_link";
}

/**
 * A resource's contents carried inside the message itself. How to present it to the user or the
 * model is up to the client. A server that embeds resources SHOULD also offer the `resources`
 * capability.
 */
export interface EmbeddedResource {
  /** Discriminator for `ContentBlock`. */
  type: "resource";
  /** The contents: text or base64 blob, with the URI they came from. */
  resource: TextResourceContents | BlobResourceContents;
  /** Hints on audience and importance (see `Annotations`). */
  annotations?: Annotations;
  /** Extension metadata (see `Meta`). Since 2025-06-18. */
  _meta?: Meta;
}

/**
 * Any block that may appear in a tool result or a prompt message; switch on `type`.
 * The set grew over time: 2024-11-05 allows text, image and resource; 2025-03-26 adds audio;
 * 2025-06-18 adds resource_link (and first names the union `ContentBlock`).
 */
export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ResourceLink
  | EmbeddedResource;
