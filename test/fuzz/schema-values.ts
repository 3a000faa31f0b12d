// Valid values for a JSON Schema (the subset an OpenAPI 3.1 document of ours uses), as
// fast-check arbitraries. Strings are unicode-rich but storable (no U+0000, no unpaired
// surrogate: docs/errors.md `string_unicode`); 64-bit integers are bigint, edges included;
// recursion ($ref cycles) is cut by depth. A refine hook lets the caller supply values for the
// few rules a schema cannot state (time windows, "the type selects the metadata").
import fc from 'fast-check';
import type { JsonSchema } from './openapi-operations.ts';
import { dateTimeText } from './date-time-text.ts';

export const INT64_MAX = 9223372036854775807n;

export interface ValueContext {
  resolve(ref: string): JsonSchema;
  /** Cap on generated array lengths; minItems still holds. */
  maxItems: number;
  /** A caller-supplied arbitrary for this node, or undefined for the default. */
  refine?(schema: JsonSchema, name: string | undefined, ctx: ValueContext): fc.Arbitrary<unknown> | undefined;
}

/** `$ref` hops after which optional properties are left out and arrays kept at minItems. */
const MAX_REF_DEPTH = 2;

const ONE_CHAR = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).map((c) => (c === '\u0000' ? '\u0001' : c)) },
);

export const codePoints = (s: string): number => [...s].length;

export function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  return typeof schema.type === 'string' ? [schema.type] : [];
}

function stringValue(schema: JsonSchema): fc.Arbitrary<string> {
  const min = Number(schema.minLength ?? 0);
  const max = Math.min(Number(schema.maxLength ?? 40), Math.max(min, 40));
  if (schema.format === 'date-time') return dateTimeText();
  if (schema.format === 'uuid') return fc.uuid();
  if (typeof schema.pattern === 'string') {
    const regex = new RegExp(schema.pattern as string, 'u');
    return fc
      .stringMatching(regex)
      .map((s) => [...s].slice(0, max).join(''))
      .filter((s) => codePoints(s) >= min && regex.test(s) && !s.includes('\u0000'));
  }
  const usual = fc.string({ unit: ONE_CHAR, minLength: min, maxLength: max });
  const limit = Number(schema.maxLength ?? 0);
  // At the limit, in characters beyond the BMP too: the limit counts code points, not UTF-16 units.
  if (limit <= max || limit > 4096) return usual;
  return fc.oneof({ weight: 9, arbitrary: usual }, { weight: 1, arbitrary: fc.constantFrom('x', 'é', '💥').map((c) => c.repeat(limit)) });
}

function integerValue(schema: JsonSchema): fc.Arbitrary<number | bigint> {
  if (schema.format === 'int64') {
    const min = BigInt(Math.max(0, Number(schema.minimum ?? 0)));
    return fc.oneof(fc.bigInt(min, INT64_MAX), fc.constantFrom(min, min + 1n, 2n ** 53n - 1n, 2n ** 53n + 1n, INT64_MAX - 1n, INT64_MAX));
  }
  const min = Math.max(Number(schema.minimum ?? Number.MIN_SAFE_INTEGER), Number.MIN_SAFE_INTEGER);
  const max = Math.min(Number(schema.maximum ?? Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER);
  return fc.oneof(fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }), fc.constantFrom(min, max), fc.maxSafeInteger().filter((n) => n >= min && n <= max));
}

const JSON_KEY = fc.oneof(fc.string({ unit: ONE_CHAR, maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'toString', ''));
const JSON_LEAF = fc.oneof(fc.string({ unit: ONE_CHAR, maxLength: 20 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const FREE_JSON: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, JSON_LEAF, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(JSON_KEY, tie('value'), { maxKeys: 3, noNullPrototype: true })),
})).value;

function objectValue(schema: JsonSchema, ctx: ValueContext, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties).filter((name) => required.has(name) || depth < MAX_REF_DEPTH);
  const record = fc.record(Object.fromEntries(names.map((name) => [name, valueOf(properties[name]!, ctx, name, depth)])), { requiredKeys: names.filter((n) => required.has(n)) });
  const extra = schema.additionalProperties;
  if (names.length === 0 && extra !== false) {
    const values = extra && typeof extra === 'object' ? valueOf(extra as JsonSchema, ctx, undefined, depth) : FREE_JSON;
    return fc.dictionary(JSON_KEY, values, { maxKeys: depth < MAX_REF_DEPTH ? 4 : 0, noNullPrototype: true });
  }
  return record;
}

function arrayValue(schema: JsonSchema, ctx: ValueContext, depth: number): fc.Arbitrary<unknown[]> {
  const minLength = Number(schema.minItems ?? 0);
  const maxLength = depth >= MAX_REF_DEPTH ? minLength : Math.max(minLength, Math.min(Number(schema.maxItems ?? ctx.maxItems), ctx.maxItems));
  if (maxLength === 0) return fc.constant([]);
  const itemSchema = (schema.items ?? {}) as JsonSchema;
  const items = valueOf(itemSchema, ctx, undefined, depth);
  const selector = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));
  const usual = schema.uniqueItems === true ? fc.uniqueArray(items, { minLength, maxLength, selector }) : fc.array(items, { minLength, maxLength });
  // Lists of strings also at their documented maximum (scopes: 1000), distinct when they must be.
  const limit = Number(schema.maxItems ?? 0);
  if (limit <= maxLength || limit > 1000 || !typesOf(itemSchema).includes('string') || itemSchema.enum || itemSchema.pattern) return usual;
  const full = fc.constant(Array.from({ length: limit }, (_, i) => `item-${i}-${'💥'.repeat(i % 3)}`).filter((item) => item.length <= Number(itemSchema.maxLength ?? Infinity)));
  return fc.oneof({ weight: 9, arbitrary: usual }, { weight: 1, arbitrary: full });
}

/** An arbitrary of values valid for `schema`. */
export function valueOf(schema: JsonSchema, ctx: ValueContext, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const refined = ctx.refine?.(schema, name, ctx);
  if (refined) return refined;
  if (typeof schema.$ref === 'string') return valueOf(ctx.resolve(schema.$ref), ctx, name, depth + 1);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const usable = depth >= MAX_REF_DEPTH ? branches.filter((b) => typeof b.$ref !== 'string') : branches;
    return fc.oneof(...(usable.length > 0 ? usable : branches).map((b) => valueOf(b, ctx, name, depth)));
  }
  const types = typesOf(schema);
  if (types.length === 0) return FREE_JSON;
  return fc.oneof(...types.map((type) => valueOfType(type, schema, ctx, depth)));
}

function valueOfType(type: string, schema: JsonSchema, ctx: ValueContext, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'object':
      return objectValue(schema, ctx, depth);
    case 'array':
      return arrayValue(schema, ctx, depth);
    case 'string':
      return stringValue(schema);
    case 'integer':
      return integerValue(schema);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum as number | undefined, max: schema.maximum as number | undefined });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      throw new Error(`schema type ${type} is not supported by the fuzzer`);
  }
}

/** A parameter value as it travels in a path, query or header. */
export function parameterText(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}
