// What the rules engine keeps between evaluations (snapshot-cache.ts): a part read from the
// platform while a webhook said it changed may predate the change, so it is not kept; the next
// evaluation reads it again instead of showing the old state in the Summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SnapshotCache } from '../../src/services/automation/snapshot-cache.ts';

const runs = (state: 'success' | 'failure') => ({ sha: 'a'.repeat(40), checks: [{ name: 'ci', state }] });

test('a part read across a webhook that changed it is not kept; one read after is', () => {
  const cache = new SnapshotCache(() => 0);
  const parts = cache.parts('r', 1n);
  const since = cache.version(parts);
  // The read of the check runs is under way when a check_run webhook arrives.
  cache.forget('r', 1n, 'runs');
  cache.set(parts, 'runs', runs('failure'), since);
  assert.equal(cache.fresh(parts, 'runs'), undefined);
  cache.set(parts, 'runs', runs('success'), cache.version(parts));
  assert.deepEqual(cache.fresh(parts, 'runs'), runs('success'));
});

test('a pull request read from the platform does not replace a newer one a webhook brought meanwhile', () => {
  const cache = new SnapshotCache(() => 0);
  const pull = (updatedAt: string, labels: string[]) => ({ number: 1n, updatedAt, labels }) as never;
  cache.pullFromWebhook('r', pull('2026-01-01T00:00:02Z', ['ready']));
  cache.keepPull(cache.parts('r', 1n), pull('2026-01-01T00:00:01Z', []));
  assert.deepEqual((cache.fresh(cache.parts('r', 1n), 'pull') as { labels: string[] }).labels, ['ready']);
});
