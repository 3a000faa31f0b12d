// The merge-queue configuration as PUT /v1/repos/{o}/{r}/merge-queue/configuration takes it and
// GET answers it (DESIGN.md §9), with the option names of the public configuration. Strict: an
// unknown or misspelt option is a 422 naming it, never dropped. What one schema cannot say
// (unique rule names, min ≤ max) is checked by configIssues.
import { Type, type Static } from '@sinclair/typebox';
import { StrictObject, StringEnum } from '../schema-primitives.ts';

const Name = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });
const Names = (description: string) => Type.Array(Name('A name'), { maxItems: 100, uniqueItems: true, description });
const Seconds = (minimum: number, maximum: number, fallback: number, description: string) =>
  Type.Integer({ minimum, maximum, default: fallback, description: `${description} In seconds, ${minimum} to ${maximum}; default ${fallback}.` });

const Size = Type.Integer({ minimum: 1, maximum: 128 });

export const BatchSize = Type.Union(
  [Size, StrictObject({ min: Size, max: Size }, { title: 'BatchSizeBounds', description: 'Dynamic size: from `min` when check slots are free, up to `max` to keep up; min ≤ max.' })],
  { default: 1, description: 'Pull requests per batch: a fixed size (1 to 128) or bounds `{min, max}`.' },
);

export const MergeQueueOptions = StrictObject(
  {
    mode: Type.Optional(StringEnum(['serial', 'parallel', 'isolated'] as const, { description: 'serial: batches form a chain; parallel: batches whose scopes differ are checked concurrently; isolated: every batch alone. Default serial.' })),
    max_parallel_checks: Type.Optional(Type.Integer({ minimum: 1, maximum: 128, default: 5, description: 'Batches of a queue checked at once, 1 to 128; default 5.' })),
    skip_intermediate_results: Type.Optional(Type.Boolean({ default: false })),
    reset_on_external_merge: Type.Optional(StringEnum(['always', 'never'] as const, { description: 'What a push to the base from outside the queue does: re-plan everything (always, the default) or nothing.' })),
  },
  { title: 'MergeQueueOptions' },
);

export const QueueRuleOptions = StrictObject(
  {
    name: Name('Unique among the queue rules'),
    batch_size: Type.Optional(BatchSize),
    batch_max_wait_time: Type.Optional(Seconds(0, 86_400, 30, 'How long a batch short of its size waits for more pull requests.')),
    checks_timeout: Type.Optional(Seconds(60, 604_800, 3600, 'How long checks may stay undecided.')),
    max_checks_retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, default: 0, description: 'Failed checks retried before the failure counts, 0 to 10; default 0.' })),
    merge_method: Type.Optional(StringEnum(['merge', 'squash', 'rebase', 'fast-forward'] as const, { description: 'Default merge.' })),
    required_checks: Type.Optional(Names('Check names that must succeed on the batch head; default none.')),
    branches: Type.Optional(Names('Base branches the rule covers; empty (the default) covers every branch.')),
  },
  { title: 'QueueRuleOptions' },
);

export const PriorityRuleOptions = StrictObject(
  {
    name: Name('Unique among the priority rules'),
    priority: Type.Optional(StringEnum(['high', 'medium', 'low'] as const, { description: 'Default medium.' })),
    labels: Type.Optional(Names('A pull request with any of these labels gets the priority; default none.')),
  },
  { title: 'PriorityRuleOptions' },
);

export const BarrierFiles = StrictObject(
  {
    include: Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), { minItems: 1, maxItems: 100 }),
    exclude: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), { maxItems: 100 })),
  },
  { title: 'BarrierFiles', description: 'Kept, and ignored: scopes come from CI reports, not from files.' },
);

export const ScopeOptions = StrictObject(
  {
    missing: Type.Optional(StringEnum(['wait', 'barrier'] as const, { description: 'A pull request without a scope report in parallel mode: waits up to `wait_seconds` then counts as a barrier (wait, the default), or is a barrier at once.' })),
    wait_seconds: Type.Optional(Seconds(0, 86_400, 600, 'How long a pull request waits for its scope report.')),
    barrier_files: Type.Optional(BarrierFiles),
  },
  { title: 'ScopeOptions' },
);

export const MergeQueueConfiguration = StrictObject(
  {
    merge_queue: Type.Optional(MergeQueueOptions),
    queue_rules: Type.Optional(Type.Array(QueueRuleOptions, { minItems: 1, maxItems: 50, description: 'At least one; default one rule named `default`.' })),
    priority_rules: Type.Optional(Type.Array(PriorityRuleOptions, { maxItems: 50 })),
    scopes: Type.Optional(ScopeOptions),
  },
  {
    title: 'MergeQueueConfiguration',
    description: 'Every option is optional; GET answers each with its default filled in. Durations are integer seconds.',
  },
);

export type MergeQueueConfigurationInput = Static<typeof MergeQueueConfiguration>;
