// Value helpers shared by the JSON Schema keywords: the JSON type of a value, deep equality
// through a canonical text form, Unicode code-point length and a float-safe multipleOf.
// JSON Schema 2020-12 validation §6 (https://json-schema.org/draft/2020-12/json-schema-validation).
// Instances are JSON data; an object property whose value is `undefined` counts as absent,
// because that is what the value looks like once it has been serialized onto the wire.

/** How deep a value may nest before the validator refuses to look further. */
export const MAX_INSTANCE_DEPTH = 256;
export const TOO_DEEP = `nesting deeper than ${MAX_INSTANCE_DEPTH} levels`;

/** The JSON Schema type name of a value, as used in "got ..." messages. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Own property names whose value would survive JSON serialization. */
export function presentKeys(object: Record<string, unknown>): string[] {
  return Object.keys(object).filter((key) => object[key] !== undefined);
}

/**
 * A text form in which two values are equal exactly when JSON Schema calls them equal
 * (keys sorted, 1 and 1.0 alike). Returns undefined for values nested deeper than
 * MAX_INSTANCE_DEPTH, which also stops on cyclic objects instead of looping forever.
 */
export function canonicalJson(value: unknown, depth = 0): string | undefined {
  if (depth > MAX_INSTANCE_DEPTH) return undefined;
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (const item of value) {
      const part = canonicalJson(item, depth + 1);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    return `[${parts.join(",")}]`;
  }
  if (isJsonObject(value)) {
    const parts: string[] = [];
    for (const key of presentKeys(value).sort()) {
      const part = canonicalJson(value[key], depth + 1);
      if (part === undefined) return undefined;
      parts.push(`${JSON.stringify(key)}:${part}`);
    }
    return `{${parts.join(",")}}`;
  }
  // Anything JSON cannot carry (undefined in an array, a function) travels as null.
  return JSON.stringify(value) ?? "null";
}

/** String length in Unicode code points: an emoji outside the BMP counts once, not twice. */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    count++;
  }
  return count;
}

/** Decimal digits after the point in a number's shortest text form ("1.5e-7" has 8). */
function decimals(value: number): number {
  const [mantissa = "", exponent = "0"] = String(value).split("e");
  const fraction = mantissa.split(".")[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/**
 * Whether `value` is an integer multiple of `divisor`. Plain division says 0.3 / 0.1 is
 * 2.9999999999999996, so when it is not exact we scale both to integers by their decimal
 * digits (0.3 and 0.1 become 3 and 1) and compare those, as long as they stay exact.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (Number.isInteger(value / divisor)) return true;
  // Every integer is a multiple of 0.5 or 0.1 even when value / divisor overflows.
  if (Number.isInteger(value) && Number.isInteger(1 / divisor)) return true;
  const scale = 10 ** Math.max(decimals(value), decimals(divisor));
  const scaledValue = Math.round(value * scale);
  const scaledDivisor = Math.round(divisor * scale);
  if (!Number.isSafeInteger(scaledValue) || !Number.isSafeInteger(scaledDivisor)) return false;
  return scaledDivisor !== 0 && scaledValue % scaledDivisor === 0;
}
