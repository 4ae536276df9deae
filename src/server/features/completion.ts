// completion/complete: suggestions for a prompt argument or a resource template variable.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion

import type { Row } from "../../jsonrpc/dispatcher.js";
import type { RequestContext } from "../../protocol/connection.js";
import type { Completer } from "../definition.js";
import type { ServerSession } from "../session.js";

/** Spec (server/utilities/completion#completion-results): at most 100 values per response. */
const MAX_VALUES = 100;

export function completionRows(session: ServerSession): Row<RequestContext>[] {
  return [
    {
      method: "completion/complete",
      kind: "request",
      async handle(params) {
        const ref = params.object("ref");
        const type = ref.choice("type", ["ref/prompt", "ref/resource"]);
        const argument = params.object("argument");
        const argumentName = argument.string("name");
        const value = argument.string("value");
        const resolved = params.optionalObject("context")?.optionalStringRecord("arguments") ?? {};

        let completer: Completer | undefined;
        if (type === "ref/prompt") {
          const name = ref.string("name");
          const prompt = session.server.findPrompt(name);
          if (!prompt) throw ref.error("name", `names no prompt of this server: ${JSON.stringify(name)}`);
          completer = prompt.complete[argumentName];
        } else {
          const uri = ref.string("uri");
          const template = session.server.findTemplate(uri);
          if (!template) throw ref.error("uri", `names no resource template of this server: ${JSON.stringify(uri)}`);
          completer = template.complete[argumentName];
        }
        // An argument without a completer simply has no suggestions.
        const values = completer ? await completer(value, resolved) : [];
        const completion: { values: string[]; total?: number; hasMore: boolean } = {
          values: values.slice(0, MAX_VALUES),
          hasMore: values.length > MAX_VALUES,
        };
        if (values.length > MAX_VALUES) completion.total = values.length;
        return { completion };
      },
    },
  ];
}
