// How much JSON a body schema can accept at most: the deepest nesting of arrays and objects, the
// longest array, the most members of an object. The body parser stops at the first value past
// one of them (issue 20, item 1): a 1 MiB body of 350,000 empty arrays cost 40 ms of parsing and
// as much again of garbage collection before validation refused it at its 101st item, and eight
// clients sending such bodies held the event loop so long that other clients' connections waited
// a third of a second to be accepted. Sound, never tight: every bound is the largest anywhere in
// the schema, so no body the schema accepts is refused; a schema that admits any JSON somewhere
// (a free-form object, a $ref, no type) has no bound there.
import type { JsonBounds } from '../json/exact-json.ts';
import { closedObjectBound } from './closed-object-bound.ts';

export const NO_BOUNDS: JsonBounds = Object.freeze({ depth: Infinity, items: Infinity, members: Infinity });
const SCALAR: JsonBounds = Object.freeze({ depth: 0, items: 0, members: 0 });
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

const widest = (bounds: JsonBounds[]): JsonBounds => ({
  depth: Math.max(0, ...bounds.map((b) => b.depth)),
  items: Math.max(0, ...bounds.map((b) => b.items)),
  members: Math.max(0, ...bounds.map((b) => b.members)),
});

/** One more level of nesting around `children`, holding at most `items` items or `members` members. */
const container = (children: JsonBounds, own: { items?: number; members?: number }): JsonBounds => ({
  depth: children.depth + 1,
  items: Math.max(children.items, own.items ?? 0),
  members: Math.max(children.members, own.members ?? 0),
});

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const children = (node: Node, key: string): unknown[] => (Array.isArray(node[key]) ? (node[key] as unknown[]) : []);

function objectBounds(node: Node): JsonBounds {
  const inner = [...Object.values(isNode(node.properties) ? node.properties : {})];
  if (isNode(node.additionalProperties)) inner.push(node.additionalProperties);
  else if (node.additionalProperties !== false) inner.push(true); // unknown members may be any JSON
  if (isNode(node.patternProperties)) inner.push(...Object.values(node.patternProperties));
  const declared = closedObjectBound(node);
  const members = Math.min(declared ?? Infinity, typeof node.maxProperties === 'number' ? node.maxProperties : Infinity);
  return container(widest(inner.map(jsonBoundsOf)), { members });
}

function arrayBounds(node: Node): JsonBounds {
  const inner = [...children(node, 'prefixItems'), ...(Array.isArray(node.items) ? node.items : [node.items ?? true])];
  if (node.additionalItems !== undefined && node.additionalItems !== false) inner.push(node.additionalItems);
  return container(widest(inner.map(jsonBoundsOf)), { items: typeof node.maxItems === 'number' ? node.maxItems : Infinity });
}

/** The bounds of what `schema` accepts; NO_BOUNDS where it accepts any JSON. */
export function jsonBoundsOf(schema: unknown): JsonBounds {
  if (!isNode(schema) || schema.$ref !== undefined) return NO_BOUNDS;
  // Every alternative counts; allOf too, which can only be narrower than its widest part.
  const alternatives = [...children(schema, 'anyOf'), ...children(schema, 'oneOf'), ...children(schema, 'allOf')].map(jsonBoundsOf);
  const own = ownBounds(schema);
  return widest(own === undefined ? alternatives : [own, ...alternatives]);
}

/** What the node's own keywords allow; undefined when only its alternatives say. */
function ownBounds(schema: Node): JsonBounds | undefined {
  if (schema.const !== undefined || schema.enum !== undefined) {
    const values = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
    return values.every((value) => value === null || typeof value !== 'object') ? SCALAR : NO_BOUNDS;
  }
  if (schema.type === undefined) return schema.anyOf || schema.oneOf || schema.allOf ? undefined : NO_BOUNDS;
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  return widest(types.map((type) => {
    if (typeof type === 'string' && SCALAR_TYPES.has(type)) return SCALAR;
    if (type === 'object') return objectBounds(schema);
    if (type === 'array') return arrayBounds(schema);
    return NO_BOUNDS;
  }));
}
