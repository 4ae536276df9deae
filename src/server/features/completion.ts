// completion/complete: suggestions for a prompt argument or a resource template variable.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion

import { invalidParams } from "../../jsonrpc/field-reader.js";
import type { Completer } from "../catalog.js";
import type { ClientRequestHandlers } from "../serving.js";

/** Spec (server/utilities/completion#completion-results): at most 100 values per response. */
const MAX_VALUES = 100;

export const completionHandlers: ClientRequestHandlers = {
  async "completion/complete"({ ref, argument, context }, _context, connection) {
    let completer: Completer | undefined;
    if (ref.type === "ref/prompt") {
      const prompt = connection.server.findPrompt(ref.name);
      if (!prompt) throw invalidParams("completion/complete", "ref.name", `names no prompt of this server: ${JSON.stringify(ref.name)}`);
      completer = prompt.complete[argument.name];
    } else {
      const template = connection.server.findTemplate(ref.uri);
      if (!template) throw invalidParams("completion/complete", "ref.uri", `names no resource template of this server: ${JSON.stringify(ref.uri)}`);
      completer = template.complete[argument.name];
    }
    // An argument without a completer simply has no suggestions.
    const values = completer ? await completer(argument.value, context?.arguments ?? {}) : [];
    const completion: { values: string[]; total?: number; hasMore: boolean } = {
      values: values.slice(0, MAX_VALUES),
      hasMore: values.length > MAX_VALUES,
    };
    if (values.length > MAX_VALUES) completion.total = values.length;
    return { completion };
  },
};
