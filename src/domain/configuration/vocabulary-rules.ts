// The workflow part of the public vocabulary: `pull_request_rules`, `merge_protections` and
// their settings, `commands_restrictions`, `defaults`; and the named lists' rule that two rules
// of one list never share a name (reports and `extends` refer to rules by name).
import { fail, INVALID, type Check } from './check-cursor.ts';
import { list, object, required } from './collection-checks.ts';
import { conditions } from './condition-checks.ts';
import { flag, nullable, oneOf, text } from './scalar-checks.ts';
import { actions } from './vocabulary-actions.ts';
import { queueRuleDefaults, ruleName } from './vocabulary-queue.ts';

/** A list of rules, each named, no two alike, at most `max`. */
export function namedRules<T extends { name: string }>(rule: Check<T>, max: number): Check<T[]> {
  const rules = list(rule, { max });
  return (value, at) => {
    const read = rules(value, at);
    if (read === INVALID) return read;
    const first = new Map<string, number>();
    let valid = true;
    read.forEach((item, index) => {
      const earlier = first.get(item.name);
      if (earlier === undefined) return void first.set(item.name, index);
      fail({ ...at, loc: [...at.loc, index, 'name'] }, `rule names must be unique: "${item.name}" is already the name of item ${earlier}`);
      valid = false;
    });
    return valid ? read : INVALID;
  };
}

const description = nullable(text());

export const pullRequestRule = object({
  name: required(ruleName),
  description,
  disabled: nullable(object({ reason: required(text()) })),
  conditions: required(conditions),
  actions: required(actions),
});

export const mergeProtection = object({
  name: required(ruleName),
  description,
  if: required(conditions),
  success_conditions: required(conditions),
});

export const mergeProtectionsSettings = object({
  reporting_method: oneOf(['check-runs', 'deployments']),
  post_comment: flag,
  auto_merge: flag,
  auto_merge_conditions: nullable(conditions),
});

export const COMMAND_NAMES = ['backport', 'copy', 'dequeue', 'queue', 'rebase', 'refresh', 'requeue', 'squash', 'update'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

const restriction = object({ conditions });

export const commandsRestrictions = object(Object.fromEntries(COMMAND_NAMES.map((name) => [name, restriction]))) as Check<Partial<Record<CommandName, { conditions?: unknown }>>>;

export const defaults = object({ actions, queue_rule: nullable(queueRuleDefaults) });
