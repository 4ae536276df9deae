// The TypeScript type of the values a JSON Schema literal accepts, worked out by the compiler (no
// code runs: this file holds types only). It lets a tool handler's arguments be typed from the
// very inputSchema that checks them (server/typed-handlers.ts), with no schema library.
// Dialect: JSON Schema 2020-12 (https://json-schema.org/draft/2020-12/json-schema-core), plus
// draft-07's array form of `items`. A schema's keywords all apply at once, so each keyword below
// contributes one type and the schema's type is their intersection; a keyword left out contributes
// `unknown`, which changes nothing (T & unknown is T). Anything not listed (`$ref`, `not`,
// `if`/`then`, string and number bounds) contributes `unknown`: the type is then wider than the
// schema, so a value the schema accepts fits the type; the one exception, chosen so that a
// misspelled key fails to compile, is an object's unlisted keys (FromObject).

/**
 * How many schemas deep inference goes before it gives up and says `unknown`. Each level costs the
 * compiler several instantiations; without a bound a large or recursive-looking schema would stop
 * the build with "type instantiation is excessively deep" instead of just typing less.
 */
type Depth = [never, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
type StartDepth = 10;
type Next<D extends number> = Depth[D];

/** A schema object as a literal, readonly or not (`as const` and a `const` type parameter both give readonly). */
export type SchemaLiteral = { readonly [keyword: string]: unknown };

/** The type of the values `Schema` accepts. */
export type FromSchema<Schema> = Infer<Schema, StartDepth>;

type Infer<S, D extends number> =
  // Past the depth bound, or not a literal at all: nothing is known.
  [D] extends [never] ? unknown
  // `true` accepts anything, `false` nothing (2020-12 §4.3.2, boolean schemas).
  : S extends true ? unknown
  : S extends false ? never
  : S extends SchemaLiteral ? Simplify<FromType<S, D> & FromConst<S> & FromEnum<S> & FromAnyOf<S, "anyOf", D> & FromAnyOf<S, "oneOf", D> & FromAllOf<S, D>>
  : unknown;

/**
 * `type`: the base. `integer` is a number (TypeScript has no integer type); an array of types
 * is their union; a `type` the compiler sees only as `string` (a schema built at run time) says nothing.
 */
type FromType<S extends SchemaLiteral, D extends number> =
  S extends { readonly type: infer T } ? (T extends readonly unknown[] ? TypeName<T[number], S, D> : TypeName<T, S, D>) : unknown;

type TypeName<T, S extends SchemaLiteral, D extends number> =
  string extends T ? unknown
  : T extends "string" ? string
  : T extends "number" | "integer" ? number
  : T extends "boolean" ? boolean
  : T extends "null" ? null
  : T extends "array" ? FromArray<S, Next<D>>
  : T extends "object" ? FromObject<S, Next<D>>
  : never;

/** `const`: exactly that value, as its literal type (an object or array const stays readonly, as written). */
type FromConst<S extends SchemaLiteral> = S extends { readonly const: infer C } ? C : unknown;

/** `enum`: one of the listed values; a list the compiler sees only as an array says nothing. */
type FromEnum<S extends SchemaLiteral> = S extends { readonly enum: infer E extends readonly unknown[] } ? (number extends E["length"] ? unknown : E[number]) : unknown;

/** `anyOf` and `oneOf`: one of the branches. That oneOf also forbids matching two is not a type. */
type FromAnyOf<S extends SchemaLiteral, K extends "anyOf" | "oneOf", D extends number> =
  S extends { readonly [key in K]: infer B extends readonly unknown[] } ? Infer<B[number], Next<D>> : unknown;

/** `allOf`: every branch at once. */
type FromAllOf<S extends SchemaLiteral, D extends number> =
  S extends { readonly allOf: infer B extends readonly unknown[] } ? Intersect<B, Next<D>> : unknown;

/** An allOf the compiler sees only as an array (not a tuple) says nothing. */
type Intersect<B extends readonly unknown[], D extends number> =
  B extends readonly [infer First, ...infer Rest] ? Infer<First, D> & Intersect<Rest, D> : unknown;

/**
 * An object. `properties` named in `required` are required, the others optional; a `required`
 * name with no property schema is required and `unknown`. Other keys: with `additionalProperties`
 * (or `patternProperties`) given a schema or `true`, there may be more, of which nothing is known,
 * so an index signature `[key: string]: unknown`; with it `false`, none. With it absent, the
 * choice made here: a schema that lists `properties` is taken to list every key a handler may
 * read, so no index signature. The schema lets unlisted keys through, but code reading a key its
 * schema does not name is almost always a misspelling (`cty` for `city`), and catching that is the
 * point. A schema that lists none (`{ type: "object" }`) says nothing of its keys: the wide
 * `{ [key: string]: unknown }`, as does one whose keys the compiler sees only as an index
 * signature (a schema typed as JSONSchemaObject): the type handlers had before.
 */
type FromObject<S extends SchemaLiteral, D extends number> =
  [D] extends [never] ? unknown
  : string extends keyof S ? { [key: string]: unknown }
  : S extends { readonly properties: infer P } ? (string extends keyof P ? { [key: string]: unknown } : Properties<P, RequiredOf<S>, D> & Rest<S>)
  : S extends { readonly additionalProperties: false } ? Properties<{}, RequiredOf<S>, D>
  : Properties<{}, RequiredOf<S>, D> & { [key: string]: unknown };

type RequiredOf<S> = S extends { readonly required: infer R extends readonly string[] } ? R[number] : never;

type Properties<P, R extends string, D extends number> =
  // A `required` the compiler sees only as string[] names no key for certain: all stay optional.
  string extends R ? { -readonly [K in keyof P]?: Infer<P[K], D> }
  : { -readonly [K in keyof P as K extends R ? K : never]-?: Infer<P[K], D> }
    & { -readonly [K in keyof P as K extends R ? never : K]?: Infer<P[K], D> }
    & { -readonly [K in Exclude<R, keyof P>]: unknown };

type Rest<S> =
  S extends { readonly additionalProperties: false } ? unknown
  : S extends { readonly additionalProperties: object | true } | { readonly patternProperties: object } ? { [key: string]: unknown }
  : unknown;

/**
 * An array. `items` alone: a list of that type. `prefixItems` (or draft-07's array `items`): a
 * tuple of those types, then `items` (2020-12; draft-07: `additionalItems`) for the rest: none if
 * `false`, unknown if absent. A value may stop early, so tuple places past `minItems` are optional.
 */
type FromArray<S extends SchemaLiteral, D extends number> =
  [D] extends [never] ? unknown
  : S extends { readonly prefixItems: infer P extends readonly unknown[] } ? [...Tuple<P, MinItems<S>, D>, ...RestItems<S, "items", D>]
  : S extends { readonly items: infer P extends readonly unknown[] } ? [...Tuple<P, MinItems<S>, D>, ...RestItems<S, "additionalItems", D>]
  : S extends { readonly items: infer I } ? Infer<I, D>[]
  : unknown[];

type MinItems<S> = S extends { readonly minItems: infer N extends number } ? N : 0;

type RestItems<S, K extends string, D extends number> =
  S extends { readonly [key in K]: false } ? [] : S extends { readonly [key in K]: infer I } ? Infer<I, D>[] : unknown[];

type Tuple<P extends readonly unknown[], Min extends number, D extends number, Seen extends unknown[] = []> =
  P extends readonly [infer Head, ...infer Tail]
    ? Seen["length"] extends Min ? Optional<P, D> : [Infer<Head, D>, ...Tuple<Tail, Min, D, [...Seen, 0]>]
    : number extends P["length"] ? Infer<P[number], D>[] : [];

type Optional<P extends readonly unknown[], D extends number> =
  P extends readonly [infer Head, ...infer Tail] ? [Infer<Head, D>?, ...Optional<Tail, D>] : [];

/** Shows `{ a: string } & { b?: number }` as `{ a: string; b?: number }`; leaves other types alone. */
type Simplify<T> = T extends readonly unknown[] | ((...args: never[]) => unknown) ? T : T extends object ? { [K in keyof T]: T[K] } : T;
