// A recording as a Mermaid `sequenceDiagram` (the text GitHub Markdown renders in a ```mermaid
// block): participants Client and Server, one arrow per message, in the recording's order (a
// batch's messages each, in a shaded block that says "batch of N").
// Arrows (Mermaid's own shapes): a request or a result `->>` (solid), a notification `-->>`
// (dotted), a JSON-RPC error `-x` (solid, a cross at its head), a line that is not JSON-RPC `--x`
// (dotted, a cross). Labels are explain-messages.ts's: "2: tools/call echo", "2: result (tools/call)";
// a result with isError: true says so in its label (the tool failed, not the protocol).

import { drawnMessages, type DescribedMessage, type MessageKind } from "./explain-messages.js";
import { printable } from "./recording.js";

const ARROW: Record<MessageKind, string> = {
  request: "->>",
  result: "->>",
  batch: "->>",
  notification: "-->>",
  error: "-x",
  invalid: "--x",
  "not-json": "--x",
};

/** Participants' ids in the diagram text; "as" gives them their names. */
const ENDS = { c2s: ["C", "S"], s2c: ["S", "C"] } as const;

/** The background of a batch's messages, and of nothing else. */
const BATCH_SHADE = "rgb(238, 243, 251)";

/**
 * The diagram; `note`, if given, is written over both participants before the first arrow. A
 * batch's messages are drawn one by one inside a shaded `rect` block headed "batch of N".
 */
export function mermaidDiagram(messages: DescribedMessage[], note?: string): string {
  const lines = ["sequenceDiagram", "    participant C as Client", "    participant S as Server"];
  if (note) lines.push(`    Note over C,S: ${mermaidText(note)}`);
  for (const message of drawnMessages(messages)) {
    const [from, to] = ENDS[message.dir];
    if (message.batch?.position === 1) lines.push(`    rect ${BATCH_SHADE}`, `    Note over C,S: batch of ${message.batch.size}`);
    lines.push(`    ${from}${ARROW[message.kind]}${to}: ${mermaidText(message.label)}`);
    if (message.batch && message.batch.position === message.batch.size) lines.push("    end");
  }
  return lines.join("\n") + "\n";
}

/**
 * A message's text, safe in Mermaid: it runs to the end of the line, "#" starts an entity code and
 * ";" ends a statement, and the text is rendered as HTML; so every character outside a plain set
 * is written as Mermaid's decimal entity code (`#60;` for "<"), which renders as the character.
 * Control characters are shown as \u escapes first (printable), not rendered.
 */
export function mermaidText(text: string): string {
  return printable(text).replace(/[^A-Za-z0-9 _.,:()/@+=*?!'[\]{}|~^$-]/gu, (char) => `#${char.codePointAt(0)};`);
}
