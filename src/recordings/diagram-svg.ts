// A recording as a standalone SVG sequence diagram, drawn by hand (no dependency): Client and
// Server boxes at the top and bottom, a lifeline under each, one arrow per message from top to
// bottom, its label above it and its number and time (when recorded) at the left; a batch's
// messages each get their arrow ("4.1", "4.2") on a shaded band headed "batch of N".
// Notifications are dashed; JSON-RPC errors and lines that are not JSON-RPC are red, a tool's
// isError result amber. A long session only grows taller; a long label is cut, its full text and
// note in the arrow's <title> (a tooltip).

import { drawnMessages, type DescribedMessage, type DrawnMessage, type MessageKind } from "./explain-messages.js";
import { printable } from "./recording.js";

const WIDTH = 760;
const CLIENT_X = 190;
const SERVER_X = 690;
const TOP = 20;
const BOX = { width: 120, height: 34 };
const FIRST_ROW = TOP + BOX.height + 34;
const ROW = 30;
/** Labels longer than this are cut (the <title> keeps them whole): the space between lifelines. */
const LABEL_CHARS = 60;
const FONT = "font-family=\"ui-monospace, SFMono-Regular, Menlo, Consolas, monospace\"";

const FAILED: ReadonlySet<MessageKind> = new Set(["error", "invalid", "not-json"]);
const DASHED: ReadonlySet<MessageKind> = new Set(["notification", "invalid", "not-json"]);

const INK = { plain: "#222", failed: "#c62828", isError: "#a15c00" };

/** The diagram; `title` names it (a tooltip), `note`, if given, is written under the top boxes. */
export function svgDiagram(messages: DescribedMessage[], options: { title?: string; note?: string } = {}): string {
  const firstRow = FIRST_ROW + (options.note ? ROW : 0);
  const { drawn, bottom } = layout(drawnMessages(messages), firstRow);
  const height = bottom + BOX.height + TOP;
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ${FONT} font-size="12">`,
    `<title>${xmlText(options.title ?? "MCP session")}</title>`,
    `<defs>`,
    ...Object.entries(INK).map(([name, color]) => marker(name, color)),
    `</defs>`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    lifeline(CLIENT_X, bottom),
    lifeline(SERVER_X, bottom),
    box("Client", CLIENT_X, TOP),
    box("Server", SERVER_X, TOP),
    box("Client", CLIENT_X, bottom),
    box("Server", SERVER_X, bottom),
    ...(options.note ? [`<text x="${(CLIENT_X + SERVER_X) / 2}" y="${FIRST_ROW + ROW / 2}" text-anchor="middle" fill="#555" font-style="italic">${xmlText(options.note)}</text>`] : []),
    ...drawn,
    `</svg>`,
  ];
  return parts.join("\n") + "\n";
}

/**
 * The rows from `top` down: an arrow per message; a batch gets a shaded band behind its messages,
 * headed by a row of its own that says "batch of N". Gives the drawing and where it ends.
 */
function layout(messages: DrawnMessage[], top: number): { drawn: string[]; bottom: number } {
  const drawn: string[] = [];
  let y = top;
  for (const message of messages) {
    if (message.batch?.position === 1) {
      const height = (message.batch.size + 1) * ROW;
      drawn.push(`<g class="batch"><rect x="${CLIENT_X - 30}" y="${y + 2}" width="${SERVER_X - CLIENT_X + 60}" height="${height - 4}" rx="6" fill="#f1f5fb" stroke="#c5d3e8"/><text x="${(CLIENT_X + SERVER_X) / 2}" y="${y + ROW / 2 + 4}" text-anchor="middle" fill="#4a6fa5" font-style="italic">batch of ${message.batch.size}</text></g>`);
      y += ROW;
    }
    drawn.push(arrow(message, y + ROW / 2));
    y += ROW;
  }
  return { drawn, bottom: y };
}

function arrow(message: DrawnMessage, y: number): string {
  const failed = FAILED.has(message.kind);
  const ink = failed ? "failed" : message.isError ? "isError" : "plain";
  const color = INK[ink];
  const [from, to] = message.dir === "c2s" ? [CLIENT_X, SERVER_X] : [SERVER_X, CLIENT_X];
  const end = to + (to > from ? -2 : 2);
  const dash = DASHED.has(message.kind) ? ` stroke-dasharray="6 4"` : "";
  // Cut by code points, so that a character outside the BMP is never split into a lone surrogate.
  const chars = Array.from(message.label);
  const label = chars.length > LABEL_CHARS ? `${chars.slice(0, LABEL_CHARS - 1).join("")}…` : message.label;
  const time = message.at === undefined ? "" : ` +${message.at} ms`;
  return [
    `<g class="message ${message.kind}">`,
    `<title>${xmlText(`${message.number}. ${message.label}: ${message.note}`)}</title>`,
    `<text x="12" y="${y + 4}" fill="#777">${message.number}${xmlText(time)}</text>`,
    `<line class="arrow" x1="${from}" y1="${y}" x2="${end}" y2="${y}" stroke="${color}" stroke-width="1.5"${dash} marker-end="url(#${ink})"/>`,
    `<text x="${(CLIENT_X + SERVER_X) / 2}" y="${y - 5}" text-anchor="middle" fill="${color}"${failed ? ` font-weight="bold"` : ""}>${xmlText(label)}</text>`,
    `</g>`,
  ].join("");
}

function marker(id: string, color: string): string {
  return `<marker id="${id}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${color}"/></marker>`;
}

function lifeline(x: number, bottom: number): string {
  return `<line class="lifeline" x1="${x}" y1="${TOP + BOX.height}" x2="${x}" y2="${bottom}" stroke="#999" stroke-dasharray="2 3"/>`;
}

function box(name: string, x: number, y: number): string {
  return `<g class="participant"><rect x="${x - BOX.width / 2}" y="${y}" width="${BOX.width}" height="${BOX.height}" rx="4" fill="#eef3fb" stroke="#4a6fa5"/><text x="${x}" y="${y + BOX.height / 2 + 5}" text-anchor="middle" font-size="14" font-weight="bold">${name}</text></g>`;
}

/**
 * Text safe in XML content and attribute values: control characters and lone surrogates shown as
 * \u escapes (printable), which leaves none of the characters XML 1.0 forbids but U+FFFE and
 * U+FFFF, dropped; then the five markup characters as entities.
 */
export function xmlText(text: string): string {
  return printable(text)
    .replace(/[\uFFFE\uFFFF]/g, "")
    .replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
