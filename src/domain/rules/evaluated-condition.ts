// The result of evaluating a condition tree: the same shape, every node with its three-valued
// match, its label, a short description when one helps, and the next instant a time condition
// under it can change (where the engine sets its timer).
import type { AttributeName } from './attribute-names.ts';
import type { Schedule } from './schedule.ts';
import type { Match } from './three-valued.ts';

interface EvaluatedNode {
  match: Match;
  /** A leaf's text as written; `all of`, `any of` or `not` for the others. */
  label: string;
  description: string | null;
  /** The earliest instant after the evaluation's clock at which this subtree may change. */
  nextChangeAt: Date | null;
}

export type EvaluatedLeaf = EvaluatedNode & { kind: 'leaf'; attribute: AttributeName; schedule: Schedule | null };

export type EvaluatedCondition =
  | EvaluatedLeaf
  | (EvaluatedNode & { kind: 'all' | 'any'; conditions: EvaluatedCondition[] })
  | (EvaluatedNode & { kind: 'not'; condition: EvaluatedCondition });
