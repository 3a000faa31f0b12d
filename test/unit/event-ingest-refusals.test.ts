// What ingestion refuses, and where it says the problem is (DESIGN.md §2 and §7): one 422 item
// per problem, located under ['body', 'events', index, ...], every invalid event reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateIngestEvents, type IngestEventInput } from '../../src/domain/events/index.ts';
import type { ValidationIssue } from '../../src/validation/validators.ts';
import { exampleEvent } from '../fixtures/event-fixtures.ts';

const NOW = new Date('2024-10-01T12:00:00.000Z');

function issuesOf(events: unknown[]): ValidationIssue[] {
  const result = validateIngestEvents(events, NOW);
  assert.equal(result.ok, false, 'expected the batch to be refused');
  return result.ok ? [] : result.issues;
}

/** [loc, type] pairs, the part of an issue a client acts on. */
function located(events: unknown[]): [(string | number)[], string][] {
  return issuesOf(events).map((issue) => [issue.loc, issue.type]);
}

function withMetadata(type: IngestEventInput['type'], changes: Record<string, unknown>): IngestEventInput {
  const event = exampleEvent(type);
  return { ...event, metadata: { ...event.metadata, ...changes } };
}

const at = (...path: (string | number)[]) => ['body', 'events', 0, ...path];

test('a missing required field is reported where it is missing', () => {
  const event = exampleEvent('action.close');
  delete event.metadata.message;
  assert.deepEqual(issuesOf([event]), [{ loc: at('metadata', 'message'), msg: 'Field required', type: 'missing' }]);
  const { trigger: _trigger, ...untriggered } = exampleEvent('action.rebase');
  assert.deepEqual(located([untriggered]), [[at('trigger'), 'missing']]);
});

test('a value of the wrong type is a type error', () => {
  assert.deepEqual(located([withMetadata('action.edit', { draft: 'yes' })]), [[at('metadata', 'draft'), 'type_error']]);
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), trigger: 42 }]), [[at('trigger'), 'type_error']]);
});

test('a nullable field of the wrong type gets one precise item, not the null branch', () => {
  assert.deepEqual(located([withMetadata('action.review', { reviewer: 7 })]), [[at('metadata', 'reviewer'), 'type_error']]);
  assert.deepEqual(located([withMetadata('action.queue.checks_end', { abort_code: 'NOPE' })]), [[at('metadata', 'abort_code'), 'enum']]);
});

test('a value outside an enum lists the allowed values', () => {
  const [issue] = issuesOf([withMetadata('action.review', { review_type: 'LGTM' })]);
  assert.deepEqual(issue?.loc, at('metadata', 'review_type'));
  assert.equal(issue?.type, 'enum');
  assert.match(issue?.msg ?? '', /"APPROVE", "REQUEST_CHANGES", "COMMENT"/);
  const event = exampleEvent('action.queue.checks_start');
  (event.metadata.speculative_check_pull_request as Record<string, unknown>).checks_conclusion = 'green';
  assert.deepEqual(located([event]), [[at('metadata', 'speculative_check_pull_request', 'checks_conclusion'), 'enum']]);
});

test('a date-time must be RFC 3339 with a timezone', () => {
  for (const queuedAt of ['yesterday', '2024-10-01T10:00:00', '2024-13-01T10:00:00Z']) {
    assert.deepEqual(located([withMetadata('action.queue.enter', { queued_at: queuedAt })]), [[at('metadata', 'queued_at'), 'format']], queuedAt);
  }
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), received_at: '2024-10-01 11:00:00' }]), [[at('received_at'), 'format']]);
});

test('a uuid must be a uuid', () => {
  assert.deepEqual(located([withMetadata('action.queue.enter', { session_id: 'session-1' })]), [[at('metadata', 'session_id'), 'format']]);
});

test('an unknown type is refused by name, without a list of 46 values or metadata noise', () => {
  const issues = issuesOf([{ type: 'action.teleport', metadata: { anything: 1 }, trigger: 'Rule: x' }]);
  assert.deepEqual(issues.map((issue) => [issue.loc, issue.type]), [[at('type'), 'enum']]);
  assert.match(issues[0]!.msg, /Unknown event type "action\.teleport"/);
  assert.deepEqual(located([{ type: 3, metadata: {}, trigger: 'x' }]), [[at('type'), 'enum']]);
});

test('unknown top-level fields are refused, the outcome above all: it is derived, never accepted', () => {
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), outcome: 'success' }]), [[at('outcome'), 'extra_forbidden']]);
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), repository: 'o/r' }]), [[at('repository'), 'extra_forbidden']]);
});

test('unknown metadata fields are refused, at any depth, a misspelt optional one included', () => {
  assert.deepEqual(located([withMetadata('action.rebase', { force: true })]), [[at('metadata', 'force'), 'extra_forbidden']]);
  assert.deepEqual(located([withMetadata('action.queue.checks_start', { all_scope: true })]), [[at('metadata', 'all_scope'), 'extra_forbidden']]);
  const event = exampleEvent('action.queue.checks_end');
  (event.metadata.speculative_check_pull_request as Record<string, unknown>).pull_request_numbers = [1];
  assert.deepEqual(located([event]), [[at('metadata', 'speculative_check_pull_request', 'pull_request_numbers'), 'extra_forbidden']]);
});

test('received_at may be at most 5 minutes ahead of now', () => {
  const fiveMinutes = new Date(NOW.getTime() + 5 * 60_000).toISOString();
  assert.equal(validateIngestEvents([{ ...exampleEvent('action.rebase'), received_at: fiveMinutes }], NOW).ok, true);
  const tooLate = new Date(NOW.getTime() + 5 * 60_000 + 1).toISOString();
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), received_at: tooLate }]), [[at('received_at'), 'received_at_in_future']]);
  const offsetTooLate = '2024-10-01T14:06:00+02:00';
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), received_at: offsetTooLate }]), [[at('received_at'), 'received_at_in_future']]);
});

test('64-bit numbers are refused outside 0..2^63-1, exactly', () => {
  const tooBig = 9223372036854775808n;
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), pull_request: tooBig }]), [[at('pull_request'), 'int_parsing']]);
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), pull_request: -1 }]), [[at('pull_request'), 'int_parsing']]);
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), pull_request: 1.5 }]), [[at('pull_request'), 'int_parsing']]);
  assert.deepEqual(located([withMetadata('action.copy', { pull_request_number: tooBig })]), [[at('metadata', 'pull_request_number'), 'int_parsing']]);
  assert.deepEqual(
    located([withMetadata('action.queue.checks_start', { pull_request_numbers: [1, tooBig] })]),
    [[at('metadata', 'pull_request_numbers', 1), 'int_parsing']],
  );
  assert.equal(validateIngestEvents([{ ...exampleEvent('action.rebase'), pull_request: tooBig - 1n }], NOW).ok, true);
});

test('envelope strings are bounded', () => {
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), trigger: '' }]), [[at('trigger'), 'string_too_short']]);
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), base_ref: 'x'.repeat(256) }]), [[at('base_ref'), 'string_too_long']]);
  assert.deepEqual(located([{ ...exampleEvent('action.rebase'), idempotency_key: '' }]), [[at('idempotency_key'), 'string_too_short']]);
});

test('every invalid event of a batch is reported by its index, valid ones not at all', () => {
  const events: unknown[] = [
    exampleEvent('action.label'),
    withMetadata('action.edit', { draft: 'no' }),
    exampleEvent('test.quarantined'),
    { type: 'nope', metadata: {}, trigger: 't' },
    'not an event',
    { ...withMetadata('action.close', { message: 1 }), trigger: '' },
  ];
  const indexes = issuesOf(events).map((issue) => issue.loc[2]);
  assert.deepEqual(indexes, [1, 3, 4, 5, 5]);
  assert.deepEqual(
    located(events).filter(([loc]) => loc[2] === 5),
    [
      [['body', 'events', 5, 'trigger'], 'string_too_short'],
      [['body', 'events', 5, 'metadata', 'message'], 'type_error'],
    ],
  );
});

test('a batch holds 1 to 1000 events', () => {
  assert.deepEqual(located([]), [[['body', 'events'], 'too_short']]);
  const tooMany = Array.from({ length: 1001 }, () => exampleEvent('action.rebase'));
  assert.deepEqual(located(tooMany), [[['body', 'events'], 'too_long']]);
  assert.equal(validateIngestEvents(tooMany.slice(0, 1000), NOW).ok, true);
});
