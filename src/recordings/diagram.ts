// `mcp-wire diagram FILE --format mermaid|svg [--out FILE]`: a recording as a sequence diagram,
// one arrow per message (a batch's messages each, grouped as one batch): Mermaid text for Markdown
// (diagram-mermaid.ts) or a standalone SVG of our own (diagram-svg.ts). Both draw what
// explain-messages.ts says each message is.
// A golden transcript keeps each side's order only, so its diagram shows the client's lines, then
// the server's, and says so in a note; the session and JSON-lines forms keep the order of the wire.

import { writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { ExitCode, print, printError } from "../cli/output.js";
import { mermaidDiagram } from "./diagram-mermaid.js";
import { svgDiagram } from "./diagram-svg.js";
import { describeRecording, GOLDEN_ORDER } from "./explain-messages.js";
import { HELP_FLAG, readOrReport, readToolArguments, reportUsage } from "./explain-tool.js";

export const DIAGRAM_USAGE = `usage: mcp-wire diagram FILE [--format mermaid|svg] [--out FILE]

Draws a recording (any form) as a sequence diagram between Client and Server, one arrow per
message: requests and results solid, notifications dashed, JSON-RPC errors marked (Mermaid: a
cross; SVG: red), each labelled with its method or the request it answers ("2: result (tools/call)");
a batch's messages each get an arrow, grouped under "batch of N".
  --format mermaid   a Mermaid sequenceDiagram, for a \`\`\`mermaid block in Markdown (default)
  --format svg       a standalone SVG; long labels are cut, their full text in a tooltip
  --out FILE         write to FILE instead of stdout
exit codes: 0 drawn, 1 the recording cannot be read or the output cannot be written, 2 usage error`;

const FORMATS = ["mermaid", "svg"] as const;

export async function run(argv: string[]): Promise<number> {
  const parsed = await readToolArguments("diagram", DIAGRAM_USAGE, argv, { format: { type: "string" }, out: { type: "string" }, help: HELP_FLAG });
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const format = FORMATS.find((name) => name === (values.format ?? "mermaid"));
  if (!format) return usageError(`--format must be mermaid or svg, not ${JSON.stringify(values.format)}`);
  if (positionals.length !== 1) return usageError(positionals.length === 0 ? "diagram needs a recording FILE" : `diagram takes one FILE, got ${positionals.length}`);
  const file = positionals[0]!;
  const recording = await readOrReport("diagram", file);
  if (!recording) return ExitCode.failed;
  const messages = describeRecording(recording);
  const note = recording.form === "golden" ? GOLDEN_ORDER : undefined;
  const drawn = format === "svg" ? svgDiagram(messages, { title: `MCP session: ${basename(file)}`, note }) : mermaidDiagram(messages, note);
  if (values.out === undefined) {
    await print(drawn.trimEnd());
    return ExitCode.ok;
  }
  try {
    await writeFile(values.out, drawn);
  } catch (error) {
    printError(`mcp-wire diagram: cannot write ${values.out} (${error instanceof Error ? error.message : String(error)})`);
    return ExitCode.failed;
  }
  return ExitCode.ok;
}

function usageError(message: string): number {
  return reportUsage("diagram", message, DIAGRAM_USAGE);
}
