// The public API's spellings are read as the spec's (src/domain/events/public-spellings.ts); an
// event without them is left as it is, so its metadata keeps its source text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalEventType, withSpecSpellings } from '../../src/domain/events/index.ts';

test('the public event type is read as the spec one; others are left alone', () => {
  assert.equal(canonicalEventType('action.github_actions'), 'action.hosting_actions');
  assert.equal(canonicalEventType('action.label'), 'action.label');
  assert.equal(canonicalEventType('toString'), 'toString', 'only own keys are aliases');
});

test('an event without a public spelling is the same object', () => {
  const event = { type: 'action.queue.checks_end', metadata: { abort_code: 'CHECKS_FAILED' } };
  assert.equal(withSpecSpellings(event), event);
  assert.equal(withSpecSpellings('not an event'), 'not an event');
});

test('an alias in the type or in an abort or dequeue code gives a copy with the spec names', () => {
  const metadata = { abort_code: 'GITHUB_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED', reason: 'x' };
  const event = { type: 'action.queue.checks_end', metadata };
  const fixed = withSpecSpellings(event) as typeof event;
  assert.deepEqual(fixed.metadata, { abort_code: 'HOSTING_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED', reason: 'x' });
  assert.equal(metadata.abort_code, 'GITHUB_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED', 'the input is not changed');
  const leave = withSpecSpellings({ type: 'action.github_actions', metadata: { dequeue_code: 'GITHUB_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED' } }) as typeof event;
  assert.deepEqual(leave, { type: 'action.hosting_actions', metadata: { dequeue_code: 'HOSTING_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED' } });
});
