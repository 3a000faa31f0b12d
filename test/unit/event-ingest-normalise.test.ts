// What a valid batch becomes: the values the store writes, defaults applied and keys derived.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateIngestEvents, type IngestEventInput, type ValidIngestEvent } from '../../src/domain/events/index.ts';
import { exampleEvent } from '../fixtures/event-fixtures.ts';

const NOW = new Date('2024-10-01T12:00:00.000Z');

function accept(...events: IngestEventInput[]): ValidIngestEvent[] {
  const result = validateIngestEvents(events, NOW);
  assert.deepEqual(result.ok ? [] : result.issues, []);
  return result.ok ? result.events : [];
}

test('defaults: received now, no pull request, no base ref, no idempotency key', () => {
  const [event] = accept({ type: 'queue.pause.delete', metadata: exampleEvent('queue.pause.delete').metadata, trigger: 'api' });
  assert.equal(event?.receivedAt.toISOString(), NOW.toISOString());
  assert.equal(event?.pullRequest, null);
  assert.equal(event?.baseRef, null);
  assert.equal(event?.idempotencyKey, null);
  assert.equal(event?.trigger, 'api');
});

test('values given are kept, numbers as exact bigints', () => {
  const input = { ...exampleEvent('action.copy'), pull_request: 9223372036854775807n, base_ref: 'main', idempotency_key: 'k-1' };
  input.metadata.pull_request_number = 12;
  const [event] = accept(input);
  assert.equal(event?.pullRequest, 9223372036854775807n);
  assert.equal(event?.metadata.pull_request_number, 12n);
  assert.equal(event?.baseRef, 'main');
  assert.equal(event?.idempotencyKey, 'k-1');
});

test('received_at keeps its instant, truncated to milliseconds, whatever its offset', () => {
  const cases: [string, string][] = [
    ['2024-10-01T10:00:00.123999Z', '2024-10-01T10:00:00.123Z'],
    ['2024-10-01T13:30:00+02:00', '2024-10-01T11:30:00.000Z'],
    ['2024-10-01T06:00:00.5-05:00', '2024-10-01T11:00:00.500Z'],
    ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
  ];
  for (const [given, stored] of cases) {
    const [event] = accept({ ...exampleEvent('action.rebase'), received_at: given });
    assert.equal(event?.receivedAt.toISOString(), stored, given);
  }
});

test('checks_start and checks_end carry their batch pull request; other events none', () => {
  const start = exampleEvent('action.queue.checks_start');
  const speculative = start.metadata.speculative_check_pull_request as Record<string, unknown>;
  speculative.number = 4242;
  const end = exampleEvent('action.queue.checks_end');
  (end.metadata.speculative_check_pull_request as Record<string, unknown>).number = 9007199254740993n;
  const [started, ended, left] = accept(start, end, exampleEvent('action.queue.leave'));
  assert.equal(started?.batchPullRequest, 4242n);
  assert.equal(ended?.batchPullRequest, 9007199254740993n);
  assert.equal(left?.batchPullRequest, null);
});

test('batch ids are taken where the type has one, in one canonical spelling', () => {
  const id = '0F8FAD5B-D9CB-469F-A165-70867728950E';
  const bisection = exampleEvent('action.queue.batch_bisection_start');
  bisection.metadata.batch_id = id;
  const leave = exampleEvent('action.queue.leave');
  leave.metadata.batch_id = `urn:uuid:${id.toLowerCase()}`;
  const noBatch = exampleEvent('action.queue.leave');
  noBatch.metadata.batch_id = null;
  const [a, b, c, d] = accept(bisection, leave, noBatch, exampleEvent('action.queue.enter'));
  assert.equal(a?.batchId, id.toLowerCase());
  assert.equal(b?.batchId, id.toLowerCase());
  assert.equal(c?.batchId, null);
  assert.equal(d?.batchId, null);
});

test('events come back in input order', () => {
  const types = ['action.label', 'command.queue', 'test.quarantined', 'action.queue.enter'] as const;
  assert.deepEqual(accept(...types.map((type) => exampleEvent(type))).map((event) => event.type), [...types]);
});
