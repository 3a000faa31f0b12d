// A parsed condition (DESIGN.md §14): leaves `[-][#]attribute[ operator value]` combined by all
// (a list, `and`), any (`or`) and not. Values are checked and compiled once, at parse time, so
// evaluating a tree never fails and never compiles anything.
import type { RE2JS } from 're2js';
import type { AttributeName } from './attribute-names.ts';
import type { Operator } from './attribute-specs.ts';
import type { Schedule } from './schedule.ts';

export type Operand =
  /** A boolean attribute: no operator, no value. */
  | { kind: 'none' }
  /** Text as written; lower case for logins, which compare ignoring case. */
  | { kind: 'text'; value: string }
  /** `{{ author }}`: the pull request's author. */
  | { kind: 'author' }
  /** `@team` (org null: the repository's owner) or `@org/team`, lower case. */
  | { kind: 'team'; org: string | null; slug: string }
  /** `~=`: searched anywhere in the value. */
  | { kind: 'regex'; regex: RE2JS }
  /** `*=`: matches the whole value. */
  | { kind: 'glob'; regex: RE2JS }
  | { kind: 'integer'; value: bigint }
  /**
   * A timestamp, from its first to its last millisecond at the precision written (a date is a
   * whole day), or an interval `start/end` (`=` and `!=` only), both ends included.
   */
  | { kind: 'span'; start: Date; end: Date }
  /** `N days H hours M minutes ago`: that long before the evaluation's clock. */
  | { kind: 'ago'; milliseconds: number }
  | { kind: 'schedule'; schedule: Schedule }
  /** A repository permission by rank (none 0 ... admin 5). */
  | { kind: 'permission'; rank: number }
  /** The value of something Switchyard does not evaluate: kept only as the label shows it. */
  | { kind: 'unsupported' };

export interface LeafCondition {
  kind: 'leaf';
  /** The condition as written (trimmed): what the Summary shows. */
  label: string;
  attribute: AttributeName;
  negate: boolean;
  /** `#`: the attribute's length (or count) is compared. */
  length: boolean;
  operator: Operator | null;
  operand: Operand;
  /** Why Switchyard cannot evaluate this leaf (the rule using it is disabled), else null. */
  unsupported: string | null;
}

export type Condition =
  | LeafCondition
  | { kind: 'all'; conditions: readonly Condition[] }
  | { kind: 'any'; conditions: readonly Condition[] }
  | { kind: 'not'; condition: Condition };

export type ConditionLocation = (string | number)[];

export interface ConditionError {
  loc: ConditionLocation;
  msg: string;
}

export type ConditionParse = { ok: true; condition: Condition } | { ok: false; errors: ConditionError[] };

/** Every leaf of a tree, in the order written. */
export function leavesOf(condition: Condition): LeafCondition[] {
  const leaves: LeafCondition[] = [];
  const visit = (node: Condition): void => {
    if (node.kind === 'leaf') leaves.push(node);
    else if (node.kind === 'not') visit(node.condition);
    else node.conditions.forEach(visit);
  };
  visit(condition);
  return leaves;
}
