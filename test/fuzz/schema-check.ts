// The fuzzer's own reading of "valid": a small JSON Schema checker for the subset our document
// uses, with the API's global rules on top (64-bit integers exact, storable strings, date-times
// of four-digit UTC years). It decides whether a mutation really made a request invalid, and
// which branch of an anyOf a generated value took.
import type { JsonSchema } from './openapi-operations.ts';
import { instantOf } from './date-time-text.ts';
import { INT64_MAX, codePoints, typesOf } from './schema-values.ts';

export type Resolve = (ref: string) => JsonSchema;
/** Replaces a node's schema given its value (an event's metadata schema follows its type). */
export type Substitute = (schema: JsonSchema, value: unknown) => JsonSchema;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInteger(value: unknown): boolean {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return isInteger(value);
    case 'number':
      return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return false;
  }
}

const canonical = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));

function stringAccepted(schema: JsonSchema, value: string): boolean {
  const length = codePoints(value);
  if (schema.minLength !== undefined && length < Number(schema.minLength)) return false;
  if (schema.maxLength !== undefined && length > Number(schema.maxLength)) return false;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return false;
  if (schema.format === 'date-time' && instantOf(value) === undefined) return false;
  if (schema.format === 'uuid' && !UUID.test(value)) return false;
  // U+0000 and unpaired surrogates are refused in every string a schema describes as one.
  return !(typesOf(schema).includes('string') && UNSTORABLE.test(value));
}

function numberAccepted(schema: JsonSchema, value: number | bigint): boolean {
  if (schema.format === 'int64') return isInteger(value) && BigInt(value) >= 0n && BigInt(value) <= INT64_MAX && BigInt(value) >= BigInt(Number(schema.minimum ?? 0));
  // Plain integers and numbers travel as JS numbers: past 2^53 the parser keeps a bigint, which they refuse.
  if (typeof value === 'bigint') return !typesOf(schema).some((type) => type === 'integer' || type === 'number');
  if (schema.minimum !== undefined && value < Number(schema.minimum)) return false;
  return !(schema.maximum !== undefined && value > Number(schema.maximum));
}

function arrayAccepted(schema: JsonSchema, value: unknown[], resolve: Resolve, substitute?: Substitute): boolean {
  if (schema.minItems !== undefined && value.length < Number(schema.minItems)) return false;
  if (schema.maxItems !== undefined && value.length > Number(schema.maxItems)) return false;
  if (schema.uniqueItems === true && new Set(value.map(canonical)).size !== value.length) return false;
  return value.every((item) => accepts((schema.items ?? {}) as JsonSchema, item, resolve, substitute));
}

function objectAccepted(schema: JsonSchema, value: Record<string, unknown>, resolve: Resolve, substitute?: Substitute): boolean {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of (schema.required ?? []) as string[]) if (!Object.hasOwn(value, name)) return false;
  for (const [name, item] of Object.entries(value)) {
    const declared = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (declared) {
      if (!accepts(declared, item, resolve, substitute)) return false;
    } else if (schema.additionalProperties === false) return false;
    else if (isObject(schema.additionalProperties) && !accepts(schema.additionalProperties as JsonSchema, item, resolve, substitute)) return false;
  }
  return true;
}

/** Whether `value` (as the server's JSON parser gives it: bigint past 2^53) is valid for `schema`. */
export function accepts(given: JsonSchema, value: unknown, resolve: Resolve, substitute?: Substitute): boolean {
  const schema = substitute ? substitute(given, value) : given;
  if (typeof schema.$ref === 'string') return accepts(resolve(schema.$ref), value, resolve, substitute);
  if ('const' in schema && canonical(schema.const) !== canonical(value)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => canonical(option) === canonical(value))) return false;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches && !branches.some((branch) => accepts(branch, value, resolve, substitute))) return false;
  if (Array.isArray(schema.allOf) && !(schema.allOf as JsonSchema[]).every((part) => accepts(part, value, resolve, substitute))) return false;
  const types = typesOf(schema);
  if (types.length > 0 && !types.some((type) => hasType(type, value))) return false;
  if (typeof value === 'string') return stringAccepted(schema, value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberAccepted(schema, value);
  if (Array.isArray(value)) return arrayAccepted(schema, value, resolve, substitute);
  if (isObject(value)) return objectAccepted(schema, value, resolve, substitute);
  return true;
}

/**
 * A path, query or header value as the server reads text: 64-bit integers only as plain digits,
 * other integers with the validator's coercion (any numeric text), strings as they are.
 */
export function textAccepted(schema: JsonSchema, text: string, resolve: Resolve): boolean {
  if (typeof schema.$ref === 'string') return textAccepted(resolve(schema.$ref), text, resolve);
  const types = typesOf(schema);
  if (types.includes('integer')) {
    if (schema.format === 'int64') return /^[0-9]{1,64}$/.test(text) && accepts(schema, BigInt(text), resolve);
    const number = Number(text);
    return text.trim() !== '' && Number.isInteger(number) && accepts(schema, number, resolve);
  }
  return accepts(schema, text, resolve);
}
