// A pull request's rules as `GET …/pulls/{number}/rules` answers them: the last evaluation the
// rules engine stored, each rule with its conditions as the public ConditionEvaluationResult tree
// (what the merge queue's reads carry), each node with its three-valued `state` beside it: the
// public `match` is a boolean, so a pending condition would otherwise read as a failed one.
import { toConditionEvaluationResult, type ConditionEvaluationJson } from './condition-evaluation-result.ts';
import type { EvaluatedCondition } from './evaluated-condition.ts';
import type { RuleSection } from './rules-report.ts';
import type { StoredSummary } from './stored-rule-results.ts';
import type { Match } from './three-valued.ts';

export interface RuleConditionJson extends ConditionEvaluationJson {
  state: Match;
  subconditions: RuleConditionJson[];
}

export interface PullRuleJson {
  name: string;
  section: RuleSection;
  match: Match;
  applicable: boolean;
  disabled_reason: string | null;
  does: string[];
  conditions: RuleConditionJson | null;
}

export interface PullRulesJson {
  pull_request: bigint;
  head_sha: string;
  evaluated_at: string;
  title: string;
  rules: PullRuleJson[];
}

export interface LastEvaluation {
  headSha: string;
  evaluatedAt: Date;
  summary: StoredSummary;
}

export function pullRulesReport(number: bigint, last: LastEvaluation): PullRulesJson {
  return {
    pull_request: number,
    head_sha: last.headSha,
    evaluated_at: last.evaluatedAt.toISOString(),
    title: last.summary.title,
    rules: last.summary.results.map((rule) => ({
      name: rule.name,
      section: rule.section,
      match: rule.match,
      applicable: rule.applicable,
      disabled_reason: rule.disabledReason,
      does: [...rule.does],
      conditions: rule.tree ? withStates(toConditionEvaluationResult(rule.tree), rule.tree) : null,
    })),
  };
}

/** The public tree with each node's three-valued state, walking both trees side by side. */
function withStates(json: ConditionEvaluationJson, tree: EvaluatedCondition): RuleConditionJson {
  const children = tree.kind === 'leaf' ? [] : tree.kind === 'not' ? [tree.condition] : tree.conditions;
  return { ...json, state: tree.match, subconditions: json.subconditions.map((child, index) => withStates(child, children[index]!)) };
}
