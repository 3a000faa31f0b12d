// `check-*` leaves. A check that is still running, or that a condition names and has not reported
// yet, may still end in the state the leaf asks for: the leaf is pending, not false. A pattern
// (`~=`, `*=`) cannot name a check not yet reported, so it waits only for running ones.
import type { AttributeReader } from './attribute-readers.ts';
import type { LeafCondition } from './condition.ts';
import { compareElements, elementHolds } from './compare-elements.ts';
import type { EvaluationContext, LeafOutcome } from './evaluation-context.ts';
import { compareCount } from './ordering.ts';
import type { CheckSnapshot } from './pull-snapshot.ts';
import { negate } from './three-valued.ts';

type CheckReader = Extract<AttributeReader, { from: 'checks' }>;

export function evaluateChecks(leaf: LeafCondition, reader: CheckReader, context: EvaluationContext): LeafOutcome {
  const { checks } = context.snapshot;
  const { operator, operand } = leaf;
  if (operator === null) return { match: 'false', description: null };
  if (leaf.length && operand.kind === 'integer') {
    const low = BigInt(checks.filter((check) => inState(reader, check)).length);
    const high = low + BigInt(checks.filter((check) => mayJoin(reader, check)).length);
    return { match: compareCount(low, high, operator, operand.value), description: null };
  }
  if (operator === '!=') {
    const equal = evaluateChecks({ ...leaf, operator: '=' }, reader, context);
    return { ...equal, match: negate(equal.match) };
  }
  if (operator !== '=' && operator !== '~=' && operator !== '*=') {
    return compareElements(operator, operand, checks.filter((check) => inState(reader, check)).map((check) => check.name), context);
  }
  let [named, running] = [false, false];
  for (const check of checks) {
    if (!elementHolds(operator, operand, check.name, context)) continue;
    if (inState(reader, check)) return { match: 'true', description: null };
    named = true;
    running ||= mayJoin(reader, check);
  }
  if (running) return { match: 'pending', description: 'still running' };
  const exact = operator === '=' && operand.kind !== 'regex' && operand.kind !== 'glob';
  if (reader.waits && exact && !named) return { match: 'pending', description: 'not reported yet' };
  return { match: 'false', description: null };
}

function inState(reader: CheckReader, check: CheckSnapshot): boolean {
  return reader.states === null || reader.states.includes(check.state);
}

/** A running check that may still end in one of the states. */
function mayJoin(reader: CheckReader, check: CheckSnapshot): boolean {
  return reader.waits && check.state === 'pending' && !inState(reader, check);
}
