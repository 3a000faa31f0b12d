// The effective configuration as JSON for the API: conditions written back as the file's
// vocabulary has them (a rule's list of texts, `{and}`, `{or}`, `{not}`), not as parsed trees
// (which hold compiled expressions).
import type { Condition } from '../../domain/rules/index.ts';

function isCondition(value: unknown): value is Condition {
  if (value === null || typeof value !== 'object') return false;
  const kind = (value as { kind?: unknown }).kind;
  return (kind === 'leaf' && 'attribute' in value) || ((kind === 'all' || kind === 'any') && 'conditions' in value) || (kind === 'not' && 'condition' in value);
}

function conditionValue(condition: Condition, top: boolean): unknown {
  switch (condition.kind) {
    case 'leaf':
      return condition.label;
    case 'all': {
      const items = condition.conditions.map((child) => conditionValue(child, false));
      return top ? items : { and: items };
    }
    case 'any':
      return { or: condition.conditions.map((child) => conditionValue(child, false)) };
    case 'not':
      return { not: conditionValue(condition.condition, false) };
  }
}

/** A copy of `value` with every condition tree in it written back as text. */
export function conditionJson(value: unknown): unknown {
  if (isCondition(value)) return conditionValue(value, true);
  if (Array.isArray(value)) return value.map(conditionJson);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, conditionJson(child)]));
  return value;
}
