// What every mutation shares: its shape, how it records what it changed, and texts that are
// wrong for most parameters (each kept only where the document refuses it).
import fc from 'fast-check';
import type { JsonSchema, Parameter } from './openapi-operations.ts';
import { labelled, type RequestSpec } from './fuzz-http.ts';
import { textAccepted } from './schema-check.ts';
import { INVALID_DATE_TIMES } from './date-time-text.ts';
import type { FuzzWorld } from './fuzz-world.ts';

export type Mutant = RequestSpec | undefined;

export interface Mutation {
  name: string;
  weight: number;
  apply(spec: RequestSpec): fc.Arbitrary<Mutant>;
}

export const OVER_EVERY_LIMIT = 10 * 1024 * 1024 + 1;

/** Texts that are wrong for most parameters; each is kept only where the schema refuses it. */
export const JUNK_TEXTS = [
  '', ' ', '-1', '-0', '+1', '1.5', '1e3', '0x10', '1_000', '9223372036854775808', '18446744073709551616', '99999999999999999999999', 'NaN', 'Infinity',
  'abc', 'null', 'true', '[]', '{}', 'é', '💥', 'ａｃｍｅ', 'a b', "a'b", 'a"b', '<script>', 'a/b', 'a\\b', 'a\tb', '\u0000', 'a\u0000b', '\ud800', '\udfff', '\u202e',
  'a'.repeat(41), 'a'.repeat(101), 'a'.repeat(256), 'a'.repeat(513), 'a'.repeat(4000), 'g'.repeat(40), 'a'.repeat(39), '6f0c7b1e-0000-4000-8000-00000000000',
  ...INVALID_DATE_TIMES,
];
/** Path segments that are not valid percent-encoded UTF-8, or decode to U+0000. */
export const RAW_PATH_JUNK = ['%FF', '%E0%A4%A', '%C0%AF', '%', '%zz', '%00', '%ED%A0%80'];

export function badTexts(schema: JsonSchema, world: FuzzWorld, inUrl = true): fc.Arbitrary<string> {
  const usable = (text: string) => !textAccepted(schema, text, world.resolve) && (!inUrl || urlSafe(text));
  const known = JUNK_TEXTS.filter(usable);
  const random = fc.string({ unit: 'binary', maxLength: 30 }).filter(usable);
  return known.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: random }) : random;
}

export const itemSchema = (p: Parameter): JsonSchema => (p.schema.type === 'array' ? ((p.schema.items ?? {}) as JsonSchema) : p.schema);
export const mutated = (spec: RequestSpec, change: Partial<RequestSpec>, what: string): RequestSpec => labelled({ ...spec, ...change, mutations: [...spec.mutations, what] });
/** Lone surrogates cannot travel in a URL (no UTF-8 for them); other texts are percent-encoded. */
export const urlSafe = (text: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

