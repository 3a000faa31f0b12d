// The fake CI (test/support/fake-platform/fake-ci.ts) as a merge-queue scenario says: each push
// to a queue branch (switchyard/merge-queue/**) starts a run of the scenario's next CI duration, counted from the push, which
// fails when the commit holds a culprit file (a bad pull request's, or one of an ancestor batch's).
// It records when each verdict was decided, to time how long the queue takes to hear of it.
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { QUEUE_BRANCH_PREFIX } from '../src/services/merge-queue/executor/queue-driver.ts';
import type { FakePlatform } from '../test/support/fake-platform/fake-platform.ts';
import { REPO } from '../test/support/merge-queue-process.ts';
import type { TimedEvent } from './merge-queue-executor-record.ts';
import type { Scenario } from './merge-queue-scenario.ts';

/** The check the fake CI posts, and the queue requires. */
export const SCENARIO_CHECK = 'ci/test';
/** Where a bad pull request adds its culprit file (one per pull request, so two never conflict). */
export const CULPRITS = 'culprits/';

export class ScenarioCi {
  /** Runs started so far, one per push to a queue branch; the n-th takes the scenario's n-th CI duration. */
  pushes = 0;
  private readonly started = new Map<string, { at: number; durationMs: number }>();
  private readonly decidedAt = new Map<string, number>();
  private readonly stopped = new AbortController();

  constructor(
    private readonly platform: FakePlatform,
    scenario: Scenario,
  ) {
    // Every run waiting for its end listens to this signal.
    setMaxListeners(0, this.stopped.signal);
    // CI as docs/merge-queue.md tells teams to set it up: on pushes to the queue's branches only.
    platform.core.branchListeners.push((move) => {
      if (move.after === null || !move.branch.startsWith(QUEUE_BRANCH_PREFIX) || this.stopped.signal.aborted) return;
      this.started.set(move.after, { at: Date.now(), durationMs: scenario.ciDuration(this.pushes++) });
    });
    platform.ci.configure({ branches: (branch) => branch.startsWith(QUEUE_BRANCH_PREFIX), checks: [{ name: SCENARIO_CHECK, verdict: (files) => this.verdict(files.sha, files.paths) }] });
  }

  private async verdict(sha: string, paths: ReadonlySet<string>): Promise<'success' | 'failure'> {
    const run = this.started.get(sha);
    if (run) await sleep(Math.max(0, run.at + run.durationMs - Date.now()), undefined, { signal: this.stopped.signal });
    this.decidedAt.set(sha, Date.now());
    return [...paths].some((path) => path.startsWith(CULPRITS)) ? 'failure' : 'success';
  }

  /** When the verdict on each check pull request's head (its number, as the log names it) was decided. */
  verdictsByCheckPull(log: readonly TimedEvent[]): Map<string, number> {
    const verdicts = new Map<string, number>();
    for (const event of log) {
      const number = event.type === 'action.queue.checks_end' ? event.metadata.speculative_check_pull_request?.number : undefined;
      if (number === undefined || number === null || verdicts.has(String(number))) continue;
      const decided = this.decidedAt.get(this.platform.pullRequest(REPO, BigInt(number)).headSha);
      if (decided !== undefined) verdicts.set(String(number), decided);
    }
    return verdicts;
  }

  stop(): void {
    this.stopped.abort();
  }
}
