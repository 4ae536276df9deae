// Textbook: VERSION in src/textbook/server.ts (2025-11-25 only); this adds every handshake version
//  since 2024-11-05, the features each has, and the stateless generation's versions.
// The protocol versions mcp-wire speaks, and which features each one has. Two generations: the
// handshake era (2024-11-05 to 2025-11-25: `initialize` fixes one version for a session) and the
// stateless one (2026-07-28: every request names its version in `_meta`). A peer that speaks both is
// "dual-era". Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation,
// https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning, and the changelogs, e.g.
// https://modelcontextprotocol.io/specification/2026-07-28/changelog
// A feature is named once here with the first version that has it; code asks `supports(v, f)`.
// Also here: whether a server's declared capabilities cover a client request at a version
// (undeclaredServerCapability), since one of those rules depends on the version.

import type { ServerCapabilities } from "./lifecycle.js";
import { SERVER_CAPABILITY_NEEDED, type CapabilityNeed, type ClientRequestMethod } from "./methods.js";

/**
 * The handshake-era versions, newest first: the ones `initialize` negotiates. A version string is
 * the date of the revision that defined it.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** A version a handshake can settle on. */
export type HandshakeVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

/** The newest handshake-era version: what `initialize` asks for, and offers when it cannot echo. */
export const LATEST_PROTOCOL_VERSION: HandshakeVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

/** Whether `initialize` can settle on `version`. Never a modern version: those have no handshake. */
export function isSupportedVersion(version: unknown): version is HandshakeVersion {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(version as HandshakeVersion);
}

/**
 * The stateless versions, newest first. Since 2026-07-28. A request carrying one of these in
 * `params._meta["io.modelcontextprotocol/protocolVersion"]` is served on its own, with no session.
 */
export const MODERN_PROTOCOL_VERSIONS = ["2026-07-28"] as const;

export type ModernVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

export const LATEST_MODERN_VERSION: ModernVersion = MODERN_PROTOCOL_VERSIONS[0];

/** Every version mcp-wire speaks, of either generation. */
export type ProtocolVersion = HandshakeVersion | ModernVersion;

/**
 * Every version mcp-wire speaks, newest first: what a -32022 error lists in `data.supported`, so a
 * client of either generation learns what it may use (our decision;
 * basic/versioning#protocol-version-negotiation's example
 * lists a legacy version beside the modern one).
 */
export const ALL_PROTOCOL_VERSIONS: readonly ProtocolVersion[] = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

export function isModernVersion(version: unknown): version is ModernVersion {
  return MODERN_PROTOCOL_VERSIONS.includes(version as ModernVersion);
}

/** Each feature that differs between versions, with the first version that has it. */
export const FIRST_VERSION_WITH = {
  /** JSON-RPC batches: receivers MUST accept them in 2025-03-26 only; 2025-06-18 removed them. */
  batches: "2025-03-26",
  /** `audio` content blocks. */
  audioContent: "2025-03-26",
  /** Tool `annotations` (readOnlyHint, destructiveHint, ...). */
  toolAnnotations: "2025-03-26",
  /** The `completions` server capability. */
  completionsCapability: "2025-03-26",
  /** A `message` string in progress notifications. */
  progressMessage: "2025-03-26",
  /** `title` on tools, resources, prompts, arguments and Implementation. */
  titles: "2025-06-18",
  /** Tool `outputSchema` and `structuredContent` in results. */
  structuredContent: "2025-06-18",
  /** `resource_link` content blocks. */
  resourceLinks: "2025-06-18",
  /** `_meta` on tools, resources, prompts and content blocks (results and params always had it). */
  metaOnDescriptors: "2025-06-18",
  /** `lastModified` in annotations. */
  lastModified: "2025-06-18",
  /** `context.arguments` in completion/complete. */
  completionContext: "2025-06-18",
  /** `elicitation/create` (form mode). */
  elicitation: "2025-06-18",
  /** `icons`, and `description` / `websiteUrl` on Implementation. */
  icons: "2025-11-25",
  /** Tool input validation failures reported as `isError` results rather than -32602 errors. */
  inputErrorsAsToolResults: "2025-11-25",
  /** Error responses to unreadable input leave `id` out instead of sending `null`. */
  omitUnreadableId: "2025-11-25",
  /** URL-mode elicitation and `notifications/elicitation/complete`. */
  urlElicitation: "2025-11-25",
  /** SSE polling (SEP-1699): a priming event with an id and empty data opens each SSE stream. */
  ssePriming: "2025-11-25",
  /** `tools` and `toolChoice` in sampling requests. */
  samplingTools: "2025-11-25",
  /**
   * Since 2026-07-28: `resultType` on every result, `serverInfo` in result `_meta`, cache fields on
   * cacheable results, -32602 for an unknown resource (ErrorCode.ResourceNotFound, -32002, before).
   */
  statelessResults: "2026-07-28",
} as const satisfies Record<string, ProtocolVersion>;

export type VersionedFeature = keyof typeof FIRST_VERSION_WITH;

/**
 * Features that a later version removed again, with the first version without them. (What
 * 2026-07-28 removed whole, such as initialize or ping, is a matter of methods, not features:
 * METHOD_ERA in mcp/methods.ts.)
 */
const REMOVED_IN: Partial<Record<VersionedFeature, ProtocolVersion>> = {
  batches: "2025-06-18",
};

/** Whether a peer that negotiated `version` has `feature`. Version strings sort as dates. */
export function supports(version: ProtocolVersion, feature: VersionedFeature): boolean {
  const removed = REMOVED_IN[feature];
  return version >= FIRST_VERSION_WITH[feature] && (removed === undefined || version < removed);
}

/** The JSON-RPC rules that depend on the negotiated version: a connection's WirePolicy. */
export function wirePolicy(version: HandshakeVersion): { batches: boolean; omitUnreadableId: boolean } {
  return { batches: supports(version, "batches"), omitUnreadableId: supports(version, "omitUnreadableId") };
}

/**
 * The capability a client request needs (SERVER_CAPABILITY_NEEDED in mcp/methods.ts) that a
 * server declaring `declared` at `version` did not declare, if any. Both roles ask this: the
 * server to refuse a request with -32601, the client to refuse to send it.
 */
export function undeclaredServerCapability(method: string, version: ProtocolVersion, declared: ServerCapabilities): CapabilityNeed | undefined {
  const need = isClientRequestMethod(method) ? SERVER_CAPABILITY_NEEDED[method] : null;
  return need && !hasFlag(need.flag, version, declared) ? need : undefined;
}

function isClientRequestMethod(method: string): method is ClientRequestMethod {
  return Object.hasOwn(SERVER_CAPABILITY_NEEDED, method);
}

function hasFlag(flag: CapabilityNeed["flag"], version: ProtocolVersion, declared: ServerCapabilities): boolean {
  switch (flag) {
    case "resources.subscribe":
      return !!declared.resources?.subscribe;
    case "completions":
      // 2024-11-05 had completion/complete but no flag for it: prompts or resources imply it.
      return supports(version, "completionsCapability") ? !!declared.completions : !!declared.prompts || !!declared.resources;
    default:
      return !!declared[flag];
  }
}
