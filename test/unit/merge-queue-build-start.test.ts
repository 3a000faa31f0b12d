// Where a batch's commit starts (batch-closure.ts buildStart): from its parent's commit, merging
// only its own pull requests, whenever that commit holds exactly what is ahead of it; from the
// base, head by head, whenever it might not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Batch, BatchPhase } from '../../src/domain/merge-queue/model.ts';
import { newBatchRun, type BatchRun } from '../../src/services/merge-queue/batch-run.ts';
import { buildStart } from '../../src/services/merge-queue/executor/batch-closure.ts';
import { entryId, queueConfig, queueEntry, queueState } from '../support/merge-queue-state.ts';

function batch(id: string, entries: number[], parentIds: string[], phase: BatchPhase): Batch {
  return { id, name: id, queueRule: 'default', entryIds: entries.map(entryId), parentIds, scopes: [], allScopes: false, phase, startedAt: 1, checksStartedAt: null, checksEndedAt: null, retries: 0, bisection: null, culpritEntryIds: [] };
}

function built(sha: string, entries: number[]): BatchRun {
  return { ...newBatchRun(0, `switchyard/merge-queue/main/${sha}`, `switchyard-tmp/merge-queue/main/${sha}`), baseSha: 'base', headSha: sha, merged: entries.map(entryId), published: true, scratch: null, checkPull: { number: '99', inPlace: false } };
}

const entries = (count: number) => Array.from({ length: count }, (_, i) => queueEntry(i + 1));

test('serial: a batch starts from its parent commit, which holds every pull request ahead, and merges nothing else of theirs', () => {
  const state = queueState(queueConfig(), entries(6), [batch('a', [1, 2], [], 'running'), batch('b', [3, 4], ['a'], 'running'), batch('c', [5, 6], ['b'], 'preparing')]);
  const runs: Record<string, BatchRun> = { a: built('sha-a', [1, 2]), b: built('sha-b', [1, 2, 3, 4]) };
  assert.deepEqual(buildStart(state, (id) => runs[id] ?? null, 'c'), { from: { sha: 'sha-b', entryIds: [1, 2, 3, 4].map(entryId) }, merges: [] });
});

test('a parent commit built on pull requests merged since names only those still queued', () => {
  const state = queueState(queueConfig(), entries(6).slice(2), [batch('b', [3, 4], ['a'], 'passed'), batch('c', [5, 6], ['b'], 'preparing')]);
  const runs: Record<string, BatchRun> = { b: built('sha-b', [1, 2, 3, 4]) };
  assert.deepEqual(buildStart(state, (id) => runs[id] ?? null, 'c'), { from: { sha: 'sha-b', entryIds: [3, 4].map(entryId) }, merges: [] });
});

test('parallel: from the parent commit holding most, plus a merge of each other parent commit that holds more', () => {
  const state = queueState(queueConfig({ mode: 'parallel' }), entries(5), [
    batch('a', [1], [], 'running'),
    batch('b', [2], [], 'running'),
    batch('c', [3], ['a'], 'passed'),
    batch('d', [4, 5], ['a', 'b', 'c'], 'preparing'),
  ]);
  const runs: Record<string, BatchRun> = { a: built('sha-a', [1]), b: built('sha-b', [2]), c: built('sha-c', [1, 3]) };
  // a's commit holds nothing c's does not: only b's is merged in.
  assert.deepEqual(buildStart(state, (id) => runs[id] ?? null, 'd'), { from: { sha: 'sha-c', entryIds: [1, 3].map(entryId) }, merges: [{ sha: 'sha-b', entryIds: [entryId(2)] }] });
});

test('without unmerged parents, from the base', () => {
  const state = queueState(queueConfig(), entries(2), [batch('c', [1, 2], ['merged-one'], 'preparing')]);
  assert.deepEqual(buildStart(state, () => null, 'c'), { from: null, merges: [] });
});

test('a parent still being built is waited for; one not built on a branch is not used', () => {
  const preparing = queueState(queueConfig(), entries(2), [batch('a', [1], [], 'preparing'), batch('b', [2], ['a'], 'preparing')]);
  const started = { ...newBatchRun(0, 'x', 'y') };
  assert.equal(buildStart(preparing, (id) => (id === 'a' ? started : null), 'b'), 'wait');
  const pending = queueState(queueConfig(), entries(2), [batch('a', [1], [], 'pending'), batch('b', [2], ['a'], 'preparing')]);
  assert.deepEqual(buildStart(pending, () => built('sha-a', [1]), 'b'), { from: null, merges: [] });
  const inPlace = queueState(queueConfig(), entries(2), [batch('a', [1], [], 'running'), batch('b', [2], ['a'], 'preparing')]);
  assert.deepEqual(buildStart(inPlace, (id) => (id === 'a' ? { ...built('sha-a', [1]), inPlace: true } : null), 'b'), { from: null, merges: [] });
});

test('a parent commit of an earlier attempt, or holding a queued pull request not ahead of the batch, is not used', () => {
  const state = queueState(queueConfig(), entries(3), [{ ...batch('a', [1], [], 'running'), retries: 1 }, batch('b', [2], ['a'], 'preparing')]);
  assert.deepEqual(buildStart(state, (id) => (id === 'a' ? built('sha-a', [1]) : null), 'b'), { from: null, merges: [] });
  const other = queueState(queueConfig(), entries(3), [batch('a', [1], [], 'running'), batch('b', [2], ['a'], 'preparing')]);
  assert.deepEqual(buildStart(other, (id) => (id === 'a' ? built('sha-a', [1, 3]) : null), 'b'), { from: null, merges: [] });
});
