// `check-*` leaves. A check that is still running, or that a condition names and has not reported
// yet, may still end in the state the leaf asks for: the leaf is pending, not false. A pattern
// (`~=`, `*=`) cannot name a check not yet reported, so it waits only for running ones.
import type { AttributeReader } from './attribute-readers.ts';
import type { LeafCondition } from './condition.ts';
import { compareElements, type ElementsOutcome } from './compare-elements.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import { compareCount } from './ordering.ts';
import type { CheckSnapshot } from './pull-snapshot.ts';
import { negate } from './three-valued.ts';

type CheckReader = Extract<AttributeReader, { from: 'checks' }>;

export function evaluateChecks(leaf: LeafCondition, reader: CheckReader, context: EvaluationContext): ElementsOutcome {
  const { checks } = context.snapshot;
  const inState = (check: CheckSnapshot): boolean => reader.states === null || reader.states.includes(check.state);
  const mayJoin = (check: CheckSnapshot): boolean => reader.waits && check.state === 'pending' && !inState(check);
  const { operator, operand } = leaf;
  if (operator === null) return { match: 'false', description: null };
  if (leaf.length && operand.kind === 'integer') {
    const low = BigInt(checks.filter(inState).length);
    return { match: compareCount(low, low + BigInt(checks.filter(mayJoin).length), operator, operand.value), description: null };
  }
  if (operator === '!=') {
    const equal = evaluateChecks({ ...leaf, operator: '=' }, reader, context);
    return { ...equal, match: negate(equal.match) };
  }
  const names = (list: readonly CheckSnapshot[]) => list.map((check) => check.name);
  if (operator !== '=' && operator !== '~=' && operator !== '*=') return compareElements(operator, operand, names(checks.filter(inState)), context);
  const named = checks.filter((check) => compareElements(operator, operand, [check.name], context).match === 'true');
  if (named.some(inState)) return { match: 'true', description: null };
  if (named.some(mayJoin)) return { match: 'pending', description: 'still running' };
  const exact = operator === '=' && operand.kind !== 'regex' && operand.kind !== 'glob';
  if (reader.waits && exact && named.length === 0) return { match: 'pending', description: 'not reported yet' };
  return { match: 'false', description: null };
}
