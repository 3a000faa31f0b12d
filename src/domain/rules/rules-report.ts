// Evaluates every rule of a configuration on one pull request (DESIGN.md §14): a pure function
// of the rules, the snapshot and the clock. A rule matches when its conditions are all true; it
// is a potential rule when it could still match (nothing it says of the base, head or author is
// false); a rule that uses what Switchyard does not evaluate is disabled, with the reason.
import type { Condition } from './condition.ts';
import { evaluateConditions } from './evaluate-condition.ts';
import type { EvaluatedCondition } from './evaluated-condition.ts';
import type { PullRequestSnapshot } from './pull-snapshot.ts';
import type { Match } from './three-valued.ts';

export type RuleSection = 'pull_request_rules' | 'queue_rules' | 'priority_rules' | 'merge_protections';

export interface RuleInput {
  section: RuleSection;
  name: string;
  /** Its conditions, as one tree (a list is all of them). */
  condition: Condition;
  /** Why it is not evaluated (an unsupported attribute, `disabled` in the file), else null. */
  disabledReason: string | null;
  /** What the rule would do, as the Summary lists it (actions, or the queue it feeds). */
  does: readonly string[];
}

export interface RuleResult {
  /** `section/name`: the key of the stored state. */
  key: string;
  section: RuleSection;
  name: string;
  match: Match;
  /** null for a disabled rule. */
  tree: EvaluatedCondition | null;
  disabledReason: string | null;
  /** false when a condition on the base, head or author is false: the rule cannot apply to this pull request. */
  applicable: boolean;
  does: readonly string[];
}

export interface RulesEvaluation {
  results: RuleResult[];
  /** The earliest instant a time condition can change a result. */
  nextChangeAt: Date | null;
}

const SCOPING_ATTRIBUTES = new Set(['base', 'head', 'author']);

export function evaluateRules(rules: readonly RuleInput[], snapshot: PullRequestSnapshot, now: Date): RulesEvaluation {
  let nextChangeAt: Date | null = null;
  // All together: an attribute is read, and a leaf written alike in several rules evaluated, once.
  const enabled = rules.filter((rule) => rule.disabledReason === null);
  const evaluated = evaluateConditions(enabled.map((rule) => rule.condition), snapshot, now);
  const trees = new Map(enabled.map((rule, index) => [rule, evaluated[index]!] as const));
  const results = rules.map((rule): RuleResult => {
    const base = { key: `${rule.section}/${rule.name}`, section: rule.section, name: rule.name, does: rule.does };
    if (rule.disabledReason !== null) return { ...base, match: 'false', tree: null, disabledReason: rule.disabledReason, applicable: true };
    const tree = trees.get(rule)!;
    if (tree.nextChangeAt && (!nextChangeAt || tree.nextChangeAt < nextChangeAt)) nextChangeAt = tree.nextChangeAt;
    return { ...base, match: tree.match, tree, disabledReason: null, applicable: isApplicable(tree) };
  });
  return { results, nextChangeAt };
}

/** The top-level conditions on the base, head or author all hold (or are not known yet). */
function isApplicable(tree: EvaluatedCondition): boolean {
  const top = tree.kind === 'all' ? tree.conditions : [tree];
  return top.every((node) => node.kind !== 'leaf' || !SCOPING_ATTRIBUTES.has(node.attribute) || node.match !== 'false');
}
