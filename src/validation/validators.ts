// The two Ajv instances behind every route schema. Bodies are validated strictly: no type
// coercion, no removal of unknown keys, every error reported. Path and query values arrive as
// text and are coerced. Both turn `int64` schemas into exact bigints (src/domain/int64.ts).
import { _, Ajv, type ErrorObject, type KeywordCxt, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isDateTime } from '../domain/date-time.ts';
import { INT64_MAX, parseUint64 } from '../domain/int64.ts';
import { closedObjectBound } from './closed-object-bound.ts';
import { MAX_REPORTED_ISSUES, omittedIssues, type ValidationIssue } from './issue-limit.ts';

export type { ValidationIssue } from './issue-limit.ts';

// ajv-formats ships CommonJS; its default export arrives nested under tsx.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

const INT64_MESSAGE = `must be an integer from 0 to ${INT64_MAX}`;

/** A JSON int64 as a bigint, or undefined when it is not one (the text form for path and query values). */
function toInt64(data: unknown): bigint | undefined {
  if (typeof data === 'bigint') return data >= 0n && data <= INT64_MAX ? data : undefined;
  if (typeof data === 'number') return Number.isSafeInteger(data) && data >= 0 ? BigInt(data) : undefined;
  return undefined;
}

function toInt64FromText(data: unknown): bigint | undefined {
  return typeof data === 'string' ? parseUint64(data) : toInt64(data);
}

// Found by the fuzzer (test/fuzz): PostgreSQL text cannot hold U+0000 (the insert failed, a 500),
// and an unpaired UTF-16 surrogate (only reachable through a \uD800-style JSON escape) was
// silently stored as U+FFFD. Every string a schema describes must be storable as sent.
function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || !(text as WellFormedCheck).isWellFormed();
}

/** String.prototype.isWellFormed: Node 20 has it, the ES2022 library types do not. */
type WellFormedCheck = string & { isWellFormed(): boolean };

// The three keywords below are generated inline: a function keyword costs a call and a context
// object per value, which was a fifth of validating an ingested event.
function createAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: coerce,
    strict: false,
    // Found by the fuzzer (test/fuzz): without it, Ajv takes Infinity (a JSON literal such as
    // 1e400 parses to it) for an integer, and `"size": -1e400` was stored as null.
    strictNumbers: true,
    validateFormats: true,
  });
  addFormats(ajv);
  // The same acceptance as ajv-formats' date-time, read without allocating (domain/date-time.ts).
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  // Validates a 64-bit integer and replaces it, in the data, with the exact bigint.
  ajv.addKeyword({
    keyword: 'int64',
    schemaType: 'boolean',
    error: { message: INT64_MESSAGE },
    code(cxt: KeywordCxt) {
      const { gen, data, it } = cxt;
      const convert = gen.scopeValue('func', { ref: coerce ? toInt64FromText : toInt64 });
      const value = gen.const('int64', _`${convert}(${data})`);
      cxt.fail(_`${value} === undefined`);
      gen.if(_`${value} !== undefined && ${it.parentData} !== undefined`, () => gen.assign(_`${it.parentData}[${it.parentDataProperty}]`, value));
    },
  });
  ajv.addKeyword({
    keyword: 'storable',
    type: 'string',
    schemaType: 'boolean',
    error: { message: 'must not contain U+0000 or an unpaired surrogate' },
    code(cxt: KeywordCxt) {
      cxt.fail(_`${cxt.gen.scopeValue('func', { ref: isUnstorable })}(${cxt.data})`);
    },
  });
  // A uuid is one value whatever the case it is written in: it is kept lower-case, the way
  // PostgreSQL prints it, so that every comparison in memory (the key cache's revocation) holds.
  ajv.addKeyword({
    keyword: 'lowerCase',
    type: 'string',
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      const { gen, data, it } = cxt;
      gen.if(_`${it.parentData} !== undefined`, () => gen.assign(_`${it.parentData}[${it.parentDataProperty}]`, _`${data}.toLowerCase()`));
    },
  });
  // Coercion turns the query text "Infinity" (or "1e400") into a number that the range keywords
  // skip, since they compare finite numbers only: every number must be finite first. Untyped on
  // purpose: a keyword declared for numbers is skipped when the value arrived as text and was coerced.
  ajv.addKeyword({
    keyword: 'finite',
    schemaType: 'boolean',
    error: { message: 'must be a finite number' },
    code(cxt: KeywordCxt) {
      cxt.fail(_`typeof ${cxt.data} == "number" && !Number.isFinite(${cxt.data})`);
    },
  });
  return ajv;
}

/**
 * Copies a schema without TypeBox's symbol keys, swapping `format: int64` nodes for our keyword,
 * marking every string node `storable`, and checking contents only within bounds (below).
 */
export function toAjvSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toAjvSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  if (node.format === 'int64') return { int64: true };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node)) out[key] = toAjvSchema(node[key]);
  if (node.type === 'string') out.storable = true;
  if (node.type === 'string' && node.format === 'uuid') out.lowerCase = true;
  if (node.type === 'integer' || node.type === 'number') out.finite = true;
  return withinBounds(out);
}

// Ajv reports every error (allErrors), so an array of 500 000 bad items past its maxItems of 1000
// made 500 000 item errors, and a 1 MiB string past its maxLength was matched against its pattern
// all the same. Content keywords now run only once the size bound holds: past it, the bound's
// error alone is reported, and validation costs nothing more than the bound's check.
const BOUNDED_CONTENT: readonly [bound: string, content: readonly string[]][] = [
  ['maxItems', ['items', 'prefixItems', 'additionalItems', 'uniqueItems', 'contains', 'minContains', 'maxContains']],
  ['maxLength', ['pattern', 'format', 'storable']],
  ['maxProperties', ['properties', 'additionalProperties', 'required']],
];

function withinBounds(node: Record<string, unknown>): Record<string, unknown> {
  node.maxProperties ??= closedObjectBound(node);
  if (node.maxProperties === undefined) delete node.maxProperties;
  for (const [bound, content] of BOUNDED_CONTENT) {
    if (typeof node[bound] !== 'number' || !content.some((keyword) => keyword in node)) continue;
    const guarded: Record<string, unknown> = {};
    for (const keyword of content) {
      if (!(keyword in node)) continue;
      guarded[keyword] = node[keyword];
      delete node[keyword];
    }
    const condition = { if: { [bound]: node[bound] }, then: guarded };
    if ('if' in node) node.allOf = [...((node.allOf as unknown[]) ?? []), condition];
    else Object.assign(node, condition);
  }
  return node;
}

const strictAjv = createAjv(false);
const coercingAjv = createAjv(true);

export function compileBodyValidator(schema: unknown): ValidateFunction {
  return strictAjv.compile(toAjvSchema(schema) as object);
}

// Path and query numbers are written in decimal. Ajv coerces with Number(), which also reads
// "0x10", "1e1", "0b1" and " 16" as numbers: each of those is refused before coercion.
const DECIMAL: Record<string, RegExp> = { integer: /^-?[0-9]+$/, number: /^-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/ };

export function compileParameterValidator(schema: unknown): ValidateFunction {
  const validate = coercingAjv.compile(toAjvSchema(schema) as object);
  const numeric = numericProperties(schema);
  if (numeric.length === 0) return validate;
  const checked = ((data: unknown) => {
    const misspelt = numeric.filter(([name, type]) => {
      const value = (data as Record<string, unknown> | null | undefined)?.[name];
      return typeof value === 'string' && !DECIMAL[type]!.test(value);
    });
    if (misspelt.length === 0) {
      const valid = validate(data);
      checked.errors = validate.errors;
      return valid;
    }
    checked.errors = misspelt.map(([name, type]) => ({ instancePath: `/${name}`, schemaPath: '', keyword: 'type', params: { type }, message: `must be ${type}` }));
    return false;
  }) as ValidateFunction;
  return checked;
}

/** The top-level properties of an object schema declared integer or number (int64 reads digits only already). */
function numericProperties(schema: unknown): [string, 'integer' | 'number'][] {
  const properties = (schema as { properties?: Record<string, { type?: unknown; format?: unknown }> }).properties ?? {};
  return Object.entries(properties).flatMap(([name, node]) =>
    (node.type === 'integer' || node.type === 'number') && node.format !== 'int64' ? [[name, node.type] as [string, 'integer' | 'number']] : [],
  );
}

const ISSUE_TYPES: Record<string, string> = {
  required: 'missing',
  additionalProperties: 'extra_forbidden',
  type: 'type_error',
  int64: 'int_parsing',
  enum: 'enum',
  const: 'literal_error',
  format: 'format',
  pattern: 'string_pattern_mismatch',
  minLength: 'string_too_short',
  maxLength: 'string_too_long',
  minItems: 'too_short',
  maxItems: 'too_long',
  minimum: 'greater_than_equal',
  maximum: 'less_than_equal',
  uniqueItems: 'unique_items',
  maxProperties: 'too_many_properties',
  storable: 'string_unicode',
  finite: 'finite_number',
};

function pointerToLoc(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^(0|[1-9][0-9]*)$/.test(part) ? Number(part) : part));
}

/**
 * Turns Ajv errors into the `detail` items of a 422 (DESIGN.md §2), under a location prefix: the
 * first MAX_REPORTED_ISSUES distinct ones, then one item counting the errors left (not rendered,
 * nor compared: both cost more than all of validation when there are 100 000 of them).
 */
export function toValidationIssues(errors: readonly Partial<ErrorObject>[], prefix: (string | number)[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  let index = 0;
  for (; index < errors.length && issues.length < MAX_REPORTED_ISSUES; index++) {
    const error = errors[index]!;
    // The `if` of a bound (withinBounds) only repeats the errors of its `then`.
    if (error.keyword === 'if') continue;
    const issue = toIssue(error, prefix);
    const key = JSON.stringify(issue);
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  let omitted = 0;
  for (; index < errors.length; index++) if (errors[index]!.keyword !== 'if') omitted++;
  return omitted > 0 ? [...issues, omittedIssues(omitted, prefix.slice(0, 1))] : issues;
}

function toIssue(error: Partial<ErrorObject>, prefix: (string | number)[]): ValidationIssue {
  const loc = [...prefix, ...pointerToLoc(error.instancePath ?? '')];
  const params = (error.params ?? {}) as Record<string, unknown>;
  let msg = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    loc.push(String(params.missingProperty));
    msg = 'Field required';
  } else if (error.keyword === 'additionalProperties') {
    loc.push(String(params.additionalProperty));
    msg = 'Unknown field';
  } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    msg = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (error.keyword === 'format') {
    msg = `must be a valid ${String(params.format)}${params.format === 'date-time' ? ' with a timezone' : ''}`;
  }
  return { loc, msg, type: ISSUE_TYPES[error.keyword ?? ''] ?? String(error.keyword) };
}
