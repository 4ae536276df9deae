// What a client answers when the server asks: roots, sampling, elicitation (and ping), each only
// when the application supplied a handler, which is also what makes the client declare it
// (client/capabilities.ts).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/roots, client/sampling,
// client/elicitation. A request with no handler gets -32601 from the dispatcher; the params each
// handler gets were read and checked by mcp/read.ts.

import { requestRows } from "../protocol/dispatch.js";
import type { RequestHandlers, RequestRow } from "../protocol/method-table.js";
import { ErrorCode, RpcError } from "../jsonrpc/messages.js";
import { invalidParams } from "../jsonrpc/field-reader.js";
import type { RequestContext } from "../protocol/connection.js";
import type { CreateMessageRequestParams, CreateMessageResult, Root } from "../mcp/client-features.js";
import type { ElicitRequestFormParams, ElicitRequestURLParams, ElicitResult } from "../mcp/elicitation.js";
import type { ServerRequests } from "../mcp/methods.js";
import { readServerRequestParams } from "../mcp/read.js";

/** What a handler for a server request can see besides the params. */
export interface ServerRequestContext {
  /**
   * Handshake era: aborted when the server cancels its request or the connection closes. 2026-07-28
   * (an input round): the signal of the call that asked for the input, so aborted when the caller
   * gives up; never when the server or the connection does (no request of the server's is open).
   */
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

/**
 * The application's answer to each server request it has a handler for, one function per method:
 * the handshake era's dispatcher rows (serverRequestRows) and the 2026-07-28 input rounds
 * (modern/input-rounds.ts) both call these, so a server's question gets the same answer in either era.
 * @param openUrlElicitations the ids of URL-mode elicitations the user accepted and that have
 *   not completed yet; notifications/elicitation/complete is only heard for these.
 */
export function serverRequestHandlers(handlers: ClientHandlers, openUrlElicitations: Set<string>): RequestHandlers<ServerRequests, ServerRequestContext> {
  const table: RequestHandlers<ServerRequests, ServerRequestContext> = { ping: () => ({}) };
  const roots = handlers.roots;
  if (roots) table["roots/list"] = async () => ({ roots: await roots() });

  const sampling = handlers.sampling;
  if (sampling) {
    table["sampling/createMessage"] = (params, context) => {
      // Spec (client/sampling#tools-in-sampling): tools without sampling.tools MUST be answered with an error.
      if (!handlers.samplingTools && (params.tools !== undefined || params.toolChoice !== undefined)) {
        throw invalidParams("sampling/createMessage", "tools", "cannot be used: this client did not declare sampling.tools");
      }
      return sampling(params, { signal: context.signal });
    };
  }

  const elicitation = handlers.elicitation;
  if (elicitation?.form || elicitation?.url) {
    table["elicitation/create"] = async (params, context) => {
      const signal = context.signal;
      if (params.mode === "url" && elicitation.url) {
        const result = await elicitation.url(params, { signal });
        if (result.action === "accept") openUrlElicitations.add(params.elicitationId);
        return result;
      }
      // Spec (client/elicitation): a request without `mode` is form mode.
      if ((params.mode === undefined || params.mode === "form") && elicitation.form) {
        return withDefaults(params, await elicitation.form(params, { signal }));
      }
      // Spec (client/elicitation): a mode the client did not declare is answered with -32602
      // (in 2026-07-28, where no request of the server's is open, the call fails with InputRefusedError).
      throw new RpcError(ErrorCode.InvalidParams, `elicitation/create: this client does not support ${JSON.stringify(params.mode ?? "form")} mode`);
    };
  }
  return table;
}

/** The handshake era: the same answers as rows of the client's dispatcher (a request with no handler gets -32601). */
export function serverRequestRows(handlers: ClientHandlers, openUrlElicitations: Set<string>): RequestRow<RequestContext>[] {
  return requestRows(readServerRequestParams, serverRequestHandlers(handlers, openUrlElicitations));
}

/**
 * Spec (client/elicitation, 2025-11-25): clients SHOULD pre-fill each field's `default`. Here the
 * defaults fill what an accepted answer leaves out, so a user who skips a field sends its default.
 */
export function withDefaults(params: ElicitRequestFormParams, result: ElicitResult): ElicitResult {
  if (result.action !== "accept") return result;
  const content: NonNullable<ElicitResult["content"]> = { ...(result.content ?? {}) };
  for (const [name, field] of Object.entries(params.requestedSchema.properties ?? {})) {
    if (content[name] === undefined && field.default !== undefined) content[name] = field.default;
  }
  return { ...result, content };
}
