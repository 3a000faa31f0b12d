// Changes on the platform at a steady rate, each one that the Summary of its pull request must
// show: a label `ready` added or removed, or a check run `ci/test` completed with the other
// conclusion, made through the fake platform's own operations (so its real signed webhooks go
// out). Pull requests are taken round-robin in a shuffled order, so one pull request changes
// again only after every other one has (never twice within a coalescing window). Then, per
// change, the time until the platform received a Summary showing it, and until Switchyard had
// answered the change's webhooks.
import type { EvaluationCalls } from './rules-engine-calls.ts';
import type { FakeApp } from '../test/support/fake-platform/platform-model.ts';
import { CI_CHECK, completeCheck, REPO, ticked, type ScenePull } from './rules-engine-scene.ts';
import type { RulesWorld } from './rules-engine-world.ts';
import { summaryWrites } from './rules-engine-writes.ts';

export interface Change {
  pull: ScenePull;
  kind: 'label' | 'check';
  /** What the Summary must then show: the condition's line ticked or not. */
  condition: string;
  ticked: boolean;
  /** Date.now() when the operation started on the platform. */
  at: number;
  deliveries: string[];
}

export interface ChangeLatency {
  change: Change;
  /** From the change to the Summary showing it on the platform; null: never, or not before it was superseded. */
  summaryMs: number | null;
  /** The same condition of the same pull request changed again before any Summary showed this change. */
  superseded: boolean;
  /** From the change to Switchyard's answer to its last webhook. */
  webhookMs: number | null;
  /** A webhook of the change was answered while an evaluation of the same pull request was running. */
  duringEvaluation: boolean;
}

export interface TrafficOptions {
  ratePerSecond: number;
  seconds: number;
  /** How long after the last change a Summary may still arrive. */
  drainMs: number;
  seed: number;
}

/** Sends the changes at their times (open loop: a late one goes at once, its own start recorded). */
export async function sendChanges(world: RulesWorld, ci: FakeApp, pulls: readonly ScenePull[], options: TrafficOptions): Promise<Change[]> {
  const order = shuffled(pulls, options.seed);
  const visits = new Map<bigint, number>();
  const total = Math.round(options.ratePerSecond * options.seconds);
  const start = Date.now();
  const changes: Change[] = [];
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / options.ratePerSecond - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const pull = order[i % order.length]!;
    const visit = visits.get(pull.number) ?? 0;
    visits.set(pull.number, visit + 1);
    const sentBefore = world.platform.webhooks.deliveries.length;
    const at = Date.now();
    let change: Omit<Change, 'at' | 'deliveries'>;
    if ((visit + Number(pull.number)) % 2 === 0) {
      const labelled = world.platform.pullRequest(REPO, pull.number).labels.some((label) => label.name === 'ready');
      if (labelled) await world.platform.removeLabel(REPO, pull.number, 'ready');
      else await world.platform.addLabels(REPO, pull.number, ['ready']);
      change = { pull, kind: 'label', condition: 'label=ready', ticked: !labelled };
    } else {
      const conclusion = latestConclusion(world, pull.head) === 'success' ? 'failure' : 'success';
      await completeCheck(world, ci, pull.head, conclusion);
      change = { pull, kind: 'check', condition: `check-success=${CI_CHECK}`, ticked: conclusion === 'success' };
    }
    changes.push({ ...change, at, deliveries: world.platform.webhooks.deliveries.slice(sentBefore).map((delivery) => delivery.id) });
  }
  return changes;
}

/** Each change's latencies, from the Summary writes the platform received since `logIndex`. */
export function latencies(world: RulesWorld, changes: readonly Change[], logIndex: number, evaluations: readonly EvaluationCalls[]): ChangeLatency[] {
  const byHead = new Map<string, ReturnType<typeof summaryWrites>>();
  for (const write of summaryWrites(world.platform, logIndex)) byHead.set(write.head, [...(byHead.get(write.head) ?? []), write]);
  return changes.map((change, index) => {
    const next = changes.slice(index + 1).find((later) => later.pull === change.pull && later.condition === change.condition);
    const until = next?.at ?? Infinity;
    const shown = (byHead.get(change.pull.head) ?? []).find((write) => write.at >= change.at && write.at < until && ticked(write.summary, change.condition) === change.ticked);
    const answered = change.deliveries.map((id) => world.webhookAnswered.get(id));
    const webhookMs = answered.length > 0 && answered.every((at) => at !== undefined) ? Math.max(...(answered as number[])) - change.at : null;
    const during = answered.some((at) => at !== undefined && evaluations.some((e) => e.number === change.pull.number && e.startedAt <= at && at <= e.endedAt));
    return { change, summaryMs: shown ? shown.at - change.at : null, superseded: !shown && next !== undefined, webhookMs, duringEvaluation: during };
  });
}

/** The conclusion of the head's latest `ci/test` run on the platform (an earlier case may have left one). */
function latestConclusion(world: RulesWorld, head: string): string | null {
  const runs = [...world.platform.repo(REPO).checkRuns.values()].filter((run) => run.headSha === head && run.name === CI_CHECK);
  return runs.at(-1)?.conclusion ?? null;
}

/** A deterministic shuffle (a linear congruential generator seeded by `seed`). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed >>> 0 || 1;
  for (let i = copy.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
