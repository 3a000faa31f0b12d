// Which base branches a scheduled freeze holds (DESIGN.md §9). Conditions keep the public shape
// (strings, or {and, or, not} objects of them) but only two are understood: `base=NAME` and
// `base!=NAME`; anything else is refused by name rather than silently never matching.
import type { ValidationIssue } from '../../validation/validators.ts';

export type FreezeCondition = string | { and?: FreezeCondition[]; or?: FreezeCondition[]; not?: FreezeCondition };

/** A freeze as the queue reads it: instants, and the conditions as the API took them. */
export interface ScheduledFreeze {
  id: string;
  reason: string;
  start: Date;
  /** null: until deleted. */
  end: Date | null;
  timezone: string;
  matchingConditions: readonly FreezeCondition[];
  excludeConditions: readonly FreezeCondition[];
}

const BASE_CONDITION = /^\s*base\s*(!=|=)\s*(\S+)\s*$/;

function baseCondition(condition: string): { negated: boolean; name: string } | undefined {
  const match = BASE_CONDITION.exec(condition);
  return match ? { negated: match[1] === '!=', name: match[2]! } : undefined;
}

function conditionHolds(condition: FreezeCondition, baseRef: string): boolean {
  if (typeof condition === 'string') {
    const base = baseCondition(condition);
    return base !== undefined && (base.name === baseRef) !== base.negated;
  }
  return (
    (condition.and === undefined || condition.and.every((c) => conditionHolds(c, baseRef))) &&
    (condition.or === undefined || condition.or.some((c) => conditionHolds(c, baseRef))) &&
    (condition.not === undefined || !conditionHolds(condition.not, baseRef))
  );
}

/** A list holds when each of its conditions does; an empty list holds for every base. */
export function conditionsHold(conditions: readonly FreezeCondition[], baseRef: string): boolean {
  return conditions.every((condition) => conditionHolds(condition, baseRef));
}

/** The freeze holds merges to `baseRef` at `now`: started, not ended, matching and not excluded. */
export function freezeApplies(freeze: ScheduledFreeze, baseRef: string, now: Date): boolean {
  const time = now.getTime();
  if (time < freeze.start.getTime() || (freeze.end !== null && time >= freeze.end.getTime())) return false;
  const excluded = freeze.excludeConditions.length > 0 && conditionsHold(freeze.excludeConditions, baseRef);
  return conditionsHold(freeze.matchingConditions, baseRef) && !excluded;
}

function issuesOf(condition: FreezeCondition, loc: (string | number)[]): ValidationIssue[] {
  if (typeof condition === 'string') {
    if (baseCondition(condition)) return [];
    return [{ loc, msg: `unsupported condition "${condition}": only base=NAME and base!=NAME are supported`, type: 'unsupported_condition' }];
  }
  const keys = (['and', 'or', 'not'] as const).filter((key) => condition[key] !== undefined);
  if (keys.length === 0) return [{ loc, msg: 'a condition object holds and, or or not', type: 'missing' }];
  return [
    ...(condition.and ?? []).flatMap((c, i) => issuesOf(c, [...loc, 'and', i])),
    ...(condition.or ?? []).flatMap((c, i) => issuesOf(c, [...loc, 'or', i])),
    ...(condition.not === undefined ? [] : issuesOf(condition.not, [...loc, 'not'])),
  ];
}

/** Every condition Switchyard cannot evaluate, located under `loc`. */
export function conditionIssues(conditions: readonly FreezeCondition[], loc: (string | number)[]): ValidationIssue[] {
  return conditions.flatMap((condition, index) => issuesOf(condition, [...loc, index]));
}
