// The Summary check run's title and body (DESIGN.md §14), from a rules evaluation: rules that
// match first, then potential rules, then those that cannot apply (folded), then disabled ones
// struck through with the reason. Everything a configuration file wrote (rule names, labels) is
// escaped: the file is written by anyone with push access, the body is rendered as Markdown.
import { escapeText as escapeMarkdown, renderConditionChecklist } from './render-condition-checklist.ts';
import type { RuleResult } from './rules-report.ts';

export interface SummaryText {
  title: string;
  body: string;
}

const SECTION_NAMES: Record<RuleResult['section'], string> = {
  pull_request_rules: 'Rule',
  queue_rules: 'Queue rule',
  priority_rules: 'Priority rule',
  merge_protections: 'Merge protection',
};

export function summaryTitle(results: readonly RuleResult[]): string {
  if (results.length === 0) return 'no rules configured, just listening for commands';
  const matching = results.filter((result) => result.match === 'true').length;
  const potential = results.filter((result) => result.match !== 'true' && result.applicable && result.disabledReason === null).length;
  return `${matching} ${matching === 1 ? 'rule matches' : 'rules match'} and ${potential} potential ${potential === 1 ? 'rule' : 'rules'}`;
}

export function summaryText(results: readonly RuleResult[], notes: readonly string[] = []): SummaryText {
  const matching = results.filter((result) => result.disabledReason === null && result.match === 'true');
  const potential = results.filter((result) => result.disabledReason === null && result.match !== 'true' && result.applicable);
  const outOfScope = results.filter((result) => result.disabledReason === null && result.match !== 'true' && !result.applicable);
  const disabled = results.filter((result) => result.disabledReason !== null);
  const parts = [
    ...notes.map((note) => `> ${escapeMarkdown(note)}`),
    section('Rules that match', matching),
    section('Rules that potentially match', potential),
    outOfScope.length ? `<details>\n<summary>Rules that cannot apply to this pull request (${outOfScope.length})</summary>\n\n${outOfScope.map(ruleBlock).join('\n\n')}\n\n</details>` : '',
    disabled.length ? `#### Disabled rules\n\n${disabled.map((rule) => `- ~~${ruleLabel(rule)}~~: ${escapeMarkdown(rule.disabledReason ?? '')}`).join('\n')}` : '',
  ];
  return { title: summaryTitle(results), body: parts.filter((part) => part !== '').join('\n\n') || 'This repository has no rules.' };
}

function section(heading: string, rules: readonly RuleResult[]): string {
  return rules.length ? `#### ${heading}\n\n${rules.map(ruleBlock).join('\n\n')}` : '';
}

function ruleLabel(rule: RuleResult): string {
  return `${SECTION_NAMES[rule.section]}: ${escapeMarkdown(rule.name)}`;
}

function ruleBlock(rule: RuleResult): string {
  const does = rule.does.length ? `\n${rule.does.map((line) => `  ${escapeMarkdown(line)}`).join('\n')}` : '';
  return `##### ${ruleLabel(rule)}${does}\n${rule.tree ? renderConditionChecklist(rule.tree) : ''}`;
}
