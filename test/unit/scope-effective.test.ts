// The effective-scopes rule of DESIGN.md §5 on its own: latest arrival wins, and a commit report
// that arrived before the head moved onto its commit counts from the move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveScopes, type StoredScopeReport } from '../../src/domain/scopes/effective-scopes.ts';

const at = new Date('2026-01-01T00:00:00Z');
const report = (seq: number, scopes: string[], allScopes = false): StoredScopeReport => ({ scopes, allScopes, seq: BigInt(seq), reportedAt: at });

test('nothing reported: no scopes, no barrier, no source', () => {
  assert.deepEqual(effectiveScopes({ byNumber: undefined, headCommit: undefined, headSeq: 1n }), { scopes: [], allScopes: false, source: null, reportedAt: null });
});

test('only one kind of report: that one, whenever it arrived', () => {
  assert.equal(effectiveScopes({ byNumber: report(5, ['a']), headCommit: undefined, headSeq: 9n }).source, 'pull_request');
  assert.equal(effectiveScopes({ byNumber: undefined, headCommit: report(5, ['a']), headSeq: 2n }).source, 'commit');
});

test('both kinds after the head move: the later report wins', () => {
  assert.deepEqual(effectiveScopes({ byNumber: report(5, ['by-number']), headCommit: report(6, ['by-commit'], true), headSeq: 1n }), {
    scopes: ['by-commit'],
    allScopes: true,
    source: 'commit',
    reportedAt: at,
  });
  assert.equal(effectiveScopes({ byNumber: report(7, ['by-number']), headCommit: report(6, ['by-commit']), headSeq: 1n }).source, 'pull_request');
});

test('a commit report sent before the head moved onto it counts from the move', () => {
  // commit report (2), report by number for the old head (3), head moves onto the commit (4)
  assert.equal(effectiveScopes({ byNumber: report(3, ['old-head']), headCommit: report(2, ['new-head']), headSeq: 4n }).source, 'commit');
  // ... but a report by number after the move (5) still wins
  assert.equal(effectiveScopes({ byNumber: report(5, ['after-move']), headCommit: report(2, ['new-head']), headSeq: 4n }).source, 'pull_request');
});

test('an unknown head (null) leaves the commit report its own arrival', () => {
  assert.equal(effectiveScopes({ byNumber: report(3, ['n']), headCommit: report(2, ['c']), headSeq: null }).source, 'pull_request');
});
