// Checks an answer against the document: a documented status, a body valid for that status's
// schema (Ajv, draft 2020-12, with 64-bit integers checked exactly), and the error shapes of
// DESIGN.md §2 for every 4xx, documented or not.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema, Operation } from './openapi-operations.ts';
import { NOT_JSON, type Answer } from './fuzz-http.ts';
import { INT64_MAX } from './schema-values.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  // Exact: the document's maximum (2^63-1) is not representable as a JSON float.
  ajv.addKeyword({
    keyword: 'int64',
    validate: (_schema: unknown, data: unknown) =>
      (typeof data === 'bigint' && data >= 0n && data <= INT64_MAX) || (typeof data === 'number' && Number.isSafeInteger(data) && data >= 0),
  });
  return ajv;
}

const ajv = createAjv();

/** Swaps every `format: int64` node for the exact keyword, keeping everything else. */
function withExactInt64(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withExactInt64);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as JsonSchema;
  if (node.format === 'int64') return { int64: true };
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withExactInt64(v)]));
}

let compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** Where the document's named schemas are found: its `#/components/...` references resolve there. */
const DOCUMENT_ID = 'switchyard-openapi';

/** Makes the components of `document` the targets of the `$ref`s in the schemas checked from now on. */
export function useDocument(document: JsonSchema): void {
  ajv.removeSchema(DOCUMENT_ID);
  ajv.addSchema({ $id: DOCUMENT_ID, components: withExactInt64(document.components) } as object);
  compiled = new WeakMap();
}

/** `#/components/...` in a schema taken out of the document points into the document. */
function intoDocument(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(intoDocument);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? DOCUMENT_ID + v : intoDocument(v)]));
}

function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(intoDocument(withExactInt64(schema)) as object);
    compiled.set(schema, validate);
  }
  return validate;
}

function isIssue(item: unknown): boolean {
  const issue = item as { loc?: unknown; msg?: unknown; type?: unknown };
  return Array.isArray(issue.loc) && issue.loc.length > 0 && issue.loc.every((p) => typeof p === 'string' || typeof p === 'number') && typeof issue.msg === 'string' && typeof issue.type === 'string';
}

/** DESIGN.md §2: 422 lists {loc, msg, type}; any other error is one sentence. */
export function errorShapeProblem(answer: Answer): string | undefined {
  if (answer.json === NOT_JSON || answer.json === undefined) return `error body is not JSON: ${answer.text.slice(0, 200)}`;
  const detail = (answer.json as { detail?: unknown }).detail;
  if (answer.status === 422) return Array.isArray(detail) && detail.length > 0 && detail.every(isIssue) ? undefined : `422 detail is not a list of {loc, msg, type}: ${answer.text.slice(0, 300)}`;
  if (typeof detail !== 'string' || detail.length === 0) return `error detail is not a sentence: ${answer.text.slice(0, 300)}`;
  if (answer.status === 503 && answer.headers['retry-after'] === undefined) return '503 without Retry-After';
  return undefined;
}

/** What is wrong with `answer` as the document describes `op`'s responses, if anything. */
export function documentedProblem(op: Operation, answer: Answer): string | undefined {
  const documented = op.responses.get(answer.status);
  if (!documented) return `status ${answer.status} is not documented for ${op.id}`;
  if (answer.status === 204) return answer.text === '' ? undefined : `204 with a body: ${answer.text.slice(0, 200)}`;
  if (!documented.schema) return undefined;
  if (answer.json === NOT_JSON || answer.json === undefined) return `body is not JSON: ${answer.text.slice(0, 200)}`;
  const validate = validatorFor(documented.schema);
  if (validate(answer.json)) return undefined;
  return `body does not match the documented ${answer.status} schema: ${ajv.errorsText(validate.errors?.slice(0, 5))}; body: ${answer.text.slice(0, 400)}`;
}
