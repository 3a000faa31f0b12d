// The filter query (src/domain/activity-log): pairs one side at a time, values normalised, the
// fingerprint that binds cursors, the links that repeat the filters, and cutting keyset pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/errors.ts';
import { filterFingerprint, filterParams, linkHeader, parseFilterQuery, slicePage, type ActivityLogFilterParams, type KeysetPosition } from '../../src/domain/activity-log/index.ts';

test('each pair is one side at a time; both sides of several pairs are all reported', () => {
  try {
    parseFilterQuery({ pull_request: [1n], not_pull_request: [2n], trigger: ['a'], not_trigger: ['b'], received_from: 'noon' });
    assert.fail('accepted');
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    assert.deepEqual(error.issues.map((i) => [i.loc.join('.'), i.type]), [['query.pull_request', 'mutually_exclusive'], ['query.trigger', 'mutually_exclusive'], ['query.received_from', 'format']]);
    assert.match(error.issues[0]!.msg, /not_pull_request/);
  }
});

test('values are deduplicated and sorted; exclusions are marked', () => {
  const { filters, bounds } = parseFilterQuery({ pull_request: [30n, 4n, 30n], not_trigger: ['b', 'a', 'b'], base_ref: 'main', received_to: '2024-05-01T12:00:00Z' });
  assert.deepEqual(filters.pullRequest, { exclude: false, values: [4n, 30n] });
  assert.deepEqual(filters.trigger, { exclude: true, values: ['a', 'b'] });
  assert.equal(filters.baseRef, 'main');
  assert.equal(filters.eventType, undefined);
  assert.deepEqual(bounds, { from: undefined, to: new Date('2024-05-01T12:00:00Z') });
});

test('the fingerprint ignores spelling and order, and changes with anything that changes the result', () => {
  const print = (params: ActivityLogFilterParams, repository = '1') => filterFingerprint(repository, parseFilterQuery(params)).toString('hex');
  const base = print({ event_type: ['action.label', 'action.close'], received_from: '2024-05-01T12:00:00Z' });
  assert.equal(print({ event_type: ['action.close', 'action.label', 'action.close'], received_from: '2024-05-01T14:00:00+02:00' }), base);
  const others: ActivityLogFilterParams[] = [
    { not_event_type: ['action.label', 'action.close'], received_from: '2024-05-01T12:00:00Z' },
    { event_type: ['action.label'], received_from: '2024-05-01T12:00:00Z' },
    { event_type: ['action.label', 'action.close'], received_from: '2024-05-01T12:00:00.001Z' },
    { event_type: ['action.label', 'action.close'], received_to: '2024-05-01T12:00:00Z' },
    { event_type: ['action.label', 'action.close'], received_from: '2024-05-01T12:00:00Z', base_ref: 'main' },
    { event_type: ['action.label', 'action.close'], received_from: '2024-05-01T12:00:00Z', pull_request: [1n] },
    { event_type: ['action.label', 'action.close'], received_from: '2024-05-01T12:00:00Z', batch_pull: [1n] },
  ];
  for (const params of others) assert.notEqual(print(params), base, JSON.stringify(params, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
  assert.notEqual(print({ event_type: ['action.label', 'action.close'], received_from: '2024-05-01T12:00:00Z' }, '2'), base, 'another repository');
});

test('links repeat every filter, per_page and the cursor, and are absent when no page exists', () => {
  const query = parseFilterQuery({ outcome: ['success', 'failure'], not_pull_request: [7n], base_ref: 'release/1 +x', received_from: '2024-05-01T14:00:00+02:00' });
  const params = filterParams(query);
  assert.deepEqual(params, [['not_pull_request', '7'], ['outcome', 'failure'], ['outcome', 'success'], ['base_ref', 'release/1 +x'], ['received_from', '2024-05-01T12:00:00.000Z']]);
  const header = linkHeader('https://h/v1/repos/o/r/logs', params, 20, { next: 'N', prev: 'P' });
  assert.equal(
    header,
    '<https://h/v1/repos/o/r/logs?not_pull_request=7&outcome=failure&outcome=success&base_ref=release%2F1+%2Bx&received_from=2024-05-01T12%3A00%3A00.000Z&per_page=20&cursor=N>; rel="next", ' +
      '<https://h/v1/repos/o/r/logs?not_pull_request=7&outcome=failure&outcome=success&base_ref=release%2F1+%2Bx&received_from=2024-05-01T12%3A00%3A00.000Z&per_page=20&cursor=P>; rel="prev"',
  );
  assert.equal(linkHeader('https://h/x', params, 20, { prev: 'P' })?.endsWith('rel="prev"'), true);
  assert.equal(linkHeader('https://h/x', params, 20, {}), undefined);
});

test('a page is cut from per_page + 1 rows; its neighbours start at its edges', () => {
  const rows = [50, 40, 30, 20].map((id) => ({ receivedAt: id, id: BigInt(id) }));
  const at = (row: KeysetPosition) => row;
  assert.deepEqual(slicePage(rows, 3, undefined, at), { rows: rows.slice(0, 3), next: rows[2], prev: undefined });
  assert.deepEqual(slicePage(rows.slice(0, 3), 3, undefined, at), { rows: rows.slice(0, 3), next: undefined, prev: undefined });
  const seekNext = { direction: 'next' as const, position: { receivedAt: 60, id: 60n } };
  assert.deepEqual(slicePage(rows, 3, seekNext, at), { rows: rows.slice(0, 3), next: rows[2], prev: rows[0] });
  assert.deepEqual(slicePage(rows.slice(0, 2), 3, seekNext, at), { rows: rows.slice(0, 2), next: undefined, prev: rows[0] });
  // A prev seek fetches oldest first and gives the page back newest first.
  const ascending = [...rows].reverse();
  const seekPrev = { direction: 'prev' as const, position: { receivedAt: 10, id: 10n } };
  assert.deepEqual(slicePage(ascending, 3, seekPrev, at), { rows: [rows[1], rows[2], rows[3]], next: rows[3], prev: rows[1] });
  assert.deepEqual(slicePage(ascending.slice(0, 3), 3, seekPrev, at), { rows: [rows[1], rows[2], rows[3]], next: rows[3], prev: undefined });
  assert.deepEqual(slicePage([], 3, seekNext, at), { rows: [] });
});
