// What the service asks of a parsed condition before evaluating it: which platform reads it needs
// (attributes), which teams to list members of, and whether Switchyard can evaluate it at all.
import type { AttributeName } from './attribute-names.ts';
import { leavesOf, type Condition } from './condition.ts';

/** Distinct attributes, in the order written. */
export function attributesOf(condition: Condition): AttributeName[] {
  return [...new Set(leavesOf(condition).map((leaf) => leaf.attribute))];
}

/** Attributes (public, but not evaluated by Switchyard) that disable the rule using them. */
export function unsupportedAttributes(condition: Condition): string[] {
  return [...new Set(leavesOf(condition).filter((leaf) => leaf.unsupported !== null).map((leaf) => leaf.attribute))];
}

/** Why the rule is disabled, one sentence per distinct reason; empty when it can be evaluated. */
export function unsupportedReasons(condition: Condition): string[] {
  return [...new Set(leavesOf(condition).flatMap((leaf) => leaf.unsupported ?? []))];
}

/**
 * The teams whose members evaluation needs, as `org/team` in lower case (the keys of
 * `PullRequestSnapshot.teamMembers`); `@team` without an organization is the repository owner's.
 */
export function referencedTeams(condition: Condition, repositoryOwner: string): string[] {
  const teams = leavesOf(condition).flatMap((leaf) => (leaf.operand.kind === 'team' ? [teamKey(leaf.operand, repositoryOwner)] : []));
  return [...new Set(teams)];
}

export function teamKey(team: { org: string | null; slug: string }, repositoryOwner: string): string {
  return `${team.org ?? repositoryOwner.toLowerCase()}/${team.slug}`;
}
