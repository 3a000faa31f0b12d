// The derived outcome of DESIGN.md §7, for every one of the 46 types and every refining branch.
// Expectations are written out here from the design, not read back from the catalogue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveOutcome, EVENT_TYPES, eventCatalogue, validateIngestEvents, type EventType, type Outcome } from '../../src/domain/events/index.ts';
import { exampleEvent } from '../fixtures/event-fixtures.ts';

const FIXED: Partial<Record<EventType, Outcome>> = {
  'action.assign': 'success',
  'action.label': 'success',
  'action.close': 'success',
  'action.comment': 'success',
  'action.delete_head_branch': 'success',
  'action.dismiss_reviews': 'success',
  'action.edit': 'success',
  'action.hosting_actions': 'success',
  'action.merge': 'success',
  'action.request_reviews': 'success',
  'action.review': 'success',
  'action.dequeue': 'success',
  'action.rebase': 'success',
  'action.refresh': 'success',
  'action.squash': 'success',
  'action.update': 'success',
  'action.queue.merged': 'success',
  'action.queue.enter': 'pending',
  'action.queue.checks_start': 'pending',
  'action.queue.batch_bisection_start': 'pending',
  'action.queue.checks_not_started': 'failure',
  'action.queue.conflict_deferred': 'failure',
  'action.queue.change': 'neutral',
  'action.queue.checks.change': 'neutral',
  'command.queue': 'neutral',
  'command.dequeue': 'neutral',
  'product.enabled': 'neutral',
  'product.disabled': 'neutral',
  'ci_insights.auto_quarantine.enabled': 'neutral',
  'ci_insights.auto_quarantine.disabled': 'neutral',
  'ci_insights.auto_quarantine.modified': 'neutral',
  'queue.pause.create': 'neutral',
  'queue.pause.update': 'neutral',
  'queue.pause.delete': 'neutral',
  'scheduled_freeze.create': 'neutral',
  'scheduled_freeze.update': 'neutral',
  'scheduled_freeze.delete': 'neutral',
  'test.quarantined': 'neutral',
  'test.dequarantined': 'neutral',
};

const REFINED: EventType[] = [
  'action.backport',
  'action.copy',
  'action.post_check',
  'action.queue.leave',
  'action.queue.checks_end',
  'action.queue.batch_bisection_end',
  'ci_insights.job_retried',
];

function outcomeWith(type: EventType, changes: Record<string, unknown>): Outcome {
  return deriveOutcome(type, { ...exampleEvent(type).metadata, ...changes });
}

test('every type is either fixed or refined, and nothing else', () => {
  assert.deepEqual([...Object.keys(FIXED), ...REFINED].sort(), [...EVENT_TYPES].sort());
  for (const type of REFINED) assert.equal(eventCatalogue[type].outcome.kind, 'refined', type);
});

test('fixed outcomes hold whatever the metadata says', () => {
  for (const [type, expected] of Object.entries(FIXED) as [EventType, Outcome][]) {
    assert.equal(deriveOutcome(type, exampleEvent(type).metadata), expected, type);
  }
});

test('backport and copy fail on conflicts and succeed otherwise', () => {
  for (const type of ['action.backport', 'action.copy'] as const) {
    assert.equal(outcomeWith(type, { conflicts: true }), 'failure');
    assert.equal(outcomeWith(type, { conflicts: false }), 'success');
  }
});

test('post_check follows its conclusion, null being neutral', () => {
  const expected: [string | null, Outcome][] = [
    ['success', 'success'],
    ['failure', 'failure'],
    ['timed_out', 'failure'],
    ['startup_failure', 'failure'],
    ['action_required', 'failure'],
    ['cancelled', 'failure'],
    ['neutral', 'neutral'],
    ['skipped', 'neutral'],
    ['stale', 'neutral'],
    [null, 'neutral'],
  ];
  for (const [conclusion, outcome] of expected) assert.equal(outcomeWith('action.post_check', { conclusion }), outcome, String(conclusion));
});

test('leave succeeds only when merged', () => {
  assert.equal(outcomeWith('action.queue.leave', { merged: true }), 'success');
  assert.equal(outcomeWith('action.queue.leave', { merged: false }), 'failure');
});

test('checks_end is neutral when aborted, else follows the checks conclusion', () => {
  const expected: [string, Outcome][] = [
    ['success', 'success'],
    ['pending', 'pending'],
    ['failure', 'failure'],
    ['error', 'failure'],
    ['timed_out', 'failure'],
    ['cancelled', 'failure'],
    ['action_required', 'failure'],
    ['neutral', 'neutral'],
    ['skipped', 'neutral'],
    ['stale', 'neutral'],
  ];
  const base = exampleEvent('action.queue.checks_end').metadata;
  const speculative = base.speculative_check_pull_request as Record<string, unknown>;
  for (const [conclusion, outcome] of expected) {
    const metadata = { ...base, aborted: false, speculative_check_pull_request: { ...speculative, checks_conclusion: conclusion } };
    assert.equal(deriveOutcome('action.queue.checks_end', metadata), outcome, conclusion);
    assert.equal(deriveOutcome('action.queue.checks_end', { ...metadata, aborted: true }), 'neutral', `aborted ${conclusion}`);
  }
});

test('bisection_end fails when a culprit was found, else is neutral', () => {
  assert.equal(outcomeWith('action.queue.batch_bisection_end', { culprit_found: true }), 'failure');
  assert.equal(outcomeWith('action.queue.batch_bisection_end', { culprit_found: false }), 'neutral');
});

test('job_retried succeeds when retried and fails when the quota stopped it', () => {
  assert.equal(outcomeWith('ci_insights.job_retried', { outcome: 'retried' }), 'success');
  assert.equal(outcomeWith('ci_insights.job_retried', { outcome: 'skipped_quota_exceeded' }), 'failure');
});

test('ingestion stores the derived outcome', () => {
  const event = exampleEvent('action.queue.leave');
  event.metadata.merged = false;
  const result = validateIngestEvents([event], new Date());
  assert.ok(result.ok);
  assert.equal(result.events[0]!.outcome, 'failure');
});
