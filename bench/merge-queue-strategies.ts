// The flags of the merge-queue simulation and of its re-run through the real executor
// (merge-queue-executor.ts): one scenario (merge-queue-scenario.ts) and the queue settings
// compared, built the same way for both so that their rows are about the same thing.
import type { MergeQueueConfig, QueueMode, QueueRuleConfig } from '../src/domain/merge-queue/model.ts';
import type { FillingRule } from '../src/domain/merge-queue/batch-filling.ts';
import { DEFAULT_SCENARIO, type ScenarioOptions } from './merge-queue-scenario.ts';
import type { Strategy } from './merge-queue-sim-engine.ts';

/** parseArgs options shared by both benchmarks (each adds its own). */
export const MERGE_QUEUE_FLAGS = {
  arrivals: { type: 'string', default: String(DEFAULT_SCENARIO.arrivalsPerHour) },
  hours: { type: 'string', default: String(DEFAULT_SCENARIO.hours) },
  'ci-minutes': { type: 'string', default: String(DEFAULT_SCENARIO.ciMinutes) },
  'ci-distribution': { type: 'string', default: DEFAULT_SCENARIO.ciDistribution },
  'ci-spread': { type: 'string', default: String(DEFAULT_SCENARIO.ciSpread) },
  'failure-rate': { type: 'string', default: String(DEFAULT_SCENARIO.failureRate) },
  'flaky-rate': { type: 'string', default: String(DEFAULT_SCENARIO.flakyRate) },
  scopes: { type: 'string', default: String(DEFAULT_SCENARIO.scopes) },
  zipf: { type: 'string', default: String(DEFAULT_SCENARIO.zipfExponent) },
  'second-scope': { type: 'string', default: String(DEFAULT_SCENARIO.secondScopeRate) },
  barrier: { type: 'string', default: String(DEFAULT_SCENARIO.barrierRate) },
  seed: { type: 'string', default: String(DEFAULT_SCENARIO.seed) },
  slots: { type: 'string', default: '8' },
  // Batch sizes per strategy, "n" or "min-max": the best of 2, 3, 4, 6, 8 for each at the
  // default scenario (bench/RESULTS.md).
  'serial-batch-size': { type: 'string', default: '1-2' },
  'parallel-batch-size': { type: 'string', default: '1-4' },
  'isolated-batch-size': { type: 'string', default: '1-4' },
  wait: { type: 'string', default: '30' },
  filling: { type: 'string', default: 'when-last' },
  retries: { type: 'string', default: '0' },
  // skip_intermediate_results: off, on, or both (each strategy twice, off then on).
  'skip-intermediate': { type: 'string', default: 'off' },
} as const;

export type MergeQueueFlags = { [K in keyof typeof MERGE_QUEUE_FLAGS]: string };

export type StrategyKey = 'serial-1' | 'serial-batch' | 'parallel' | 'isolated';
export const STRATEGY_KEYS: readonly StrategyKey[] = ['serial-1', 'serial-batch', 'parallel', 'isolated'];

export interface QueueStrategy extends Strategy {
  key: StrategyKey;
  /** batch_size and max_parallel_checks, as a table shows them. */
  settings: string;
  maxBatch: number;
}

export function scenarioOptionsFrom(flags: MergeQueueFlags): ScenarioOptions {
  return {
    arrivalsPerHour: Number(flags.arrivals),
    hours: Number(flags.hours),
    ciMinutes: Number(flags['ci-minutes']),
    ciDistribution: flags['ci-distribution'] as ScenarioOptions['ciDistribution'],
    ciSpread: Number(flags['ci-spread']),
    failureRate: Number(flags['failure-rate']),
    flakyRate: Number(flags['flaky-rate']),
    scopes: Number(flags.scopes),
    zipfExponent: Number(flags.zipf),
    secondScopeRate: Number(flags['second-scope']),
    barrierRate: Number(flags.barrier),
    seed: Number(flags.seed),
  };
}

function batchSize(text: string): QueueRuleConfig['batch_size'] {
  const [min, max] = text.split('-').map(Number);
  return max === undefined ? (min as number) : { min: min as number, max };
}

const sizeText = (size: QueueRuleConfig['batch_size']) => (typeof size === 'number' ? String(size) : `{${size.min}, ${size.max}}`);
const maxOf = (size: QueueRuleConfig['batch_size']) => (typeof size === 'number' ? size : size.max);

/**
 * Every strategy the flags describe, in table order. `waitSeconds` is batch_max_wait_time in the
 * scenario's time (the executor's run passes the value its scaled, whole-second setting amounts to).
 */
export function queueStrategies(flags: MergeQueueFlags, waitSeconds = Number(flags.wait)): QueueStrategy[] {
  const slots = Number(flags.slots);
  const fillingRule = flags.filling as FillingRule;
  const ciMinutes = Number(flags['ci-minutes']);
  const config = (mode: QueueMode, maxParallelChecks: number, size: QueueRuleConfig['batch_size']): MergeQueueConfig => ({
    merge_queue: { mode, max_parallel_checks: maxParallelChecks, skip_intermediate_results: false, reset_on_external_merge: 'always' },
    queue_rules: [
      {
        name: 'default',
        batch_size: size,
        batch_max_wait_time: waitSeconds,
        // Far above any CI run of the scenario: timeouts are not what this compares.
        checks_timeout: Math.max(3600, Math.ceil(ciMinutes * 60 * 10)),
        max_checks_retries: Number(flags.retries),
        merge_method: 'merge',
        required_checks: [],
        branches: [],
      },
    ],
    priority_rules: [],
    scopes: { missing: 'barrier', wait_seconds: 600 },
  });
  const strategy = (key: StrategyKey, label: string, mode: QueueMode, maxParallelChecks: number, size: QueueRuleConfig['batch_size']): QueueStrategy => ({
    key,
    label,
    settings: `batch_size ${sizeText(size)}, max_parallel_checks ${maxParallelChecks}`,
    maxBatch: maxOf(size),
    config: config(mode, maxParallelChecks, size),
    planOptions: { fillingRule },
  });
  const all = [
    strategy('serial-1', 'serial, no batching', 'serial', 1, 1),
    strategy('serial-batch', 'serial, batches + speculative checks', 'serial', slots, batchSize(flags['serial-batch-size'])),
    strategy('parallel', 'parallel', 'parallel', slots, batchSize(flags['parallel-batch-size'])),
    strategy('isolated', 'isolated', 'isolated', slots, batchSize(flags['isolated-batch-size'])),
  ];
  return withSkipIntermediate(all, flags['skip-intermediate']);
}

/** The strategies with skip_intermediate_results as `--skip-intermediate` says: off, on, or both (off then on). */
function withSkipIntermediate(strategies: QueueStrategy[], setting: string): QueueStrategy[] {
  if (!['off', 'on', 'both'].includes(setting)) throw new Error(`--skip-intermediate: off, on or both, not ${setting}`);
  const skipping = (strategy: QueueStrategy): QueueStrategy => ({
    ...strategy,
    label: `${strategy.label} + skip`,
    settings: `${strategy.settings}, skip_intermediate_results`,
    config: { ...strategy.config, merge_queue: { ...strategy.config.merge_queue, skip_intermediate_results: true } },
  });
  if (setting === 'off') return strategies;
  if (setting === 'on') return strategies.map(skipping);
  return strategies.flatMap((strategy) => [strategy, skipping(strategy)]);
}

/** The strategies named in `only` (comma-separated keys), all when it is absent; unknown keys refused. */
export function chooseStrategies(strategies: readonly QueueStrategy[], only: string | undefined): QueueStrategy[] {
  const keys = only?.split(',');
  const unknown = keys?.filter((key) => !STRATEGY_KEYS.includes(key as StrategyKey)) ?? [];
  if (unknown.length > 0) throw new Error(`--only: no strategy ${unknown.join(', ')}; there are ${STRATEGY_KEYS.join(', ')}`);
  return strategies.filter((candidate) => !keys || keys.includes(candidate.key));
}
