// THE table of what Switchyard implements of the public vocabulary. An option written in a file
// whose location is not listed here is accepted (its value still checked) and reported as not
// supported, with everything below it; nothing is silently ignored. A later issue that
// implements an option adds its line here, e.g. `pull_request_rules[].actions.label` and its
// options. Patterns write list items as `[]` and user-named entries (scope names) as `*`.

const under = (prefix: string, keys: readonly string[]) => keys.map((key) => `${prefix}.${key}`);

const QUEUE_RULE_OPTIONS = [
  'queue_conditions',
  'merge_conditions',
  'batch_size',
  'batch_size.min',
  'batch_size.max',
  'batch_max_wait_time',
  'checks_timeout',
  'max_checks_retries',
  'merge_method',
  // The deprecated spelling of `merge_method: fast-forward`.
  'queue_branch_merge_method',
];

export const IMPLEMENTED_OPTIONS: ReadonlySet<string> = new Set([
  'shared',
  'extends',
  'queue_rules',
  'queue_rules[].name',
  ...under('queue_rules[]', QUEUE_RULE_OPTIONS),
  'priority_rules',
  ...under('priority_rules[]', ['name', 'conditions', 'priority']),
  'merge_queue',
  ...under('merge_queue', ['mode', 'max_parallel_checks', 'skip_intermediate_results', 'reset_on_external_merge']),
  'scopes',
  'scopes.source',
  'scopes.source.files',
  ...under('scopes.source.files.*', ['include', 'exclude']),
  'scopes.source.manual',
  'scopes.barrier_files',
  ...under('scopes.barrier_files', ['include', 'exclude']),
  'pull_request_rules',
  // The rules are read and kept; each of their actions is reported until the rules engine runs it.
  ...under('pull_request_rules[]', ['name', 'description', 'conditions', 'disabled', 'disabled.reason', 'actions']),
  // merge_protections, merge_protections_settings and commands_restrictions are read and checked
  // but do nothing yet (issues "Merge protections" and "Workflow automation"): reported until then.
  'defaults',
  'defaults.actions',
  'defaults.queue_rule',
  ...under('defaults.queue_rule', QUEUE_RULE_OPTIONS),
]);
