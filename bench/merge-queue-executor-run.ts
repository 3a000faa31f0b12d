// One setting of a merge-queue scenario run for real (issue 15): Switchyard in this process with
// its executor (test/support/test-app.ts) against the fake platform, its time scaled down. Each
// pull request is opened before the clock starts, with a file of its own and, when the scenario
// says it is bad, a culprit file that fails the fake CI on any commit holding it; at its arrival
// it reports its scopes through the HTTP API and is queued by an `@switchyard queue` comment.
// The fake CI takes the scenario's duration for each push to a queue branch. After the measured
// period whatever is still queued is closed on the platform, the queue must finish, and
// queueProblems (test/support/merge-queue-process.ts) must find nothing wrong.
import { setTimeout as sleep } from 'node:timers/promises';
import type { MergeQueueConfig } from '../src/domain/merge-queue/model.ts';
import type { MergeQueueExecutor } from '../src/services/merge-queue/executor/merge-queue-executor.ts';
import type { Backend } from '../src/storage/store.ts';
import type { FakePlatform } from '../test/support/fake-platform/fake-platform.ts';
import { queueDone, queueProblems, readLog, REPO, until, type ScenePull } from '../test/support/merge-queue-process.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../test/support/test-app.ts';
import { realOverheads, realRunRecord, type ArrivedPull, type Overheads, type TimedEvent } from './merge-queue-executor-record.ts';
import type { RunRecord } from './merge-queue-metrics.ts';
import { scaleScenario, type Scenario, type ScenarioPull } from './merge-queue-scenario.ts';
import { CULPRITS, SCENARIO_CHECK, ScenarioCi } from './merge-queue-scenario-ci.ts';
import { platformWrites, type PlatformWrites } from './merge-queue-platform-writes.ts';
import type { QueueStrategy } from './merge-queue-strategies.ts';

const AUTHOR = 'alice';

export interface ExecutorRunOptions {
  backend: Backend;
  /** The scenario in its own time: the same one the simulation runs. */
  scenario: Scenario;
  strategy: QueueStrategy;
  /** Real milliseconds per scenario millisecond (1/600: a minute becomes 100 ms). */
  scale: number;
  /** The measured period in the scenario's time: arrivals, then time to drain. */
  periodMs: number;
  tickMs: number;
  pollMs: number;
  /** Real time the queue may take to finish once the rest is closed. */
  finishWithinMs: number;
  say: (line: string) => void;
}

export interface ExecutorRun {
  record: RunRecord;
  /** With the length of each pass of the executor in the period: one pass prepares every batch due, one after another. */
  overheads: Overheads & { pass: number[] };
  problems: string[];
  /** Pull requests still queued at the end of the period, closed on the platform. */
  closedAtEnd: number;
  /** Runs the fake CI started: one per push to a queue branch (`switchyard/merge-queue/**`). */
  ciPushes: number;
  /** Check attempts of batches on a queue branch (one draft pull request each), over the whole run. */
  branchAttempts: number;
  /** The pull requests of those attempts' own batches, summed: the attempts' mean batch size times their number. */
  branchAttemptPulls: number;
  /** What the queue's bot wrote on the platform over the whole run, and the pull requests it merged. */
  writes: PlatformWrites;
  mergedOnPlatform: number;
  wallMs: number;
}

/** The strategy's configuration with its times in real seconds, and the check the fake CI posts. */
export function realQueueConfig(config: MergeQueueConfig, scale: number): MergeQueueConfig {
  return {
    ...config,
    queue_rules: config.queue_rules.map((rule) => ({
      ...rule,
      batch_max_wait_time: Math.round(rule.batch_max_wait_time * scale),
      checks_timeout: Math.max(60, Math.ceil(rule.checks_timeout * scale)),
      required_checks: [SCENARIO_CHECK],
    })),
  };
}

export async function runThroughExecutor(options: ExecutorRunOptions): Promise<ExecutorRun> {
  const began = Date.now();
  const real = scaleScenario(options.scenario, options.scale);
  // The hosting client paces writes in real time (1 s, and 3 s for those that notify people: a
  // check pull request opened, a pull request merged); scaled with the scenario's clock, as the
  // CI durations are, or they alone would take tens of scenario minutes a batch.
  const hostingTuning = { writeIntervalMs: Math.round(1000 * options.scale), notificationIntervalMs: Math.round(3000 * options.scale) };
  const t = await startTestApp(options.backend, undefined, { executor: { tickMs: options.tickMs, pollMs: options.pollMs }, hostingTuning });
  const ci = new ScenarioCi(t.hosting, real);
  const passes = timePasses(t.executor!);
  try {
    await setUpRepository(t, realQueueConfig(options.strategy.config, options.scale));
    const opening = Date.now();
    const opened = await openPulls(t, options.scenario);
    const scene = { platform: t.hosting as FakePlatform, pulls: opened.map(({ scene }) => scene) };
    options.say(`server started in ${((opening - began) / 1000).toFixed(1)} s; ${opened.length} pull requests opened in ${((Date.now() - opening) / 1000).toFixed(1)} s, before the clock starts`);
    const startedAt = Date.now() + 500;
    const arrived = await Promise.all(opened.map(({ pull, scene }, i) => arrive(t, pull, scene.number, startedAt + real.pulls[i]!.arrivesAt)));
    await t.hosting.webhooks.settled();
    options.say(`${arrived.length} pull requests queued by ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    const periodEnd = startedAt + options.periodMs * options.scale;
    while (Date.now() < periodEnd && (await stillQueued(t)).length > 0) await sleep(Math.min(500, periodEnd - Date.now()));
    options.say(`period over at ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    const closed = await closeTheRest(t);
    options.say(`${closed.size} still queued, closed at ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    await until('the queue to finish', async () => queueDone(scene, await readLog(t.baseUrl)), options.finishWithinMs, 1000);
    const log = (await readLog(t.baseUrl)) as TimedEvent[];
    const facts = { label: options.strategy.label, startedAt, scale: options.scale, periodMs: options.periodMs, pulls: arrived, log, batches: await batchTimes(t), verdictAt: ci.verdictsByCheckPull(log) };
    const problems = await queueProblems(scene, log, closed);
    const overheads = { ...realOverheads(facts), pass: passes.filter((pass) => pass.endedAt <= periodEnd).map((pass) => pass.ms) };
    const writes = platformWrites(t.hosting.requestLog, QUEUE_BOT, REPO);
    const mergedOnPlatform = opened.filter(({ scene: pull }) => t.hosting.pullRequest(REPO, pull.number).merged).length;
    const attempts = branchAttempts(log);
    return { record: realRunRecord(facts), overheads, problems, closedAtEnd: closed.size, ciPushes: ci.pushes, branchAttempts: attempts.attempts, branchAttemptPulls: attempts.pulls, writes, mergedOnPlatform, wallMs: Date.now() - began };
  } finally {
    ci.stop();
    await t.close();
  }
}

async function setUpRepository(t: TestApp, config: MergeQueueConfig): Promise<void> {
  const [owner, name] = REPO.split('/') as [string, string];
  await t.hosting.createRepository({ owner, name, files: { 'README.md': 'widgets\n' } });
  t.hosting.createUser(AUTHOR);
  t.hosting.grant(REPO, AUTHOR, 'write');
  t.hosting.grant(REPO, QUEUE_BOT, 'write');
  await expect(t.request('PUT', `/v1/admin/repos/${REPO}`), 201);
  await expect(t.request('PUT', `/v1/products/${REPO}`, { body: { products: ['merge_queue'] } }), 204);
  await expect(t.request('PUT', `/v1/repos/${REPO}/merge-queue/configuration`, { body: config }), 200);
}

/** Opens the scenario's pull requests (before the clock starts: a pull request costs the fake platform git processes, not the queue). */
async function openPulls(t: TestApp, scenario: Scenario): Promise<Array<{ pull: ScenarioPull; scene: ScenePull }>> {
  const opened = [];
  for (const pull of scenario.pulls) {
    const file = `changes/pr-${pull.number}.txt`;
    const changes = { [file]: `${pull.number}\n`, ...(pull.bad ? { [`${CULPRITS}pr-${pull.number}.txt`]: 'fails the checks\n' } : {}) };
    const { number, headSha } = await t.hosting.openPullRequest({ repo: REPO, changes, title: `Scenario pull request ${pull.number}`, author: AUTHOR });
    opened.push({ pull, scene: { number, headSha, file, failing: pull.bad } });
  }
  await t.hosting.webhooks.settled();
  return opened;
}

/** At its time: its scopes reported through the API, then the queue command commented. */
async function arrive(t: TestApp, pull: ScenarioPull, number: bigint, at: number): Promise<ArrivedPull> {
  await sleep(Math.max(0, at - Date.now()));
  await expect(t.request('PUT', `/v1/repos/${REPO}/pulls/${number}/scopes`, { body: { scopes: pull.scopes, all_scopes: pull.barrier } }), 204);
  t.hosting.comment(REPO, number, AUTHOR, '@switchyard queue');
  return { scenario: pull, number, scheduledAt: at };
}

async function stillQueued(t: TestApp): Promise<bigint[]> {
  const rows = await t.store.db.selectFrom('merge_queue_entries').select('number').where('left_at', 'is', null).execute();
  return rows.map((row) => BigInt(row.number));
}

/**
 * Every pull request still queued closed on the platform, which takes it out of the queue
 * (PR_DEQUEUED). Not dequeued through the API: a dequeue that lands while the executor is merging
 * the pull request leaves it merged on the platform but PR_MANUALLY_DEQUEUED in the log, and a
 * pause would hold a batch half merged (RESULTS.md). On the platform a pull request is either
 * merged or closed, and the queue learns which from it.
 */
async function closeTheRest(t: TestApp): Promise<Set<bigint>> {
  const closed = new Set<bigint>();
  for (const number of await stillQueued(t)) {
    if (t.hosting.pullRequest(REPO, number).state !== 'open') continue;
    await t.hosting.closePullRequest(REPO, number, AUTHOR);
    // Merged by the queue meanwhile (the close then changed nothing): not one of ours.
    if (!t.hosting.pullRequest(REPO, number).merged) closed.add(number);
  }
  return closed;
}

interface TimedPass {
  ms: number;
  endedAt: number;
}

/** Times each pass of the executor: `pass` is public, and its loop calls it through the instance. */
function timePasses(executor: MergeQueueExecutor): TimedPass[] {
  const passes: TimedPass[] = [];
  const pass = executor.pass.bind(executor);
  executor.pass = async () => {
    const start = Date.now();
    try {
      await pass();
    } finally {
      passes.push({ ms: Date.now() - start, endedAt: Date.now() });
    }
  };
  return passes;
}

/** Check attempts on a draft pull request (not in place), one per (batch, checks start), and their pull requests (one checks_start each). */
function branchAttempts(log: readonly TimedEvent[]): { attempts: number; pulls: number } {
  const attempts = new Set<string>();
  let pulls = 0;
  for (const event of log) {
    const check = event.metadata.speculative_check_pull_request;
    if (event.type !== 'action.queue.checks_start' || !check || check.in_place) continue;
    attempts.add(`${event.metadata.batch_id} ${check.checks_started_at}`);
    pulls += 1;
  }
  return { attempts: attempts.size, pulls };
}

async function batchTimes(t: TestApp) {
  const rows = await t.store.db.selectFrom('merge_queue_batches').select(['id', 'started_at', 'checks_started_at']).execute();
  return rows.map((row) => ({ id: row.id, startedAt: new Date(row.started_at).getTime(), checksStartedAt: row.checks_started_at === null ? null : new Date(row.checks_started_at).getTime() }));
}

async function expect(answer: Promise<{ status: number; text: string }>, status: number): Promise<void> {
  const { status: got, text } = await answer;
  if (got !== status) throw new Error(`expected ${status}, got ${got}: ${text}`);
}
