// JSON Pointer (RFC 6901, https://www.rfc-editor.org/rfc/rfc6901) for the JSON Schema validator:
// building the instance paths that issues point at, and resolving a schema's local `$ref`
// fragments such as "#", "#/$defs/item" or "#/definitions/a%20b".
// Only fragments inside the same document; anchors ("#name") and other documents are not handled here.

/** Appends one property name or array index to a pointer ("" is the whole document). */
export function childPointer(pointer: string, segment: string | number): string {
  if (typeof segment === "number" || !/[~/]/.test(segment)) return `${pointer}/${segment}`;
  // "~" is escaped before "/", so the "~" that "~1" introduces is not escaped twice.
  return `${pointer}/${segment.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/**
 * Looks up a URI fragment ("#/a/0") inside `root`. Returns a one-element box so that a
 * pointer to a legitimately `undefined`-free JSON value is told apart from "not found".
 */
export function resolveFragment(root: unknown, ref: string): { value: unknown } | undefined {
  if (!ref.startsWith("#")) return undefined;
  let pointer: string;
  try {
    // A fragment is a URI component, so "%25" means "%" before any "~" unescaping happens.
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === "") return { value: root };
  if (!pointer.startsWith("/")) return undefined;
  let current: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    // RFC 6901 §4: "~1" becomes "/" first, then "~0" becomes "~".
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment) || Number(segment) >= current.length) return undefined;
      current = current[Number(segment)];
    } else if (current !== null && typeof current === "object" && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return { value: current };
}
