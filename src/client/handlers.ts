// What a client answers when the server asks: roots, sampling, elicitation (and ping), each only
// when the application supplied a handler, which is also what makes the client declare it.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/roots, client/sampling,
// client/elicitation. A request with no handler gets -32601 from the dispatcher.

import type { Row } from "../jsonrpc/dispatcher.js";
import { ErrorCode, isObject, RpcError } from "../jsonrpc/messages.js";
import type { RequestContext } from "../protocol/connection.js";
import type { CreateMessageRequestParams, CreateMessageResult, Root } from "../mcp/client-features.js";
import type { ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult } from "../mcp/elicitation.js";
import type { ClientCapabilities } from "../mcp/lifecycle.js";

/** What a handler for a server request can see besides the params. */
export interface ServerRequestContext {
  /** Aborted when the server cancels its request or the connection closes. */
  signal: AbortSignal;
}

export interface ClientHandlers {
  /** The client's filesystem roots. Supplying it declares `roots` (with listChanged). */
  roots?: () => Root[] | Promise<Root[]>;
  /** Runs the host's model for the server. Supplying it declares `sampling`. */
  sampling?: (params: CreateMessageRequestParams, context: ServerRequestContext) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Also declares `sampling.tools`: the server may then offer tools to the model it borrows. */
  samplingTools?: boolean;
  /** Asks the user. Each mode supplied is declared; form mode gets schema defaults filled in. */
  elicitation?: {
    form?: (params: ElicitRequestFormParams, context: ServerRequestContext) => ElicitResult | Promise<ElicitResult>;
    url?: (params: ElicitRequestURLParams, context: ServerRequestContext) => ElicitResult | Promise<ElicitResult>;
  };
}

/** The capabilities that follow from the handlers: nothing is declared that cannot be answered. */
export function declaredClientCapabilities(handlers: ClientHandlers): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (handlers.roots) capabilities.roots = { listChanged: true };
  if (handlers.sampling) capabilities.sampling = handlers.samplingTools ? { tools: {} } : {};
  // Spec (client/elicitation#capabilities): an empty object means form mode only, which every
  // version with elicitation reads the same way; the mode keys are needed only for URL mode.
  if (handlers.elicitation?.url) capabilities.elicitation = handlers.elicitation.form ? { form: {}, url: {} } : { url: {} };
  else if (handlers.elicitation?.form) capabilities.elicitation = {};
  return capabilities;
}

/**
 * @param openUrlElicitations the ids of URL-mode elicitations the user accepted and that have
 *   not completed yet; notifications/elicitation/complete is only heard for these.
 */
export function serverRequestRows(handlers: ClientHandlers, openUrlElicitations: Set<string>): Row<RequestContext>[] {
  const rows: Row<RequestContext>[] = [{ method: "ping", kind: "request", handle: () => ({}) }];
  const roots = handlers.roots;
  if (roots) rows.push({ method: "roots/list", kind: "request", handle: async () => ({ roots: await roots() }) });

  const sampling = handlers.sampling;
  if (sampling) {
    rows.push({
      method: "sampling/createMessage",
      kind: "request",
      async handle(params, context) {
        if (!Array.isArray(params.value.messages)) throw params.error("messages", "must be an array");
        if (typeof params.value.maxTokens !== "number") throw params.error("maxTokens", "must be a number");
        // Spec (client/sampling#tools-in-sampling): tools without sampling.tools MUST be answered with an error.
        if (!handlers.samplingTools && (params.value.tools !== undefined || params.value.toolChoice !== undefined)) {
          throw params.error("tools", "cannot be used: this client did not declare sampling.tools");
        }
        const result = await sampling(params.value as unknown as CreateMessageRequestParams, { signal: context.signal });
        return result as unknown as { [key: string]: unknown };
      },
    });
  }

  const elicitation = handlers.elicitation;
  if (elicitation?.form || elicitation?.url) {
    rows.push({
      method: "elicitation/create",
      kind: "request",
      async handle(params, context) {
        // Spec (client/elicitation): a request without `mode` is form mode.
        const mode = params.value.mode ?? "form";
        const signal = context.signal;
        if (mode === "url" && elicitation.url) {
          params.string("url");
          const elicitationId = params.string("elicitationId");
          const result = await elicitation.url(params.value as unknown as ElicitRequestURLParams, { signal });
          if (result.action === "accept") openUrlElicitations.add(elicitationId);
          return result as unknown as { [key: string]: unknown };
        }
        if (mode === "form" && elicitation.form) {
          const form = params.value as unknown as ElicitRequestFormParams;
          if (!isObject(form.requestedSchema)) throw params.error("requestedSchema", "must be an object");
          return withDefaults(form, await elicitation.form(form, { signal })) as unknown as { [key: string]: unknown };
        }
        // Spec (client/elicitation): a mode the client did not declare is answered with -32602.
        throw new RpcError(ErrorCode.InvalidParams, `elicitation/create: this client does not support ${JSON.stringify(mode)} mode`);
      },
    });
  }
  return rows;
}

/**
 * Spec (client/elicitation, 2025-11-25): clients SHOULD pre-fill each field's `default`. Here the
 * defaults fill what an accepted answer leaves out, so a user who skips a field sends its default.
 */
export function withDefaults(params: ElicitRequestFormParams, result: ElicitResult): ElicitResult {
  if (result.action !== "accept") return result;
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  for (const [name, field] of Object.entries(params.requestedSchema.properties ?? {})) {
    const fallback = (field as { default?: unknown }).default;
    if (content[name] === undefined && fallback !== undefined) content[name] = fallback;
  }
  return { ...result, content: content as ElicitResult["content"] };
}
