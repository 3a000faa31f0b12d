// One leaf, `[-][#]attribute[ operator value]`, checked against its attribute's grammar
// (attribute-specs.ts). Attributes of the public schema that Switchyard does not evaluate parse
// like the others and carry the reason the rule using them is disabled.
import { closestAttribute, isAttributeName, isSupportedAttribute, type AttributeName } from './attribute-names.ts';
import { ATTRIBUTE_SPECS, NUMBER_OPERATORS, type AttributeSpec } from './attribute-specs.ts';
import type { LeafCondition } from './condition.ts';
import { parseOperand } from './parse-operand.ts';
import { splitLeaf, type LeafParts } from './split-leaf.ts';

/** A leaf longer than this (in UTF-8) is refused before anything else is read. */
export const MAX_LEAF_BYTES = 1024;

export type LeafParse = { ok: true; leaf: LeafCondition } | { ok: false; msg: string };

export function parseLeaf(text: string): LeafParse {
  // A UTF-16 unit is at most 3 bytes in UTF-8: most leaves are too short to need counting.
  const bytes = text.length * 3 <= MAX_LEAF_BYTES ? 0 : Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_LEAF_BYTES) return { ok: false, msg: `this condition is ${bytes} bytes long, over the limit of ${MAX_LEAF_BYTES}: shorten it` };
  const split = splitLeaf(text);
  if (!split.ok) return split;
  const { parts } = split;
  if (!isAttributeName(parts.name)) return { ok: false, msg: unknownAttribute(parts.name) };
  const spec = ATTRIBUTE_SPECS[parts.name];
  const problem = modifierProblem(parts.name, spec, parts) ?? operatorProblem(parts.name, spec, parts);
  if (problem) return { ok: false, msg: problem };
  const base = { kind: 'leaf' as const, label: text.trim(), attribute: parts.name, negate: parts.negate, length: parts.length, operator: parts.operator };
  const unsupported = isSupportedAttribute(parts.name) ? null : `Switchyard does not evaluate the attribute ${parts.name}`;
  if (parts.operator === null || parts.value === null) return { ok: true, leaf: { ...base, operand: { kind: 'none' }, unsupported } };
  if (unsupported) return { ok: true, leaf: { ...base, operand: { kind: 'unsupported' }, unsupported } };
  const operand = parseOperand(parts.name, spec, parts.operator, parts.value, parts.length);
  if (!operand.ok) return operand;
  return { ok: true, leaf: { ...base, operand: operand.operand, unsupported: operand.unsupported ?? null } };
}

function unknownAttribute(name: string): string {
  const closest = closestAttribute(name.toLowerCase());
  return `${name} is not an attribute of conditions${closest ? `: did you mean ${closest}?` : ''}`;
}

function modifierProblem(name: AttributeName, spec: AttributeSpec, parts: LeafParts): string | null {
  if (parts.subscript !== null && spec.kind !== 'opaque') return `${name} has no sub-attributes such as ${parts.subscript}`;
  if (parts.negate && !spec.negate) return `${name} cannot be negated with -: use the opposite operator, or not:`;
  if (parts.length && spec.length === 'no') return `# does not apply to ${name}, which is neither a list nor text`;
  if (!parts.length && spec.length === 'required') return `${name} is only a count: write #${name}`;
  return null;
}

function operatorProblem(name: AttributeName, spec: AttributeSpec, parts: LeafParts): string | null {
  const written = `${parts.length ? '#' : ''}${name}`;
  if (spec.kind === 'boolean' && !parts.length) {
    return parts.operator === null ? null : `${name} is true or false: write ${name} or -${name}, without an operator or value`;
  }
  if (parts.operator === null) return `${written} needs an operator and a value, such as ${written}${parts.length || spec.kind === 'integer' ? '>=1' : '=value'}`;
  const allowed = parts.length ? NUMBER_OPERATORS : spec.operators;
  if (allowed.includes(parts.operator)) return null;
  return `${written} does not take the operator ${parts.written}; it takes ${allowed.join(', ')}`;
}
