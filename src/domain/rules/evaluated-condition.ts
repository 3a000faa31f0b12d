// The result of evaluating a condition tree: the same shape, every node with its three-valued
// match, its label, a short description when one helps, and the next instant a time condition
// under it can change (where the engine sets its timer). Read-only: a leaf written the same way
// in several rules is one shared node.
import type { AttributeName } from './attribute-names.ts';
import type { Schedule } from './schedule.ts';
import type { Match } from './three-valued.ts';

interface EvaluatedNode {
  readonly match: Match;
  /** A leaf's text as written; `all of`, `any of` or `not` for the others. */
  readonly label: string;
  readonly description: string | null;
  /** The earliest instant after the evaluation's clock at which this subtree may change. */
  readonly nextChangeAt: Date | null;
}

export type EvaluatedLeaf = EvaluatedNode & { readonly kind: 'leaf'; readonly attribute: AttributeName; readonly schedule: Schedule | null };

export type EvaluatedCondition =
  | EvaluatedLeaf
  | (EvaluatedNode & { readonly kind: 'all' | 'any'; readonly conditions: readonly EvaluatedCondition[] })
  | (EvaluatedNode & { readonly kind: 'not'; readonly condition: EvaluatedCondition });
