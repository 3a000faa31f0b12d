// From a document the vocabulary accepted to the effective configuration: each option left
// out takes `defaults.queue_rule`'s or `defaults.actions`' value when there is one, else its
// default. The merge queue's defaults are read from its own module, so the file and the §9 API
// cannot drift apart.
import { defaultMergeQueueConfig, DEFAULT_QUEUE_RULE_NAME, fillQueueRule } from '../merge-queue/config-defaults.ts';
import type { EffectiveConfiguration, EffectiveQueueRule, FileFilterLists } from './effective-configuration.ts';
import type { ActionName, ActionOptions, ActionsByName } from './vocabulary-actions.ts';
import type { CheckedDocument } from './vocabulary-document.ts';
import type { ScopeSource } from './vocabulary-scopes.ts';

type QueueRuleOptions = Partial<Omit<NonNullable<CheckedDocument['queue_rules']>[number], 'name'>>;

const BUILT_IN_RULE = fillQueueRule({ name: DEFAULT_QUEUE_RULE_NAME });

function queueRule<C>(name: string, rule: QueueRuleOptions, base: QueueRuleOptions, always: C): EffectiveQueueRule<C> {
  const pick = <K extends keyof QueueRuleOptions>(key: K): QueueRuleOptions[K] => (Object.hasOwn(rule, key) ? rule[key] : base[key]);
  const timeout = pick('checks_timeout');
  const fastForward = pick('queue_branch_merge_method') === 'fast-forward';
  return {
    name,
    queue_conditions: (pick('queue_conditions') ?? always) as C,
    merge_conditions: (pick('merge_conditions') ?? always) as C,
    batch_size: pick('batch_size') ?? BUILT_IN_RULE.batch_size,
    batch_max_wait_time: pick('batch_max_wait_time') ?? BUILT_IN_RULE.batch_max_wait_time,
    checks_timeout: timeout === undefined || timeout === 'auto' ? BUILT_IN_RULE.checks_timeout : timeout,
    max_checks_retries: pick('max_checks_retries') ?? BUILT_IN_RULE.max_checks_retries,
    merge_method: fastForward ? 'fast-forward' : (pick('merge_method') ?? BUILT_IN_RULE.merge_method),
  };
}

function filterLists(filters: { include?: string[]; exclude?: string[] }): FileFilterLists {
  return { include: [...(filters.include ?? [])], exclude: [...(filters.exclude ?? [])] };
}

function scopeSource(source: ScopeSource | undefined): EffectiveConfiguration<unknown>['scopes']['source'] {
  if (!source) return null;
  if ('manual' in source) return { manual: null };
  return { files: Object.fromEntries(Object.entries(source.files).map(([name, filters]) => [name, filterLists(filters)])) };
}

/** Each action's options over `defaults.actions` for it (an option written wins). */
function withDefaults(written: ActionsByName, defaults: ActionsByName): Partial<Record<ActionName, ActionOptions>> {
  return Object.fromEntries(Object.entries(written).map(([name, options]) => [name, { ...(defaults[name as ActionName] ?? {}), ...(options ?? {}) }]));
}

function writtenOptions(actions: ActionsByName): Partial<Record<ActionName, ActionOptions>> {
  return Object.fromEntries(Object.entries(actions).map(([name, options]) => [name, { ...(options ?? {}) }]));
}

/** `always` is what the condition parser made of the empty list: conditions left out. */
export function effectiveConfiguration<C>(document: CheckedDocument, always: C): EffectiveConfiguration<C> {
  const queue = defaultMergeQueueConfig().merge_queue;
  const written = document.merge_queue ?? {};
  const ruleDefaults: QueueRuleOptions = document.defaults?.queue_rule ?? {};
  const actionDefaults = document.defaults?.actions ?? {};
  const rules = document.queue_rules?.length ? document.queue_rules : [{ name: DEFAULT_QUEUE_RULE_NAME }];
  const settings = document.merge_protections_settings ?? {};
  return {
    extends: document.extends ?? null,
    merge_queue: {
      mode: written.mode ?? queue.mode,
      max_parallel_checks: written.max_parallel_checks ?? queue.max_parallel_checks,
      skip_intermediate_results: written.skip_intermediate_results ?? queue.skip_intermediate_results,
      reset_on_external_merge: written.reset_on_external_merge ?? queue.reset_on_external_merge,
    },
    queue_rules: rules.map(({ name, ...options }) => queueRule(name, options, ruleDefaults, always)),
    priority_rules: (document.priority_rules ?? []).map((rule) => ({ name: rule.name, conditions: rule.conditions as C, priority: rule.priority ?? 'medium' })),
    scopes: {
      source: scopeSource(document.scopes?.source),
      barrier_files: document.scopes?.barrier_files ? filterLists(document.scopes.barrier_files) : null,
    },
    pull_request_rules: (document.pull_request_rules ?? []).map((rule) => ({
      name: rule.name,
      description: rule.description ?? null,
      conditions: rule.conditions as C,
      actions: withDefaults(rule.actions, actionDefaults),
      disabled: rule.disabled ?? null,
    })),
    merge_protections: (document.merge_protections ?? []).map((rule) => ({ name: rule.name, description: rule.description ?? null, if: rule.if as C, success_conditions: rule.success_conditions as C })),
    merge_protections_settings: { post_comment: settings.post_comment ?? true, auto_merge_conditions: (settings.auto_merge_conditions ?? null) as C | null },
    commands_restrictions: Object.fromEntries(Object.entries(document.commands_restrictions ?? {}).flatMap(([name, restriction]) => (restriction?.conditions === undefined ? [] : [[name, { conditions: restriction.conditions as C }]]))),
    defaults: { actions: writtenOptions(actionDefaults) },
  };
}
