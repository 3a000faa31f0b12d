// The rules engine's snapshot cache: what a platform read found is not kept when a webhook said
// the part changed while the read was under way (kept, the stale part would be believed until its
// age limit, and the evaluation the webhook asked for would read it), nor is a pull request older
// than the one a webhook brought.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SnapshotCache } from '../../src/services/automation/snapshot-cache.ts';
import type { PullRequest } from '../../src/hosting/hosting-types.ts';

const pending = { sha: 'a', checks: [{ name: 'ci', state: 'pending' as const }] };
const passed = { sha: 'a', checks: [{ name: 'ci', state: 'success' as const }] };

test('a read begun before a webhook forgot the part is not kept; one begun after is', () => {
  const cache = new SnapshotCache();
  const parts = cache.parts('r', 1n);
  const before = cache.version(parts);
  cache.forget('r', 1n, 'runs'); // the check_run webhook, while the read runs
  cache.set(parts, 'runs', pending, before);
  assert.equal(cache.fresh(parts, 'runs'), undefined, 'the stale read is not believed');
  const after = cache.version(parts);
  cache.set(parts, 'runs', passed, after);
  assert.deepEqual(cache.fresh(parts, 'runs'), passed);
});

test('a pull request read from the platform does not replace a newer one a webhook brought', () => {
  const cache = new SnapshotCache();
  const pull = (updatedAt: string, labels: string[]) => ({ number: 1n, updatedAt, labels }) as unknown as PullRequest;
  cache.keepPull(cache.parts('r', 1n), pull('2024-05-03T12:00:05Z', ['ready']));
  cache.keepPull(cache.parts('r', 1n), pull('2024-05-03T12:00:01Z', []));
  assert.deepEqual((cache.fresh(cache.parts('r', 1n), 'pull') as unknown as { labels: string[] }).labels, ['ready']);
  cache.keepPull(cache.parts('r', 1n), pull('2024-05-03T12:00:09Z', ['ready', 'skip-ci']));
  assert.deepEqual((cache.fresh(cache.parts('r', 1n), 'pull') as unknown as { labels: string[] }).labels, ['ready', 'skip-ci']);
});
