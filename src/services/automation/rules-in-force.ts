// Which rules of the configuration in force the rules engine evaluates, by the products enabled
// (DESIGN.md §13: a disabled product does nothing): pull_request_rules with workflow automation.
// The queue rules' conditions are shown by the merge queue's reads, not here. Rules whose conditions use what Switchyard
// does not evaluate are disabled with the reason; what a rule would do is listed, and said
// plainly when Switchyard does not carry it out yet.
import type { Condition } from '../../domain/rules/index.ts';
import { unsupportedReasons } from '../../domain/rules/index.ts';
import type { RuleInput } from '../../domain/rules/rules-report.ts';
import type { InForce } from './configuration-cache.ts';

export interface OwnedRules {
  rules: RuleInput[];
  /** Said at the top of the Summary. */
  notes: string[];
}

function disabledReason(condition: Condition, disabled: { reason: string } | null = null): string | null {
  if (disabled) return `disabled in the configuration: ${disabled.reason}`;
  const reasons = unsupportedReasons(condition);
  return reasons.length ? reasons.join(' ') : null;
}

export function rulesOwnedBy(inForce: InForce, products: readonly string[]): OwnedRules {
  const { configuration } = inForce;
  const rules: RuleInput[] = [];
  const notes: string[] = [];
  if (products.includes('workflow_automation')) {
    for (const rule of configuration.pull_request_rules) {
      const does = Object.keys(rule.actions).map((action) => `${action}: not carried out by Switchyard yet`);
      rules.push({ section: 'pull_request_rules', name: rule.name, condition: rule.conditions, disabledReason: disabledReason(rule.conditions, rule.disabled), does });
    }
    if (configuration.pull_request_rules.length) notes.push('Switchyard evaluates pull_request_rules and shows them here; it does not carry out their actions yet.');
  }
  return { rules, notes };
}
