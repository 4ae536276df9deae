// A small JSON Schema validator for MCP tool `inputSchema` / `outputSchema`. The spec asks for the
// supported subset to be documented; this header is that documentation.
// https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage
// Dialects: 2020-12 (also when "$schema" is absent) and draft-07; any other "$schema" is a SchemaError.
// Supported: type, enum, const, properties, required, additionalProperties, patternProperties,
// propertyNames, minProperties, maxProperties, dependentRequired, dependentSchemas, dependencies
// (draft-07), items (schema, or draft-07 array form), prefixItems, additionalItems, contains,
// minContains, maxContains, minItems, maxItems, uniqueItems, minLength, maxLength (code points),
// pattern, format (email, uri, date, date-time, time, uuid, ipv4), minimum, maximum,
// exclusiveMinimum, exclusiveMaximum (numbers), multipleOf, allOf, anyOf, oneOf, not, if/then/else,
// $ref to "#..." JSON Pointer fragments, $defs, definitions. Either dialect's keywords are honoured
// under both; the one difference kept is that draft-07 ignores the siblings of "$ref". `format` is
// asserted in both dialects (2020-12 makes that opt-in; a server checking arguments wants it).
// Refused (a SchemaError naming the keyword, so a tool using one fails at registration rather than
// accepting what its author meant to refuse): unevaluatedProperties, unevaluatedItems,
// $dynamicRef, $recursiveRef; a $ref that is remote, $id-relative or a plain-name fragment
// ($anchor); the draft-04 boolean exclusiveMinimum. Ignored, as JSON Schema says unknown keywords
// and annotations must be: $dynamicAnchor, $anchor, nested $id (it does not change the base),
// $vocabulary, content* keywords, other formats (annotations: they always pass), title,
// description, default, examples, $comment, readOnly, ...
// Limits: an instance nested deeper than 256 levels, or schemas applied more than 1024 deep,
// is invalid with an issue saying so; validation never throws RangeError.

import { childPointer } from "./json-pointer.js";
import { assertionMessages } from "./json-schema-assertions.js";
import { type JsonSchema, type PreparedSchema, SchemaError, prepareSchema } from "./json-schema-check.js";
import { MAX_INSTANCE_DEPTH, TOO_DEEP, isJsonObject, presentKeys } from "./json-schema-values.js";

export { SchemaError, type JsonSchema };


/** One reason an instance is invalid. */
export interface SchemaIssue {
  /** JSON Pointer into the instance: "" is the whole value, "/a/0/b" a nested one. */
  path: string;
  message: string;
}

/**
 * How many schemas may be applied inside one another. A recursive schema typically applies two to
 * four schemas per level of the instance (the schema, its "items", the $ref, an anyOf branch),
 * so this is four times MAX_INSTANCE_DEPTH: on such schemas the instance limit speaks first.
 */
const MAX_SCHEMA_DEPTH = 4 * MAX_INSTANCE_DEPTH;

/**
 * Throws SchemaError unless `schema` is usable: an object or boolean in a supported dialect whose
 * $refs resolve locally and whose patterns and type names are valid. Call it when a tool is
 * registered so a bad schema fails at startup rather than on the first call.
 */
export function checkSchema(schema: unknown): asserts schema is JsonSchema {
  prepareSchema(schema);
}

/**
 * Validates `instance` against `schema`; an empty array means valid. Throws SchemaError for a bad
 * schema. The schema is checked on first use and the result cached per object, so do not mutate
 * a schema object once it has been used.
 */
export function validate(schema: JsonSchema, instance: unknown): SchemaIssue[] {
  const prepared = prepareSchema(schema);
  // Most calls are valid; a simple schema accepts those without the walk, which explains failures.
  if (prepared.quickAccept?.(instance)) return [];
  return new Validation(prepared).run(schema, instance);
}

/** Where a schema is being applied: the instance path and how deep that is. */
interface Site {
  readonly path: string;
  readonly depth: number;
}

/** Where issues go. A quick sink belongs to anyOf, not and friends, which only need pass or fail. */
interface Sink {
  readonly issues: SchemaIssue[];
  readonly quick: boolean;
}

function child(site: Site, segment: string | number): Site {
  return { path: childPointer(site.path, segment), depth: site.depth + 1 };
}

class Validation {
  readonly #prepared: PreparedSchema;
  #schemaDepth = 0;
  /** Set when a depth limit is hit; from then on every evaluation stops at once. */
  #limit: SchemaIssue | undefined;

  constructor(prepared: PreparedSchema) {
    this.#prepared = prepared;
  }

  run(schema: JsonSchema, instance: unknown): SchemaIssue[] {
    const sink: Sink = { issues: [], quick: false };
    try {
      this.#evaluate(schema, instance, { path: "", depth: 0 }, sink);
    } catch (error) {
      // A backstop: the depth limits stop real schemas well before the call stack runs out, but
      // not, say, a schema of 5,000 nested allOf, or a validate called from an already deep stack.
      if (!(error instanceof RangeError)) throw error;
      return [{ path: "", message: "nesting too deep to validate (call stack exhausted)" }];
    }
    // A branch cut short by a limit might have flipped a "not" or "oneOf", so hitting a limit
    // anywhere makes the whole instance invalid, even if the cut branch was inside an anyOf.
    if (this.#limit !== undefined && !sink.issues.includes(this.#limit)) sink.issues.push(this.#limit);
    return sink.issues;
  }

  #issue(site: Site, message: string, sink: Sink): void {
    sink.issues.push({ path: site.path, message });
  }

  #stop(site: Site, message: string, sink: Sink): void {
    this.#limit = { path: site.path, message };
    sink.issues.push(this.#limit);
  }

  /** True when the current sink already has its answer, or a limit has stopped everything. */
  #done(sink: Sink): boolean {
    return this.#limit !== undefined || (sink.quick && sink.issues.length > 0);
  }

  /** Whether `instance` satisfies `schema`, without keeping the issues. */
  #passes(schema: unknown, instance: unknown, site: Site): boolean {
    const sink: Sink = { issues: [], quick: true };
    this.#evaluate(schema as JsonSchema, instance, site, sink);
    return sink.issues.length === 0;
  }

  #evaluate(schema: JsonSchema, instance: unknown, site: Site, sink: Sink): void {
    if (this.#limit !== undefined || schema === true) return;
    if (schema === false) return void sink.issues.push({ path: site.path, message: "no value is allowed here" });
    // Limits keep hostile input (100,000 nested arrays, a self-referencing schema) from
    // overflowing the call stack: it becomes one issue instead of a RangeError.
    if (site.depth > MAX_INSTANCE_DEPTH) return this.#stop(site, TOO_DEEP, sink);
    if (this.#schemaDepth >= MAX_SCHEMA_DEPTH) return this.#stop(site, `schemas nested deeper than ${MAX_SCHEMA_DEPTH} levels`, sink);
    // No try/finally needed: an exception abandons this whole Validation.
    this.#schemaDepth++;
    this.#keywords(schema, instance, site, sink);
    this.#schemaDepth--;
  }

  #keywords(schema: Readonly<Record<string, unknown>>, instance: unknown, site: Site, sink: Sink): void {
    if (typeof schema.$ref === "string") {
      this.#evaluate(this.#prepared.refs.get(schema.$ref)!, instance, site, sink);
      // draft-07 §8.3: "All other properties in a "$ref" object MUST be ignored."
      if (this.#prepared.dialect === "draft-07" || this.#done(sink)) return;
    }
    for (const message of assertionMessages(schema, instance, this.#prepared)) {
      if (message === TOO_DEEP) return this.#stop(site, message, sink);
      sink.issues.push({ path: site.path, message });
    }
    if (this.#done(sink)) return;
    if (Array.isArray(instance)) this.#array(schema, instance, site, sink);
    else if (isJsonObject(instance)) this.#object(schema, instance, site, sink);
    if (this.#done(sink)) return;
    this.#combinators(schema, instance, site, sink);
  }

  #object(schema: Readonly<Record<string, unknown>>, object: Record<string, unknown>, site: Site, sink: Sink): void {
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    const patternProperties = Object.entries((schema.patternProperties ?? {}) as Record<string, JsonSchema>);
    const additional = schema.additionalProperties as JsonSchema | undefined;
    for (const name of presentKeys(object)) {
      const at = child(site, name);
      // Object.hasOwn, not `in`: a property named "constructor" must not find Object.prototype's.
      let declared = properties !== undefined && Object.hasOwn(properties, name);
      if (declared) this.#evaluate(properties![name]!, object[name], at, sink);
      for (const [pattern, subschema] of patternProperties) {
        if (!this.#prepared.patterns.get(pattern)!.test(name)) continue;
        declared = true;
        this.#evaluate(subschema, object[name], at, sink);
      }
      if (!declared && additional === false) {
        this.#issue(site, `must NOT have additional property ${JSON.stringify(name)}`, sink);
      } else if (!declared && additional !== undefined) {
        this.#evaluate(additional, object[name], at, sink);
      }
      if (schema.propertyNames !== undefined && !this.#passes(schema.propertyNames, name, site)) {
        this.#issue(site, `property name ${JSON.stringify(name)} does not match propertyNames`, sink);
      }
      if (this.#done(sink)) return;
    }
  }

  #array(schema: Readonly<Record<string, unknown>>, items: readonly unknown[], site: Site, sink: Sink): void {
    // 2020-12 spells a tuple "prefixItems" + "items"; draft-07 spells it "items" (array) + "additionalItems".
    const tuple = (Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : []) as JsonSchema[];
    const rest = (Array.isArray(schema.items) ? schema.additionalItems : schema.items) as JsonSchema | undefined;
    for (let i = 0; i < items.length; i++) {
      const subschema = i < tuple.length ? tuple[i] : rest;
      if (subschema === undefined) break;
      if (subschema === false && i >= tuple.length) {
        this.#issue(site, `must have at most ${tuple.length} items, got ${items.length}`, sink);
        break;
      }
      this.#evaluate(subschema, items[i], child(site, i), sink);
      if (this.#done(sink)) return;
    }
    if (schema.contains === undefined) return;
    const min = (schema.minContains ?? 1) as number;
    const max = schema.maxContains as number | undefined;
    let count = 0;
    for (let i = 0; i < items.length; i++) {
      if (this.#passes(schema.contains, items[i], child(site, i))) count++;
      if (this.#limit !== undefined || (max === undefined && count >= min)) break;
    }
    if (count < min) this.#issue(site, `must contain at least ${min} matching items, got ${count}`, sink);
    if (max !== undefined && count > max) this.#issue(site, `must contain at most ${max} matching items, got ${count}`, sink);
  }

  #combinators(schema: Readonly<Record<string, unknown>>, instance: unknown, site: Site, sink: Sink): void {
    for (const subschema of (schema.allOf ?? []) as JsonSchema[]) {
      this.#evaluate(subschema, instance, site, sink);
      if (this.#done(sink)) return;
    }
    // Plain loops rather than some/filter callbacks: each callback adds stack frames per level.
    if (Array.isArray(schema.anyOf)) {
      let matched = false;
      for (const subschema of schema.anyOf) if ((matched = this.#passes(subschema, instance, site))) break;
      if (!matched && this.#limit === undefined) this.#issue(site, "must match at least one schema in anyOf", sink);
    }
    if (Array.isArray(schema.oneOf)) {
      let matched = 0;
      for (const subschema of schema.oneOf) if (this.#passes(subschema, instance, site)) matched++;
      if (matched !== 1 && this.#limit === undefined) this.#issue(site, `must match exactly one schema in oneOf, matched ${matched}`, sink);
    }
    if (schema.not !== undefined && this.#passes(schema.not, instance, site) && this.#limit === undefined) {
      this.#issue(site, "must NOT match the schema in not", sink);
    }
    if (schema.if !== undefined) {
      const branch = this.#passes(schema.if, instance, site) ? schema.then : schema.else;
      if (branch !== undefined) this.#evaluate(branch as JsonSchema, instance, site, sink);
    }
    // dependentSchemas (2020-12) and the schema form of dependencies (draft-07) mean the same thing.
    if (!isJsonObject(instance)) return;
    for (const keyword of ["dependentSchemas", "dependencies"]) {
      const rules = schema[keyword];
      if (!isJsonObject(rules)) continue;
      for (const [trigger, subschema] of Object.entries(rules)) {
        if (Array.isArray(subschema) || !Object.hasOwn(instance, trigger) || instance[trigger] === undefined) continue;
        this.#evaluate(subschema as JsonSchema, instance, site, sink);
        if (this.#done(sink)) return;
      }
    }
  }
}

/** The most issues, and characters of each, that describeIssues shows. */
const SHOWN_ISSUES = 5;
const SHOWN_ISSUE_CHARACTERS = 200;

/**
 * The issues in words, as a tool's refused arguments or output show them to the model:
 * `a: must be number, got string; b: is required`. Short enough to act on, and bounded (about
 * 1 KB), since a path or a property name comes from the value being checked.
 */
export function describeIssues(issues: SchemaIssue[]): string {
  const shown = issues.slice(0, SHOWN_ISSUES).map((issue) => {
    const line = issue.path ? `${issue.path.slice(1).replaceAll("/", ".")}: ${issue.message}` : issue.message;
    return line.length <= SHOWN_ISSUE_CHARACTERS ? line : `${line.slice(0, SHOWN_ISSUE_CHARACTERS)}... (${line.length.toLocaleString("en-US")} characters)`;
  });
  return shown.join("; ") + (issues.length > SHOWN_ISSUES ? `; and ${issues.length - SHOWN_ISSUES} more` : "");
}
