// Gives the document's schemas their names: every schema with a `title` (and every recursive one,
// which TypeBox marks with an `$id`) moves to `components.schemas` under that name and is referred
// to as `#/components/schemas/Name`, the only kind of reference generators all follow. Giving a
// schema a title is therefore all it takes to name it in generated clients. Two different schemas
// under one name would make the document lie about one of them, so that stops the build.
import { INT64_MAX } from '../../domain/int64.ts';

type Json = Record<string, unknown>;

/** Values that are data, not schemas: never searched for titles. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'enum', 'const', 'default']);

export class SchemaNameConflict extends Error {}

/** `Event action.assign` → `EventActionAssign`; names already valid stay as they are. */
export function componentName(title: string): string {
  if (/^[A-Za-z0-9._-]+$/.test(title)) return title;
  return title
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function nameSchemas(paths: Json): { paths: Json; schemas: Json } {
  const ids = new Map<string, string>();
  collectIds(paths, ids);
  const schemas = new Map<string, { text: string; schema: Json }>();

  const refTo = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

  const visit = (node: unknown, key?: string): unknown => {
    if (key !== undefined && DATA_KEYWORDS.has(key)) return node;
    if (Array.isArray(node)) return node.map((item) => visit(item));
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [k, value] of Object.entries(node)) out[k] = visit(value, k);
    exactInt64(out);
    if (typeof out.$ref === 'string' && !out.$ref.startsWith('#')) out.$ref = refTo(ids.get(out.$ref) ?? componentName(out.$ref)).$ref;
    const title = typeof out.title === 'string' ? out.title : typeof out.$id === 'string' ? out.$id : undefined;
    if (title === undefined || !looksLikeSchema(out)) return out;
    delete out.$id;
    const name = componentName(title);
    const text = JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    const known = schemas.get(name);
    if (known && known.text !== text) throw new SchemaNameConflict(`Two different schemas are named ${name} (title "${title}"): give one of them another title.`);
    schemas.set(name, { text, schema: out });
    return refTo(name);
  };

  const named = visit(paths) as Json;
  const sorted = [...schemas.keys()].sort();
  return { paths: named, schemas: Object.fromEntries(sorted.map((name) => [name, schemas.get(name)!.schema])) };
}

/** A `title` string also names OpenAPI objects that are not schemas; only schemas carry these. */
function looksLikeSchema(node: Json): boolean {
  return ['type', 'properties', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', '$ref', 'items', 'additionalProperties'].some((key) => key in node);
}

function collectIds(node: unknown, ids: Map<string, string>, key?: string): void {
  if (key !== undefined && DATA_KEYWORDS.has(key)) return;
  if (Array.isArray(node)) return node.forEach((item) => collectIds(item, ids));
  if (!isObject(node)) return;
  if (typeof node.$id === 'string') ids.set(node.$id, componentName(typeof node.title === 'string' ? node.title : node.$id));
  for (const [k, value] of Object.entries(node)) collectIds(value, ids, k);
}

/**
 * `format: int64` states the upper bound. Written as a number, 2^63-1 is read by JavaScript (and
 * so shown by the reference page) as 9223372036854776000, a value outside the range.
 */
function exactInt64(node: Json): void {
  if (node.format === 'int64' && node.maximum === Number(INT64_MAX)) delete node.maximum;
}
