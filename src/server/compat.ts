// Textbook: VERSION in src/textbook/server.ts (it speaks 2025-11-25 only); this adds every older
//  version: the fields and content types each lacks.
// Fitting what a server definition says to the protocol version a client negotiated: fields and
// content types an older version does not define are left out or turned into plain text.
// Spec: the "Key changes" lists, e.g. https://modelcontextprotocol.io/specification/2025-06-18/changelog
// Definitions are written once, for the newest version; this file fits what they produce. Which
// version allows what at all (batches, SSE priming, elicitation, ...) is asked of mcp/versions.ts
// (`supports`) where each rule is enforced.

import { isObject } from "../jsonrpc/messages.js";
import type { ContentBlock } from "../mcp/content.js";
import type { CallToolResult } from "../mcp/tools.js";
import { LATEST_PROTOCOL_VERSION, supports, type ProtocolVersion, type VersionedFeature } from "../mcp/versions.js";

type Json = { [key: string]: unknown };

/** Fields of described things (tools, resources, templates, prompts, Implementation) and when they came. */
const DESCRIPTOR_FIELDS: [string, VersionedFeature][] = [
  ["title", "titles"],
  ["icons", "icons"],
  ["_meta", "metaOnDescriptors"],
];

/** Copies a tool, resource, template or prompt, without the fields `version` does not know. */
export function describedFor<T extends object>(item: T, version: ProtocolVersion, extra: [string, VersionedFeature][] = []): T {
  // A copy of our own object, whose fields we then remove by name.
  const copy = { ...item };
  const fields = copy as Json;
  for (const [field, feature] of [...DESCRIPTOR_FIELDS, ...extra]) {
    if (!supports(version, feature)) delete fields[field];
  }
  if (isObject(fields.annotations) && !supports(version, "lastModified")) {
    const { lastModified: _dropped, ...rest } = fields.annotations;
    fields.annotations = rest;
  }
  return copy;
}

/** The fields a tool has only in some versions, beyond the common descriptor ones. */
export const TOOL_FIELDS: [string, VersionedFeature][] = [
  ["annotations", "toolAnnotations"],
  ["outputSchema", "structuredContent"],
];

/** serverInfo: `title` came in 2025-06-18; `description`, `websiteUrl` and `icons` in 2025-11-25. */
export function implementationFor<T extends Json>(info: T, version: ProtocolVersion): T {
  const copy: Json = describedFor(info, version);
  if (!supports(version, "icons")) {
    delete copy.description;
    delete copy.websiteUrl;
  }
  return copy as T;
}

/**
 * One content block as `version` can carry it. Blocks the version has no type for become text
 * that says what was there, so the client (and the model behind it) still learns of it.
 */
export function contentFor(block: ContentBlock, version: ProtocolVersion): ContentBlock {
  if (block.type === "audio" && !supports(version, "audioContent")) {
    return { type: "text", text: `[audio content (${block.mimeType}) omitted: protocol ${version} has no audio content]` };
  }
  if (block.type === "resource_link" && !supports(version, "resourceLinks")) {
    return { type: "text", text: `Resource: ${block.uri}${block.name ? ` (${block.name})` : ""}` };
  }
  const copy = describedFor(block, version);
  if (copy.type === "resource" && !supports(version, "metaOnDescriptors")) {
    const { _meta: _dropped, ...resource } = copy.resource;
    return { ...copy, resource };
  }
  return copy;
}

/**
 * A tools/call result as the client's version can carry it: its content blocks, and
 * structuredContent. 2025-11-25 and later (versions are ISO dates, so `>=` orders them: 2026-07-28
 * included) have every block type and field a definition can hold (test/server/compat.test.ts checks
 * that fitting to them changes nothing), so their blocks go as they are, and a result that needs no
 * text block for its structuredContent goes as it is, not copied: it is only serialised after this
 * (a 2026-07-28 answer extends a copy, server/modern/results.ts).
 */
export function callToolResultFor(result: CallToolResult, version: ProtocolVersion): CallToolResult {
  const current = version >= LATEST_PROTOCOL_VERSION;
  // Only a plain object goes as it is: what was checked must be what JSON.stringify writes, and a
  // class instance may carry a toJSON of its own (a copy, below, drops it).
  const plain = Object.getPrototypeOf(result) === Object.prototype;
  if (current && plain && (result.structuredContent === undefined || result.content.length > 0)) return result;
  const content = current ? result.content : result.content.map((block) => contentFor(block, version));
  const out: CallToolResult = { ...result, content };
  if (result.structuredContent !== undefined) {
    // Spec (server/tools#structured-content): a tool returning structured content SHOULD also
    // return it as serialized JSON in a text block, for clients that do not read structuredContent.
    if (out.content.length === 0) out.content = [{ type: "text", text: JSON.stringify(result.structuredContent) }];
    if (!supports(version, "structuredContent")) delete out.structuredContent;
  }
  return out;
}
