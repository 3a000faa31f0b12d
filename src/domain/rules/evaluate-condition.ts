// Evaluates condition trees over one pull request snapshot at one instant: a pure function of
// the conditions, the snapshot and the clock. `and`/`or`/`not` follow Kleene's three values, and
// each node carries the earliest instant a time condition under it can change. Evaluating all
// the rules of a configuration at once shares what they have in common: an attribute is read, and
// a leaf written the same way in several rules is evaluated, once.
import type { Condition } from './condition.ts';
import type { EvaluatedCondition } from './evaluated-condition.ts';
import { evaluateLeaf } from './evaluate-leaf.ts';
import { evaluationContext, type EvaluationContext } from './evaluation-context.ts';
import type { PullRequestSnapshot } from './pull-snapshot.ts';
import { both, either, negate, type Match } from './three-valued.ts';

export function evaluateCondition(condition: Condition, snapshot: PullRequestSnapshot, now: Date): EvaluatedCondition {
  return evaluateNode(condition, evaluationContext(snapshot, now));
}

/** Several trees (a configuration's rules) over the same snapshot and clock, in order. */
export function evaluateConditions(conditions: readonly Condition[], snapshot: PullRequestSnapshot, now: Date): EvaluatedCondition[] {
  const context = evaluationContext(snapshot, now);
  return conditions.map((condition) => evaluateNode(condition, context));
}

function evaluateNode(condition: Condition, context: EvaluationContext): EvaluatedCondition {
  if (condition.kind === 'leaf') return evaluateLeaf(condition, context);
  if (condition.kind === 'not') {
    const child = evaluateNode(condition.condition, context);
    return { kind: 'not', label: 'not', match: negate(child.match), description: null, nextChangeAt: child.nextChangeAt, condition: child };
  }
  // A plain loop: this runs for every group of every rule on every evaluation, and a closure per
  // group was a sizeable share of what an evaluation allocates.
  const conditions: EvaluatedCondition[] = new Array(condition.conditions.length);
  const combine = condition.kind === 'all' ? both : either;
  let match: Match = condition.kind === 'all' ? 'true' : 'false';
  let nextChangeAt: Date | null = null;
  for (let index = 0; index < conditions.length; index++) {
    const child = evaluateNode(condition.conditions[index]!, context);
    conditions[index] = child;
    match = combine(match, child.match);
    if (child.nextChangeAt && (!nextChangeAt || child.nextChangeAt < nextChangeAt)) nextChangeAt = child.nextChangeAt;
  }
  return { kind: condition.kind, label: condition.kind === 'all' ? 'all of' : 'any of', match, description: null, nextChangeAt, conditions };
}
