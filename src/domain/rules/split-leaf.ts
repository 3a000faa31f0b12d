// The text of a leaf cut into its parts: `[-][#]attribute[ operator value]`. Spaces may surround
// the operator; a value wrapped in matching single or double quotes loses them. What the parts
// mean for the attribute is the parser's business (parse-leaf.ts).
import type { Operator } from './attribute-specs.ts';

export interface LeafParts {
  negate: boolean;
  length: boolean;
  name: string;
  /** `[*].author` after the name, for the public object-valued attributes (`commits`). */
  subscript: string | null;
  operator: Operator | null;
  /** The operator as written (`:`, `≥` ...), for messages. */
  written: string | null;
  value: string | null;
}

/** Longest first, so `>=` is not read as `>` followed by a value `=...`. */
const OPERATORS: [string, Operator][] = [
  ['~=', '~='], ['*=', '*='], ['>=', '>='], ['<=', '<='], ['!=', '!='], ['==', '='],
  ['≥', '>='], ['≤', '<='], ['≠', '!='], ['=', '='], [':', '='], ['>', '>'], ['<', '<'],
];

const NAME = /^[A-Za-z][A-Za-z0-9_-]*/;
const SUBSCRIPT = /^\[[^\]]*\](?:\.[A-Za-z_]+)?/;
export const OPERATOR_LIST = '=, !=, ~=, *=, >=, >, <= or <';

export type LeafSplit = { ok: true; parts: LeafParts } | { ok: false; msg: string };

export function splitLeaf(text: string): LeafSplit {
  let rest = text.trim();
  const negate = rest.startsWith('-');
  if (negate) rest = rest.slice(1).trimStart();
  const length = rest.startsWith('#');
  if (length) rest = rest.slice(1).trimStart();
  const name = NAME.exec(rest)?.[0];
  if (!name) return { ok: false, msg: `a condition starts with an attribute name, optionally after - and #, such as -label=wip or #files<10` };
  rest = rest.slice(name.length);
  const subscript = SUBSCRIPT.exec(rest)?.[0] ?? null;
  if (subscript) rest = rest.slice(subscript.length);
  rest = rest.trimStart();
  const parts = { negate, length, name, subscript, operator: null, written: null, value: null };
  if (rest === '') return { ok: true, parts };
  const found = OPERATORS.find(([spelling]) => rest.startsWith(spelling));
  if (!found) return { ok: false, msg: `after ${name} comes an operator (${OPERATOR_LIST}) and a value, not "${rest}"` };
  const value = rest.slice(found[0].length).trim();
  if (value === '') return { ok: false, msg: `${name}${found[0]} needs a value after the operator` };
  return { ok: true, parts: { ...parts, operator: found[1], written: found[0], value: unquote(value) } };
}

function unquote(value: string): string {
  const first = value[0];
  return value.length >= 2 && (first === '"' || first === "'") && value.endsWith(first) ? value.slice(1, -1) : value;
}
