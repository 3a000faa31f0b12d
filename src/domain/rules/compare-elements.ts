// An operator applied to an attribute's values (one, none, or a list): `=`, `~=`, `*=` and the
// comparisons hold when any element does, `!=` when none equals. Teams stand for their members
// and pending while those were not read; a team that does not exist fails the leaf outright.
import type { Scalar } from './attribute-readers.ts';
import type { Operator } from './attribute-specs.ts';
import { wholePattern, searchPattern } from './compile-pattern.ts';
import type { Operand } from './condition.ts';
import { teamKey } from './condition-queries.ts';
import { teamMembers, type EvaluationContext, type LeafOutcome } from './evaluation-context.ts';
import { compare, holds } from './ordering.ts';
import { PERMISSIONS, type Permission } from './permissions.ts';
import { anyOf, fromBoolean, negate } from './three-valued.ts';

export function compareElements(operator: Operator, operand: Operand, elements: readonly Scalar[], context: EvaluationContext): LeafOutcome {
  if (operator === '!=') {
    const equal = compareElements('=', operand, elements, context);
    return equal.final ? equal : { ...equal, match: negate(equal.match) };
  }
  if (operand.kind === 'team') return teamOutcome(operand, elements, context);
  for (const element of elements) if (elementHolds(operator, operand, element, context)) return { match: 'true', description: null };
  return { match: 'false', description: null };
}

/** Whether one element satisfies the operator (teams aside: they need the whole list). */
export function elementHolds(operator: Operator, operand: Operand, element: Scalar, context: EvaluationContext): boolean {
  switch (operand.kind) {
    case 'regex':
      return searchPattern(operand.regex, String(element));
    case 'glob':
      return wholePattern(operand.regex, String(element));
    case 'text':
      return holds(operator, compare(String(element), operand.value));
    case 'author':
      return holds(operator, compare(String(element).toLowerCase(), context.snapshot.author.toLowerCase()));
    case 'integer':
      return typeof element === 'bigint' && holds(operator, compare(element, operand.value));
    case 'permission':
      return holds(operator, compare(PERMISSIONS.indexOf(element as Permission), operand.rank));
    default:
      return false;
  }
}

/**
 * Elements are logins or, for review-requested, `@org/team` entries (a requested team matches
 * itself). A missing team fails the leaf outright, `-` or not: the configuration is mistaken.
 */
function teamOutcome(team: { org: string | null; slug: string }, elements: readonly Scalar[], context: EvaluationContext): LeafOutcome {
  const key = teamKey(team, context.owner);
  const members = teamMembers(context, key);
  if (members === null) return { match: 'false', description: `team @${key} not found`, final: true };
  const match = anyOf(elements.map((element) => (element === `@${key}` ? 'true' : members === undefined ? 'pending' : fromBoolean(members.has(String(element))))));
  return { match, description: match === 'pending' ? `members of @${key} not read yet` : null };
}
