// Condition trees as a configuration writes them: text leaves, `{and: [...]}`, `{or: [...]}`,
// `{not: ...}`, and a rule's list, which is all of its items. Every error names its location;
// a rule is bounded (depth, number of leaves) so no file can make parsing or evaluation costly.
import type { Condition, ConditionError, ConditionLocation, ConditionParse } from './condition.ts';
import { parseLeaf } from './parse-leaf.ts';

export const MAX_DEPTH = 16;
export const MAX_LEAVES = 500;

interface Walk {
  errors: ConditionError[];
  leaves: number;
}

/** One condition: a leaf or a nested `and`/`or`/`not`. */
export function parseCondition(raw: unknown, loc: ConditionLocation): ConditionParse {
  const walk: Walk = { errors: [], leaves: 0 };
  return finish(walk, node(raw, loc, 0, walk));
}

/** A rule's list of conditions: all of them must hold. */
export function parseConditions(raw: readonly unknown[], loc: ConditionLocation): ConditionParse {
  const walk: Walk = { errors: [], leaves: 0 };
  if (!Array.isArray(raw)) return { ok: false, errors: [{ loc, msg: `conditions are a list, not ${describe(raw)}` }] };
  return finish(walk, { kind: 'all', conditions: list(raw, loc, 0, walk) });
}

function finish(walk: Walk, condition: Condition | null): ConditionParse {
  return walk.errors.length > 0 || !condition ? { ok: false, errors: walk.errors } : { ok: true, condition };
}

function list(raw: readonly unknown[], loc: ConditionLocation, depth: number, walk: Walk): Condition[] {
  return raw.flatMap((item, index) => node(item, [...loc, index], depth, walk) ?? []);
}

function node(raw: unknown, loc: ConditionLocation, depth: number, walk: Walk): Condition | null {
  if (typeof raw === 'string') return leaf(raw, loc, walk);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    walk.errors.push({ loc, msg: `a condition is text such as label=ready, or an object with one key and, or or not, not ${describe(raw)}` });
    return null;
  }
  const keys = Object.keys(raw);
  const key = keys[0];
  if (keys.length !== 1 || (key !== 'and' && key !== 'or' && key !== 'not')) {
    walk.errors.push({ loc, msg: `a condition object has exactly one key, and, or or not; this one has ${keys.length === 0 ? 'none' : keys.join(', ')}` });
    return null;
  }
  if (depth >= MAX_DEPTH) {
    walk.errors.push({ loc, msg: `conditions nest more than ${MAX_DEPTH} levels deep here: flatten them` });
    return null;
  }
  const value = (raw as Record<string, unknown>)[key];
  if (key === 'not') {
    const condition = node(value, [...loc, 'not'], depth + 1, walk);
    return condition && { kind: 'not', condition };
  }
  if (!Array.isArray(value)) {
    walk.errors.push({ loc: [...loc, key], msg: `${key} takes a list of conditions, not ${describe(value)}` });
    return null;
  }
  return { kind: key === 'and' ? 'all' : 'any', conditions: list(value, [...loc, key], depth + 1, walk) };
}

function leaf(text: string, loc: ConditionLocation, walk: Walk): Condition | null {
  walk.leaves++;
  if (walk.leaves === MAX_LEAVES + 1) walk.errors.push({ loc, msg: `a rule has at most ${MAX_LEAVES} conditions and this one has more: split it` });
  if (walk.leaves > MAX_LEAVES) return null;
  const parsed = parseLeaf(text);
  if (parsed.ok) return parsed.leaf;
  walk.errors.push({ loc, msg: `${quote(text)}: ${parsed.msg}` });
  return null;
}

function quote(text: string): string {
  const trimmed = text.trim();
  return JSON.stringify(trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `the ${typeof value} ${JSON.stringify(value)}`;
}
