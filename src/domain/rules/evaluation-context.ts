// What one evaluation shares between its leaves: the snapshot, the clock, and what was already
// read or computed from them (an attribute's values, a team's members, a leaf's result by its
// text, which fixes its meaning), so rules that name `files` or `base=main` again and again
// read and evaluate them once.
import type { AttributeName } from './attribute-names.ts';
import type { ReadValue } from './attribute-readers.ts';
import type { EvaluatedLeaf } from './evaluated-condition.ts';
import type { Match } from './three-valued.ts';
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
  /** By label: the same text always parses to the same leaf, so evaluates the same. */
  leaves: Map<string, EvaluatedLeaf>;
}

/** A leaf's result before `-` applies; `final` results are not negated (a missing team). */
export interface LeafOutcome {
  match: Match;
  description: string | null;
  final?: boolean;
  nextChangeAt?: number | null;
}

export function evaluationContext(snapshot: PullRequestSnapshot, now: Date): EvaluationContext {
  const owner = snapshot.repositoryFullName.split('/')[0]!.toLowerCase();
  return { snapshot, now: now.getTime(), owner, reads: new Map(), teams: new Map(), leaves: new Map() };
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
