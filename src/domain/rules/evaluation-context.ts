// What one evaluation shares between its leaves: the snapshot, the clock, and what was already
// read or computed from the snapshot (an attribute's values, a team's members), so a rule that
// names `files` ten times reads them once.
import type { AttributeName } from './attribute-names.ts';
import type { ReadValue } from './attribute-readers.ts';
import type { PullRequestSnapshot } from './pull-snapshot.ts';

export interface EvaluationContext {
  snapshot: PullRequestSnapshot;
  /** The evaluation's clock, in milliseconds. */
  now: number;
  /** Lower case: the organization of `@team` written without one. */
  owner: string;
  reads: Map<AttributeName, ReadValue>;
  /** Members by `org/team`, in lower case; null: the team does not exist; absent: not read. */
  teams: Map<string, ReadonlySet<string> | null>;
}

export function evaluationContext(snapshot: PullRequestSnapshot, now: Date): EvaluationContext {
  const owner = snapshot.repositoryFullName.split('/')[0]!.toLowerCase();
  return { snapshot, now: now.getTime(), owner, reads: new Map(), teams: new Map() };
}

/** A team's members in lower case, null when it does not exist, undefined when not read. */
export function teamMembers(context: EvaluationContext, key: string): ReadonlySet<string> | null | undefined {
  if (context.teams.has(key)) return context.teams.get(key);
  const members = context.snapshot.teamMembers.get(key);
  if (members === undefined) return undefined;
  const set = members === null ? null : new Set(members.map((login) => login.toLowerCase()));
  context.teams.set(key, set);
  return set;
}
