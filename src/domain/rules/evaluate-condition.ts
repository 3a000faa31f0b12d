// Evaluates a condition tree over one pull request snapshot at one instant: a pure function of
// the condition, the snapshot and the clock. `and`/`or`/`not` follow Kleene's three values, and
// each node carries the earliest instant a time condition under it can change.
import type { Condition } from './condition.ts';
import type { EvaluatedCondition } from './evaluated-condition.ts';
import { evaluateLeaf } from './evaluate-leaf.ts';
import { evaluationContext, type EvaluationContext } from './evaluation-context.ts';
import type { PullRequestSnapshot } from './pull-snapshot.ts';
import { allOf, anyOf, negate } from './three-valued.ts';

export function evaluateCondition(condition: Condition, snapshot: PullRequestSnapshot, now: Date): EvaluatedCondition {
  return evaluateNode(condition, evaluationContext(snapshot, now));
}

function evaluateNode(condition: Condition, context: EvaluationContext): EvaluatedCondition {
  if (condition.kind === 'leaf') return evaluateLeaf(condition, context);
  if (condition.kind === 'not') {
    const child = evaluateNode(condition.condition, context);
    return { kind: 'not', label: 'not', match: negate(child.match), description: null, nextChangeAt: child.nextChangeAt, condition: child };
  }
  const conditions = condition.conditions.map((child) => evaluateNode(child, context));
  const matches = conditions.map((child) => child.match);
  return {
    kind: condition.kind,
    label: condition.kind === 'all' ? 'all of' : 'any of',
    match: condition.kind === 'all' ? allOf(matches) : anyOf(matches),
    description: null,
    nextChangeAt: earliest(conditions),
    conditions,
  };
}

function earliest(conditions: readonly EvaluatedCondition[]): Date | null {
  let found: Date | null = null;
  for (const { nextChangeAt } of conditions) if (nextChangeAt && (!found || nextChangeAt < found)) found = nextChangeAt;
  return found;
}
