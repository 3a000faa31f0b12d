// The two Ajv instances behind every route schema. Bodies are validated strictly: no type
// coercion, no removal of unknown keys, every error reported. Path and query values arrive as
// text and are coerced. Both turn `int64` schemas into exact bigints (src/domain/int64.ts).
import { Ajv, type ErrorObject, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import { INT64_MAX } from '../domain/int64.ts';

// ajv-formats ships CommonJS; its default export arrives nested under tsx.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

const INT64_MESSAGE = `must be an integer from 0 to ${INT64_MAX}`;

function toInt64(data: unknown, acceptText: boolean): bigint | undefined {
  if (typeof data === 'bigint') return data >= 0n && data <= INT64_MAX ? data : undefined;
  if (typeof data === 'number') return Number.isSafeInteger(data) && data >= 0 ? BigInt(data) : undefined;
  if (acceptText && typeof data === 'string' && /^[0-9]{1,64}$/.test(data)) {
    const value = BigInt(data);
    return value <= INT64_MAX ? value : undefined;
  }
  return undefined;
}

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
  const validateInt64: SchemaValidateFunction = (_schema: unknown, data: unknown, _parent?: unknown, cxt?: DataValidationCxt) => {
    const value = toInt64(data, coerce);
    if (value === undefined) {
      validateInt64.errors = [{ keyword: 'int64', message: INT64_MESSAGE, params: {} }];
      return false;
    }
    if (cxt?.parentData) (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = value;
    return true;
  };
  ajv.addKeyword({ keyword: 'int64', modifying: true, errors: true, validate: validateInt64 });
  ajv.addKeyword({ keyword: 'storable', type: 'string', errors: true, validate: validateStorable });
  // Untyped on purpose: a keyword declared for numbers is skipped when the value arrived as text
  // and was coerced.
  ajv.addKeyword({ keyword: 'finite', errors: true, validate: validateFinite });
  return ajv;
}

// Found by the fuzzer (test/fuzz): PostgreSQL text cannot hold U+0000 (the insert failed, a 500),
// and an unpaired UTF-16 surrogate (only reachable through a \uD800-style JSON escape) was
// silently stored as U+FFFD. Every string a schema describes must be storable as sent.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const validateStorable: SchemaValidateFunction = (_schema: unknown, data: unknown) => {
  if (typeof data !== 'string' || !UNSTORABLE.test(data)) return true;
  validateStorable.errors = [{ keyword: 'storable', message: 'must not contain U+0000 or an unpaired surrogate', params: {} }];
  return false;
};

// Coercion turns the query text "Infinity" (or "1e400") into a number that the range keywords
// skip, since they compare finite numbers only: every number must be finite first.
const validateFinite: SchemaValidateFunction = (_schema: unknown, data: unknown) => {
  if (typeof data !== 'number' || Number.isFinite(data)) return true;
  validateFinite.errors = [{ keyword: 'finite', message: 'must be a finite number', params: {} }];
  return false;
};

/**
 * Copies a schema without TypeBox's symbol keys, swapping `format: int64` nodes for our keyword
 * and marking every string node `storable`.
 */
export function toAjvSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toAjvSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  if (node.format === 'int64') return { int64: true };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node)) out[key] = toAjvSchema(node[key]);
  if (node.type === 'string') out.storable = true;
  if (node.type === 'integer' || node.type === 'number') out.finite = true;
  return out;
}

const strictAjv = createAjv(false);
const coercingAjv = createAjv(true);

export function compileBodyValidator(schema: unknown): ValidateFunction {
  return strictAjv.compile(toAjvSchema(schema) as object);
}

export function compileParameterValidator(schema: unknown): ValidateFunction {
  return coercingAjv.compile(toAjvSchema(schema) as object);
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

/** Turns Ajv errors into the `detail` items of a 422 (DESIGN.md §2), under a location prefix. */
export function toValidationIssues(errors: readonly Partial<ErrorObject>[], prefix: (string | number)[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
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
    const issue = { loc, msg, type: ISSUE_TYPES[error.keyword ?? ''] ?? String(error.keyword) };
    const key = JSON.stringify(issue);
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}
