// The merge queue's statistics (issue 26) through HTTP on each backend: a day of queue events
// with known durations is written through the ingestion endpoint, and each `/stats/*` read
// answers the figures a person would work out by hand (time to merge mean and median, failure
// rate, time in queue, CI runtime per batch attempt, where the time in queue went, retries,
// bisections, batches saved, the queue size over time), in the public document's shapes, with
// its filters, and the activity log's window rules (422s). Then the real queue: pull requests
// merged by the executor on the fake platform appear in the statistics.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { QUEUE_BOT, startTestApp, type TestApp } from '../support/test-app.ts';
import { publicStatsOperationId, publicStatsPaths, statsAnswerProblem, statsReferenceMissing } from '../support/stats-reference.ts';
import * as story from '../support/queue-story.ts';
import type { IngestEventInput } from '../fixtures/event-fixtures.ts';

const REPO = 'acme/widgets';
const DAY = 86_400_000;
/** The window: the whole UTC day two days ago, told by 10-minute intervals. */
const D = Math.floor(Date.now() / DAY) * DAY - 2 * DAY;
const at = (hours: number, minutes = 0) => D + hours * 3_600_000 + minutes * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const WINDOW = `start_at=${iso(D)}&end_at=${iso(D + DAY)}`;

type Json = any;

/**
 * main/default, no priority rule: #1, #2, #3 and #5 enter at 1:00, 1:10, 1:20, 1:45 and leave at
 * 2:00; #3 with CHECKS_FAILED, the others merged: 3600, 3000, 2400 and 900 s in the queue.
 * Batch A [#1, #2] checks 1:30 → 1:50 and passes. Batch B [#3] fails 1:30 → 1:40, is retried
 * 1:41 → 1:59 and fails again. Batch C [#5] fails 1:52 → 1:55, is retried 1:55 → 1:58 and
 * passes; #5 was held 120 s by a freeze. The size goes 0 (the day before), 1, 2, 3, 4, 0; the
 * checks running 2 at 1:30, 0 at 1:50.
 * release/hotfix, priority rule urgent: #4 enters at 3:00 and merges at 3:30; batch E [#8, #9]
 * ends INTERMEDIATE_RESULTS_SKIPPED at 4:00, its pull requests merged on a later batch. A batch
 * [#6, #7] of main/default is split at 3:00 and again at 3:10; its bisection finds #7 at 3:20.
 */
function dayOfEvents(): IngestEventInput[] {
  const [s1, s2, s3, s5] = [story.stay(1, at(1)), story.stay(2, at(1, 10)), story.stay(3, at(1, 20)), story.stay(5, at(1, 45))];
  const [a, b, c] = [story.batch([s1, s2], 101), story.batch([s3], 102), story.batch([s5], 103)];
  const s4 = story.stay(4, at(3), { base: 'release', queue: 'hotfix', priority: 'urgent' });
  const [s8, s9] = [story.stay(8, at(3, 50), { base: 'release', queue: 'hotfix', priority: 'urgent' }), story.stay(9, at(3, 50), { base: 'release', queue: 'hotfix', priority: 'urgent' })];
  const e = story.batch([s8, s9], 104);
  const [s6, s7] = [story.stay(6, at(2, 30)), story.stay(7, at(2, 30))];
  const [split, half] = [story.batch([s6, s7], 105), story.batch([s6, s7], 106)];
  return [
    story.size(D - 2 * 3_600_000, 0),
    ...[s1, s2, s3].flatMap((s, i) => [story.enter(s), story.size(s.queuedAt, i + 1)]),
    ...story.checksStart(a, at(1, 30)), ...story.checksStart(b, at(1, 30)), story.running(at(1, 30), 2),
    ...story.checksEnd(b, at(1, 30), at(1, 40), 'failure'),
    ...story.checksStart(b, at(1, 41), 1),
    story.enter(s5), story.size(at(1, 45), 4),
    ...story.checksEnd(a, at(1, 30), at(1, 50), 'success'), story.running(at(1, 50), 0),
    ...story.checksStart(c, at(1, 52)),
    ...story.checksEnd(c, at(1, 52), at(1, 55), 'failure'),
    ...story.checksStart(c, at(1, 55), 1),
    ...story.checksEnd(c, at(1, 55), at(1, 58), 'success', { retry: 1 }),
    ...story.checksEnd(b, at(1, 41), at(1, 59), 'failure', { retry: 1 }),
    story.merged(s1, at(2)), story.leave(s1, at(2), 'PR_MERGED', { batch: a }),
    story.merged(s2, at(2)), story.leave(s2, at(2), 'PR_MERGED', { batch: a }),
    story.leave(s3, at(2), 'CHECKS_FAILED', { batch: b }),
    story.merged(s5, at(2)), story.leave(s5, at(2), 'PR_MERGED', { batch: c, freezeSeconds: 120 }),
    story.size(at(2), 0),
    ...story.bisectionStart(split, at(3), 1), ...story.bisectionStart(half, at(3, 10), 2), ...story.bisectionEnd(split, at(3, 20), [7]),
    story.enter(s4), story.merged(s4, at(3, 30)), story.leave(s4, at(3, 30), 'PR_MERGED'),
    ...story.checksEnd(e, at(3, 50), at(4), 'cancelled', { abortCode: 'INTERMEDIATE_RESULTS_SKIPPED' }),
    ...[s8, s9].map((s) => story.leave(s, at(4), 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED', { batch: e })),
  ];
}

const MAIN = { base_ref: 'main', queue_name: 'default', priority_rule_name: null };
const RELEASE = { base_ref: 'release', queue_name: 'hotfix', priority_rule_name: 'urgent' };

/** The group of an answer, and its stat of the interval starting at `ms`. */
const groupOf = (body: Json, group: object, list = 'groups') => body[list].find((g: Json) => Object.entries(group).every(([k, v]) => g[k] === v));
const statAt = (group: Json, ms: number) => group.stats.filter((s: Json) => s.start === iso(ms));

for (const backend of await backends()) {
  describe(`merge queue statistics (${backend})`, () => {
    let t: TestApp;
    const stats = async (path: string, query = WINDOW) => {
      const answer = await t.request('GET', `/v1/repos/${REPO}/stats/${path}?${query}`);
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      return answer.json;
    };

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${REPO}`, { body: { products: ['merge_queue'] } })).status, 204);
      const written = await t.request('POST', `/v1/repos/${REPO}/logs`, { body: { events: dayOfEvents() } });
      assert.equal(written.status, 201, written.text);
    });
    after(() => t.close());

    test('time to merge: mean and median per queue, over the 7 days before `at`, and per branch', async () => {
      const answer = await t.request('GET', `/v1/repos/${REPO}/stats/time_to_merge?at=${encodeURIComponent(iso(D + DAY))}`);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.headers.get('deprecation'), 'true');
      assert.deepEqual(answer.json, [{ queues: [{ queue_name: 'default', time_to_merge: { mean: 2500, median: 3000 } }, { queue_name: 'hotfix', time_to_merge: { mean: 1800, median: 1800 } }] }]);
      assert.deepEqual(await stats('time_to_merge', `at=${iso(D + DAY)}&branch=release`), [{ queues: [{ queue_name: 'hotfix', time_to_merge: { mean: 1800, median: 1800 } }] }]);
      // Before any merge, a queue entered answers null.
      assert.deepEqual(await stats('time_to_merge', `at=${iso(at(1, 30))}`), [{ queues: [{ queue_name: 'default', time_to_merge: { mean: null, median: null } }] }]);
    });

    test('entries and merges per interval: every interval listed, 0 where none', async () => {
      const entered = groupOf(await stats('queues_entered_count'), MAIN);
      assert.equal(entered.stats.length, 144, 'a day of 10-minute intervals');
      assert.deepEqual(entered.stats.filter((s: Json) => s.entered > 0).map((s: Json) => [s.start, s.entered]), [[iso(at(1)), 1], [iso(at(1, 10)), 1], [iso(at(1, 20)), 1], [iso(at(1, 40)), 1]]);
      assert.deepEqual(statAt(entered, at(1, 40)), [{ start: iso(at(1, 40)), end: iso(at(1, 50)), entered: 1 }]);
      const merged = await stats('queues_merged_count');
      assert.deepEqual(statAt(groupOf(merged, MAIN), at(2)), [{ start: iso(at(2)), end: iso(at(2, 10)), merged: 3 }]);
      assert.deepEqual(statAt(groupOf(merged, RELEASE), at(3, 30)).map((s: Json) => s.merged), [1]);
    });

    test('failure rate, time in queue and why pull requests left', async () => {
      assert.deepEqual(statAt(groupOf(await stats('failure_rate'), MAIN), at(2)), [{ start: iso(at(2)), end: iso(at(2, 10)), total: 4, failures: 1, failure_rate: 0.25 }]);
      const queueTime = groupOf(await stats('total_queue_time'), MAIN);
      assert.deepEqual(queueTime.stats, [{ start: iso(at(2)), end: iso(at(2, 10)), avg_queue_time: 2475, max_queue_time: 3600, min_queue_time: 900, sum_queue_time: 9900, count_queue_time: 4 }]);
      const exits = groupOf(await stats('queues_pr_exit_reasons'), MAIN);
      assert.deepEqual(exits.stats.map((s: Json) => [s.exit_reason, s.count]), [['PR_MERGED', 3], ['CHECKS_FAILED', 1]]);
      const release = groupOf(await stats('queues_checks_outcome_count'), RELEASE);
      assert.deepEqual(release.stats.map((s: Json) => [s.start, s.check_outcome, s.count]), [[iso(at(3, 30)), 'SUCCESS', 1], [iso(at(4)), 'SUCCESS', 2]]);
      const totals = await t.request('GET', `/v1/repos/${REPO}/stats/merge_queue_checks_outcome?${WINDOW}`);
      assert.equal(totals.headers.get('deprecation'), 'true');
      const main = groupOf(totals.json, MAIN).stats;
      assert.equal(main.SUCCESS, 3);
      assert.equal(main.CHECKS_FAILED, 1);
      assert.equal(Object.values(main).reduce((n: number, v) => n + (v as number), 0), 4, 'every other outcome 0');
    });

    test('CI runtime per batch attempt that concluded, batch sizes, retries', async () => {
      const runtime = groupOf(await stats('average_ci_runtime'), MAIN);
      // 1:40: B's first attempt (600 s); 1:50: A 1200, B's retry 1080, C 180 and 180.
      assert.deepEqual(runtime.stats.map((s: Json) => [s.start, s.runtime, s.sum_runtime, s.count_runtime]), [[iso(at(1, 40)), 600, 600, 1], [iso(at(1, 50)), 660, 2640, 4]]);
      const sizes = groupOf(await stats('batch_size'), MAIN);
      assert.deepEqual(sizes.stats.map((s: Json) => [s.start, s.avg_batch_size, s.max_batch_size, s.min_batch_size, s.sum_batch_size, s.count_batch_size]), [
        [iso(at(1, 30)), 1.5, 2, 1, 3, 2],
        [iso(at(1, 40)), 1, 1, 1, 1, 1],
        [iso(at(1, 50)), 1, 1, 1, 2, 2],
      ]);
      const retries = groupOf(await stats('checks_retries'), MAIN);
      assert.deepEqual(retries.stats, [{ start: iso(at(1, 50)), end: iso(at(2)), total_retries: 2, sessions_with_retries: 2, recovered: 1, not_recovered: 1, recovery_rate: 0.5, avg_retry_depth: 1, max_retry_depth: 1 }]);
    });

    test('where the time in queue went: checks running, a freeze, the rest', async () => {
      const idle = groupOf(await stats('idle_queue_time'), MAIN);
      const [stat] = idle.stats;
      // Stays of 3600, 3000, 2400, 900 s; checks ran 1200, 1200, 1680, 360 s; #5 frozen 120 s.
      assert.equal(stat.start, iso(at(2)));
      assert.deepEqual([stat.ci_runtime, stat.idle_freeze, stat.idle_schedule, stat.idle_capacity, stat.count_idle], [1110, 30, 0, 1335, 4]);
      assert.deepEqual([stat.max_ci_runtime, stat.max_idle_capacity, stat.sum_idle_capacity], [1680, 2400, 5340]);
      assert.ok(Math.abs(stat.p95_ci_runtime - 1608) < 1e-9, `p95 of 360, 1200, 1200, 1680: ${stat.p95_ci_runtime}`);
      assert.equal(idle.summary.avg_idle_capacity, 1335);
    });

    test('bisections and batches saved by skip_intermediate_results, each batch once', async () => {
      const bisection = await stats('batch_bisection');
      assert.deepEqual(groupOf(bisection, MAIN, 'started').stats.map((s: Json) => [s.start, s.bisection_count, s.avg_depth, s.max_depth, s.avg_batch_size_before_split]), [[iso(at(3)), 1, 1, 1, 2], [iso(at(3, 10)), 1, 2, 2, 2]]);
      assert.deepEqual(groupOf(bisection, MAIN, 'completed').stats.map((s: Json) => [s.start, s.bisection_completed_count, s.culprit_found_count, s.max_failure_reached_count]), [[iso(at(3, 20)), 1, 1, 0]]);
      const saved = groupOf(await stats('skip_intermediate_results'), RELEASE);
      assert.deepEqual(saved.stats.filter((s: Json) => s.batches_saved > 0).map((s: Json) => [s.start, s.batches_saved]), [[iso(at(4)), 1]]);
    });

    test('queue size and checks running: time-weighted, from the last change before the window', async () => {
      const size = groupOf(await stats('queue_size'), MAIN);
      assert.equal(size.stats.length, 144, 'known from the change of the day before');
      assert.deepEqual(statAt(size, at(0, 50)).map((s: Json) => [s.avg_size, s.max_size, s.min_size]), [[0, 0, 0]]);
      assert.deepEqual(statAt(size, at(1)).map((s: Json) => [s.avg_size, s.max_size, s.min_size]), [[1, 1, 1]]);
      // 3 for 5 minutes, then 4 for 5 minutes.
      assert.deepEqual(statAt(size, at(1, 40)).map((s: Json) => [s.avg_size, s.max_size, s.min_size]), [[3.5, 4, 3]]);
      const running = (await stats('running_speculative_checks')).groups;
      assert.deepEqual(running.map((g: Json) => Object.keys(g).sort()), [['base_ref', 'queue_name', 'stats']], 'no priority rule');
      // Unknown before the first change: told from 1:30 on.
      assert.deepEqual(running[0].stats.slice(0, 3).map((s: Json) => [s.start, s.avg_running_checks]), [[iso(at(1, 30)), 2], [iso(at(1, 40)), 2], [iso(at(1, 50)), 0]]);
    });

    test('filters keep the groups asked for; values of one parameter OR together', async () => {
      const groups = async (query: string) => (await stats('queues_merged_count', `${WINDOW}&${query}`)).groups.map((g: Json) => [g.base_ref, g.queue_name, g.priority_rule_name]);
      assert.deepEqual(await groups('base_ref=release'), [['release', 'hotfix', 'urgent']]);
      assert.deepEqual(await groups('queue_name=default'), [['main', 'default', null]]);
      assert.deepEqual(await groups('priority_rule_name=urgent'), [['release', 'hotfix', 'urgent']]);
      assert.deepEqual(await groups('base_ref=main&base_ref=release'), [['main', 'default', null], ['release', 'hotfix', 'urgent']]);
      assert.deepEqual(await groups('base_ref=main&queue_name=hotfix'), []);
      assert.deepEqual(await stats('branches'), { base_refs: ['main', 'release'] });
      assert.deepEqual(await stats('queues'), { queue_names: ['default', 'hotfix'] });
      assert.deepEqual(await stats('branches', ''), { base_refs: [] }, 'the default window (the last day) holds nothing');
    });

    test('every read answers in the public document shape, under its public operation id', { skip: statsReferenceMissing }, async () => {
      const served = (await t.request('GET', '/v1/openapi.json')).json;
      const paths = publicStatsPaths();
      assert.equal(paths.length, 18);
      for (const path of paths) {
        const body = await stats(path, path === 'time_to_merge' ? `at=${iso(D + DAY)}` : WINDOW);
        assert.equal(statsAnswerProblem(path, body), undefined);
        assert.equal(served.paths[`/repos/{owner}/{repository}/stats/${path}`]?.get?.operationId, publicStatsOperationId(path), path);
      }
    });

    test('a bad window or parameter is a 422 naming it; an unknown repository a 404; no credential a 403', async () => {
      const problem = async (query: string, path = 'failure_rate') => {
        const answer = await t.request('GET', `/v1/repos/${REPO}/stats/${path}?${query}`);
        assert.equal(answer.status, 422, `${query}: ${answer.text}`);
        return answer.json.detail.map((issue: Json) => [issue.loc.join('.'), issue.type]);
      };
      assert.deepEqual(await problem(`start_at=${iso(D)}&end_at=${iso(D)}`), [['query.start_at', 'window_order']]);
      assert.deepEqual(await problem(`start_at=${iso(D - 94 * DAY)}&end_at=${iso(D)}`), [['query.start_at', 'window_too_long']]);
      assert.deepEqual(await problem('start_at=2024-01-01T00:00:00'), [['query.start_at', 'format']]);
      assert.deepEqual(await problem('end_at=2024-01-01T00:00:00 02:00', 'queues'), [['query.end_at', 'format']]);
      assert.deepEqual(await problem('at=yesterday', 'time_to_merge'), [['query.at', 'format']]);
      assert.equal((await t.request('GET', `/v1/repos/${REPO}/stats/failure_rate?base_ref=`)).status, 422);
      assert.equal((await t.request('GET', `/v1/repos/${REPO}/stats/failure_rate?base_rf=main`)).status, 422, 'a misspelt filter is refused, not ignored');
      assert.equal((await t.request('GET', `/v1/repos/${REPO}/stats/running_speculative_checks?priority_rule_name=urgent`)).status, 422, 'not a parameter of this read');
      assert.equal((await t.request('GET', `/v1/repos/${REPO}/stats/branches?start_at=${iso(D)}&start_at=${iso(D)}`)).status, 422);
      const unknown = await t.request('GET', '/v1/repos/acme/nothing/stats/queue_size');
      assert.deepEqual([unknown.status, unknown.json.detail], [404, 'Repository not found']);
      assert.equal((await t.request('GET', `/v1/repos/${REPO}/stats/queue_size`, { token: null })).status, 403);
    });
  });

  describe(`merge queue statistics of the real queue (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend, undefined, { executor: {} });
      await t.hosting.createRepository({ owner: 'acme', name: 'widgets', files: { 'README.md': 'widgets\n' } });
      t.hosting.grant(REPO, QUEUE_BOT, 'write');
      t.hosting.ci.configure({ delayMs: 10, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: () => 'success' }] });
      assert.equal((await t.request('PUT', `/v1/admin/repos/${REPO}`)).status, 201);
      assert.equal((await t.request('PUT', `/v1/products/${REPO}`, { body: { products: ['merge_queue'] } })).status, 204);
      const configured = await t.request('PUT', `/v1/repos/${REPO}/merge-queue/configuration`, { body: { queue_rules: [{ name: 'default', batch_size: 2, batch_max_wait_time: 0, required_checks: ['ci/test'] }] } });
      assert.ok(configured.status < 300, configured.text);
    });
    after(() => t?.close());

    test('pull requests the executor merges are counted, timed and listed', async () => {
      const pulls: bigint[] = [];
      for (const name of ['one', 'two']) {
        pulls.push((await t.hosting.openPullRequest({ repo: REPO, changes: { [`${name}.txt`]: `${name}\n` }, title: name })).number);
      }
      await t.hosting.webhooks.settled();
      for (const number of pulls) assert.equal((await t.request('PUT', `/v1/repos/${REPO}/merge-queue/pull/${number}`, { body: {} })).status, 202);
      const get = async (path: string) => (await t.request('GET', `/v1/repos/${REPO}/stats/${path}`)).json;
      const sum = (body: Json, field: string) => body.groups.flatMap((g: Json) => g.stats).reduce((n: number, s: Json) => n + s[field], 0);
      // The queue records a merge once the platform merged: wait for the record.
      const deadline = Date.now() + 60_000;
      while (sum(await get('queues_merged_count'), 'merged') < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      assert.ok(pulls.every((number) => t.hosting.pullRequest(REPO, number).merged), 'both merged on the platform');
      assert.equal(sum(await get('queues_merged_count'), 'merged'), 2);
      assert.equal(sum(await get('queues_entered_count'), 'entered'), 2);
      assert.deepEqual([sum(await get('failure_rate'), 'total'), sum(await get('failure_rate'), 'failures')], [2, 0]);
      assert.ok(sum(await get('average_ci_runtime'), 'count_runtime') >= 1, 'a batch attempt concluded');
      assert.ok(sum(await get('batch_size'), 'sum_batch_size') >= 2, 'both pull requests were checked');
      const [partition] = await get('time_to_merge');
      assert.equal(partition.queues.length, 1);
      assert.equal(partition.queues[0].queue_name, 'default');
      assert.ok(partition.queues[0].time_to_merge.median > 0, 'merging took some time');
      assert.deepEqual(await get('branches'), { base_refs: ['main'] });
    });
  });
}
