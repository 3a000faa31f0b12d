// Mutations of the body: the JSON as a whole (truncated, not JSON, over every size limit,
// missing) and each node of a valid body, with the schema it was valid for (wrong type, missing
// or unknown field, too long, too many items, pattern, enum and format, unicode storage cannot
// keep, number edges, duplicate keys). A node mutation is kept only if the document now refuses
// the body.
import fc from 'fast-check';
import { parseJson, stringifyJson } from '../../src/json/exact-json.ts';
import type { JsonSchema, Operation } from './openapi-operations.ts';
import { accepts, isObject } from './schema-check.ts';
import { typesOf } from './schema-values.ts';
import type { FuzzWorld } from './fuzz-world.ts';
import { OVER_EVERY_LIMIT, badTexts, mutated, type Mutation } from './mutation-kit.ts';

type Path = (string | number)[];

interface BodyNode {
  path: Path;
  /** The schema this value was checked against (anyOf branch chosen, $ref resolved). */
  schema: JsonSchema;
  value: unknown;
}


/** Every node of a valid body with the schema it satisfies, following the branch it took. */
function bodyNodes(world: FuzzWorld, schema: JsonSchema, value: unknown, path: Path = [], out: BodyNode[] = []): BodyNode[] {
  let node = world.substitute(schema, value);
  while (typeof node.$ref === 'string') node = world.substitute(world.resolve(node.$ref), value);
  const branches = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const taken = branches.find((b) => accepts(b, value, world.resolve, world.substitute));
    return taken ? bodyNodes(world, taken, value, path, out) : out;
  }
  out.push({ path, schema: node, value });
  if (Array.isArray(value)) value.slice(0, 3).forEach((item, i) => bodyNodes(world, (node.items ?? {}) as JsonSchema, item, [...path, i], out));
  else if (isObject(value)) {
    const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
    for (const [key, item] of Object.entries(value)) {
      const child = Object.hasOwn(properties, key) ? properties[key] : isObject(node.additionalProperties) ? (node.additionalProperties as JsonSchema) : {};
      bodyNodes(world, child!, item, [...path, key], out);
    }
  }
  return out;
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  const [head, ...rest] = path;
  if (head === '__proto__') Object.defineProperty(copy, head, { value: setAt(copy[head], rest, value), enumerable: true, writable: true, configurable: true });
  else copy[head as string] = setAt(copy[head as string], rest, value);
  return copy;
}

const MARKER = JSON.stringify('\u0001fuzz-raw\u0001');

/** The body serialised with the node at `path` written as `raw` JSON text. */
function withRaw(body: unknown, path: Path, raw: string): string {
  return stringifyJson(setAt(body, path, '\u0001fuzz-raw\u0001')).replace(MARKER, raw);
}

type NodeChange = (node: BodyNode, world: FuzzWorld) => fc.Arbitrary<{ value?: unknown; raw?: string; what: string } | undefined> | undefined;

const WRONG_TYPES: unknown[] = ['text', 7, 1.5, true, null, [], {}, [1, 'a'], { a: 1 }];

const nodeChanges: Record<string, NodeChange> = {
  'wrong type': (n) => (typesOf(n.schema).length > 0 || n.schema.enum || 'const' in n.schema ? fc.constantFrom(...WRONG_TYPES).map((value) => ({ value, what: `→ ${stringifyJson(value)}` })) : undefined),
  'missing required field': (n) => {
    const present = ((n.schema.required ?? []) as string[]).filter((k) => isObject(n.value) && Object.hasOwn(n.value, k));
    if (present.length === 0) return undefined;
    return fc.constantFrom(...present).map((key) => {
      const copy = { ...(n.value as object) } as Record<string, unknown>;
      delete copy[key];
      return { value: copy, what: `without ${key}` };
    });
  },
  'unknown field': (n) => {
    if (!isObject(n.value) || n.schema.additionalProperties !== false) return undefined;
    const declared = Object.keys((n.schema.properties ?? {}) as object);
    const near = declared.flatMap((k) => [k.toUpperCase(), `${k} `, k.replace(/_/g, '')]);
    return fc.constantFrom('fuzz', '__proto__', 'constructor', '', '\u0000', 'x'.repeat(300), ...near).filter((k) => !declared.includes(k)).map((key) => ({ value: setAt(n.value, [key], 1), what: `with unknown field ${JSON.stringify(key)}` }));
  },
  'string too long': (n) =>
    typeof n.value === 'string' && n.schema.maxLength !== undefined
      ? fc.tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom('x', '💥', 'é')).map(([extra, c]) => ({ value: c.repeat(Number(n.schema.maxLength) + extra), what: `${Number(n.schema.maxLength) + extra} × ${c}` }))
      : undefined,
  'too many items': (n) => {
    if (!Array.isArray(n.value) || n.schema.maxItems === undefined) return undefined;
    const max = Number(n.schema.maxItems);
    const items = (n.schema.items ?? {}) as JsonSchema;
    if (n.schema.uniqueItems === true) return typesOf(items).includes('string') ? fc.constant({ value: Array.from({ length: max + 1 }, (_, i) => `s${i}`), what: `${max + 1} items` }) : undefined;
    return n.value.length > 0 ? fc.constant({ value: Array.from({ length: max + 1 }, (_, i) => (n.value as unknown[])[i % (n.value as unknown[]).length]), what: `${max + 1} items` }) : undefined;
  },
  'too few items': (n) => (Array.isArray(n.value) && Number(n.schema.minItems ?? 0) > 0 ? fc.constant({ value: [], what: 'no items' }) : undefined),
  'pattern, enum or format': (n, world) => (typeof n.value === 'string' && (n.schema.pattern || n.schema.enum || n.schema.format) ? badTexts(n.schema, world, false).map((value) => ({ value, what: `→ ${JSON.stringify(value)}` })) : undefined),
  'unstorable unicode': (n) =>
    typeof n.value === 'string' && typesOf(n.schema).includes('string') && !n.schema.enum
      ? fc.constantFrom('\u0000', '\ud800', '\udfff', '\udc00\ud800').map((bad) => ({ value: `${n.value as string}${bad}`, what: `+ ${JSON.stringify(bad)}` }))
      : undefined,
  'number edges': (n) =>
    typesOf(n.schema).includes('integer') || n.schema.format === 'int64'
      ? fc.constantFrom('9223372036854775808', '18446744073709551616', '-1', '1.5', '1e400', '-1e400', '9223372036854775807.5', '"1"', '1e19', '0.1', '-9223372036854775809', '1E+2000', '9'.repeat(5000)).map((raw) => ({ raw, what: `→ ${raw}` }))
      : undefined,
  'duplicate key': (n) => {
    if (!isObject(n.value)) return undefined;
    const keys = Object.keys(n.value);
    const text = stringifyJson(n.value);
    if (keys.length === 0) return fc.constant({ raw: '{"a":1,"a":1}', what: 'duplicate key "a"' });
    return fc.constantFrom(...keys).map((key) => ({ raw: `{${JSON.stringify(key)}:${stringifyJson((n.value as Record<string, unknown>)[key])},${text.slice(1)}`, what: `duplicate key ${JSON.stringify(key)}` }));
  },
};

function bodyNodeMutation(world: FuzzWorld, name: string, change: NodeChange): Mutation {
  return {
    name: `body ${name}`,
    weight: 2,
    apply: (spec) => {
      if (spec.body === undefined || !spec.op.body) return fc.constant(undefined);
      const candidates = bodyNodes(world, spec.op.body, spec.body).map((node) => ({ node, arbitrary: change(node, world) })).filter((c) => c.arbitrary !== undefined);
      if (candidates.length === 0) return fc.constant(undefined);
      return fc.constantFrom(...candidates).chain(({ node, arbitrary }) =>
        arbitrary!.map((outcome) => {
          if (!outcome) return undefined;
          const label = `body ${name} at ${JSON.stringify(node.path)} ${outcome.what}`;
          if (outcome.raw !== undefined) {
            const text = withRaw(spec.body, node.path, outcome.raw);
            return stillValid(world, spec.op, text) ? undefined : mutated(spec, { bodyText: text }, label);
          }
          const body = setAt(spec.body, node.path, outcome.value);
          return accepts(spec.op.body!, body, world.resolve, world.substitute) ? undefined : mutated(spec, { body }, label);
        }),
      );
    },
  };
}

/** A body text the document would still accept (so it is no mutation at all). */
function stillValid(world: FuzzWorld, op: Operation, text: string): boolean {
  try {
    return op.body !== undefined && accepts(op.body, parseJson(text), world.resolve, world.substitute);
  } catch {
    return false;
  }
}

const NOT_JSON = [
  '', ' ', 'null', '[]', '"text"', '42', 'true', 'owner=acme', '{', '}', '{"a":1}}', "{'a':1}", 'NaN', '{"a":NaN}', '{"a":Infinity}', '\ufeff{}', '{"a":01}', '{"a":1,}', '[1,]', '{"a" 1}',
  `{"a":${'['.repeat(300)}${']'.repeat(300)}}`, '{"a":"\\x41"}', '{"a":"\\u12"}', '{"a":"\u0001"}', 'nul', '{"a":tru}', '{"a":-}', '{"a":1e}', '{"a":.5}', '{"\\ud800":1}',
];

export function wholeBodyMutations(world: FuzzWorld, op: Operation): Mutation[] {
  if (!op.body) return [];
  return [
    {
      name: 'body truncated',
      weight: 2,
      apply: (spec) => {
        const text = stringifyJson(spec.body ?? {});
        return fc.integer({ min: spec.op.bodyRequired ? 0 : 1, max: text.length - 1 }).map((cut) => mutated(spec, { bodyText: text.slice(0, cut) }, `body cut at ${cut} of ${text.length}`));
      },
    },
    {
      name: 'body not JSON or not an object',
      weight: 2,
      apply: (spec) =>
        fc.oneof(fc.constantFrom(...NOT_JSON).map((t) => Buffer.from(t)), fc.constant(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])), fc.constant(Buffer.from([0xc3, 0x28]))).map((bytes) =>
          stillValid(world, op, bytes.toString('utf8')) ? undefined : mutated(spec, { bodyText: bytes }, `body ${JSON.stringify(bytes.toString('utf8').slice(0, 40))}`),
        ),
    },
    {
      name: 'body over every size limit',
      weight: 1,
      apply: (spec) => fc.constant(mutated(spec, { bodyText: `{"pad":"${'a'.repeat(OVER_EVERY_LIMIT)}"}` }, `body of ${OVER_EVERY_LIMIT + 10} bytes`)),
    },
    {
      name: 'body missing',
      weight: 1,
      apply: (spec) => (spec.op.bodyRequired ? fc.constant(mutated(spec, { body: undefined, bodyText: undefined }, 'no body')) : fc.constant(undefined)),
    },
    ...Object.entries(nodeChanges).map(([name, change]) => bodyNodeMutation(world, name, change)),
  ];
}
