// One field of an elicitation form as mcp-wire asks it at a terminal: the label shown, and the
// typed answer read back from a line, or what is wrong with it (so the person can try again).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#requested-schema
// The checks are the form's own (lengths, pattern, bounds, formats, choices): the server checks the answer
// again, but a person told at once can fix it, where a server's refusal ends the call.

import type { PrimitiveSchemaDefinition } from "../mcp/elicitation.js";
import { terminalSafe } from "./output.js";

export type FieldValue = string | number | boolean | string[];

/** What a line gave: the field's value, or why it is not one. */
export type FieldAnswer = { value: FieldValue } | { problem: string };

/** A choice: `value` is sent back, `label` is shown. */
interface Choice { value: string; label: string }

/**
 * The field's prompt: its title (or name), description, choices and `fallback` (what Enter keeps:
 * its default, or the answer given before); all escaped, as they are the server's text.
 */
export function fieldPrompt(name: string, field: PrimitiveSchemaDefinition, required: boolean, fallback: FieldValue | undefined): string {
  const label = terminalSafe(field.title ?? name) + (required ? " *" : "");
  const description = field.description === undefined ? "" : ` (${terminalSafe(field.description)})`;
  const choices = choicesOf(field);
  const list = choices === undefined ? "" : `\n${choices.map((choice, at) => `  ${at + 1}) ${terminalSafe(choice.label)}`).join("\n")}`;
  const kind = field.type === "boolean" ? " [y/n]" : field.type === "array" ? " (several: separate them with commas)" : "";
  const kept = fallback === undefined ? "" : ` [${terminalSafe(Array.isArray(fallback) ? fallback.join(", ") : String(fallback))}]`;
  const head = `${label}${description}${kind}${kept}`;
  return list === "" ? `${head}: ` : `${head}${list}\n> `;
}

/** The typed value of `text` (not empty: an empty line is the caller's to read) for `field`. */
export function parseFieldAnswer(field: PrimitiveSchemaDefinition, text: string): FieldAnswer {
  const choices = choicesOf(field);
  switch (field.type) {
    case "boolean":
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { problem: "answer y or n" };
    case "number":
    case "integer": {
      const value = Number(text);
      if (!Number.isFinite(value)) return { problem: "not a number" };
      if (field.type === "integer" && !Number.isInteger(value)) return { problem: "not a whole number" };
      if (field.minimum !== undefined && value < field.minimum) return { problem: `at least ${field.minimum}` };
      if (field.maximum !== undefined && value > field.maximum) return { problem: `at most ${field.maximum}` };
      return { value };
    }
    case "array": {
      const picked: string[] = [];
      for (const part of text.split(",").map((item) => item.trim()).filter((item) => item !== "")) {
        const value = choose(choices ?? [], part);
        if (value === undefined) return { problem: `not one of the choices: ${terminalSafe(part)}` };
        if (!picked.includes(value)) picked.push(value);
      }
      if ("minItems" in field && field.minItems !== undefined && picked.length < field.minItems) return { problem: `choose at least ${field.minItems}` };
      if ("maxItems" in field && field.maxItems !== undefined && picked.length > field.maxItems) return { problem: `choose at most ${field.maxItems}` };
      return { value: picked };
    }
    case "string": {
      if (choices !== undefined) {
        const value = choose(choices, text);
        return value === undefined ? { problem: "not one of the choices: answer its number or its value" } : { value };
      }
      const length = [...text].length;
      if ("minLength" in field && field.minLength !== undefined && length < field.minLength) return { problem: `at least ${field.minLength} characters` };
      if ("maxLength" in field && field.maxLength !== undefined && length > field.maxLength) return { problem: `at most ${field.maxLength} characters` };
      if (!fitsPattern((field as { pattern?: unknown }).pattern, text)) return { problem: "not in the form the server asks for" };
      const format = "format" in field ? field.format : undefined;
      if (format !== undefined && !FORMATS[format](text)) return { problem: `not ${format === "email" ? "an" : "a"} ${format}` };
      return { value: text };
    }
  }
}

/** A string's `pattern` (in the spec's String Schema, not in our type): one that is not a regular expression checks nothing. */
function fitsPattern(pattern: unknown, text: string): boolean {
  if (typeof pattern !== "string") return true;
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return true;
  }
}

/** Loose checks of the formats a form may name: enough to catch a slip, not a validator. */
const FORMATS: { [format: string]: (text: string) => boolean } = {
  email: (text) => /^[^\s@]+@[^\s@]+$/.test(text),
  uri: (text) => /^[a-z][a-z0-9+.-]*:\S*$/i.test(text),
  date: (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)),
  "date-time": (text) => /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text)),
};

/** The choices of an enum field in any of its shapes (titled, untitled, legacy enumNames, multi-select). */
function choicesOf(field: PrimitiveSchemaDefinition): Choice[] | undefined {
  if (field.type === "array") {
    const items = field.items;
    return "anyOf" in items ? items.anyOf.map((option) => ({ value: option.const, label: option.title })) : items.enum.map((value) => ({ value, label: value }));
  }
  if (field.type !== "string") return undefined;
  if ("oneOf" in field) return field.oneOf.map((option) => ({ value: option.const, label: option.title }));
  if ("enum" in field) {
    const names = "enumNames" in field ? field.enumNames : undefined;
    return field.enum.map((value, at) => ({ value, label: names?.[at] ?? value }));
  }
  return undefined;
}

/** The value a person meant: a choice's number, its value, or its label (in any case). */
function choose(choices: Choice[], text: string): string | undefined {
  const number = Number(text);
  if (Number.isInteger(number) && number >= 1 && number <= choices.length) return choices[number - 1]!.value;
  const lower = text.toLowerCase();
  return (choices.find((choice) => choice.value === text) ?? choices.find((choice) => choice.label.toLowerCase() === lower))?.value;
}
