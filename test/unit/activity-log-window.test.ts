// The time window (DESIGN.md §8): defaults, [from, to) order, the 93-day limit, and bounds that
// must carry a timezone, with a message that names the unencoded "+" when that is the slip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/errors.ts';
import { parseZonedDateTime, resolveWindow } from '../../src/domain/activity-log/index.ts';

const DAY = 86_400_000;
const now = new Date(Date.UTC(2024, 4, 1, 12, 0, 0));

function issueType(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    assert.deepEqual(error.issues[0]!.loc, ['query', 'received_from']);
    return error.issues[0]!.type;
  }
  assert.fail('accepted');
}

test('received_to defaults to now and received_from to one day before received_to', () => {
  assert.deepEqual(resolveWindow({}, now), { from: new Date(now.getTime() - DAY), to: now });
  const to = new Date(Date.UTC(2024, 0, 10));
  assert.deepEqual(resolveWindow({ to }, now), { from: new Date(to.getTime() - DAY), to });
  const from = new Date(now.getTime() - 5 * DAY);
  assert.deepEqual(resolveWindow({ from }, now), { from, to: now });
});

test('from must be before to', () => {
  assert.equal(issueType(() => resolveWindow({ from: now, to: now }, now)), 'window_order');
  assert.equal(issueType(() => resolveWindow({ from: new Date(now.getTime() + 1) }, now)), 'window_order');
  assert.deepEqual(resolveWindow({ from: new Date(now.getTime() - 1), to: now }, now).from, new Date(now.getTime() - 1));
});

test('the window spans at most 93 days', () => {
  assert.ok(resolveWindow({ from: new Date(now.getTime() - 93 * DAY) }, now));
  assert.equal(issueType(() => resolveWindow({ from: new Date(now.getTime() - 93 * DAY - 1) }, now)), 'window_too_long');
});

test('a bound is an RFC 3339 date-time with a timezone, read to the millisecond', () => {
  const cases: [string, string][] = [
    ['2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01t12:00:00.1234567z', '2024-05-01T12:00:00.123Z'],
    ['2024-05-01T14:00:00+02:00', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01 09:30:00-0230', '2024-05-01T12:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
  ];
  for (const [text, expected] of cases) {
    const parsed = parseZonedDateTime(text);
    assert.ok(parsed.ok, text);
    assert.equal(parsed.date.toISOString(), expected, text);
  }
});

test('what is wrong with a bound is said precisely', () => {
  const msg = (text: string) => {
    const parsed = parseZonedDateTime(text);
    assert.ok(!parsed.ok, text);
    return parsed.msg;
  };
  assert.match(msg('2024-05-01T12:00:00 02:00'), /"\+".*space.*%2B/);
  assert.match(msg('2024-05-01T12:00:00'), /must carry a timezone, Z or an offset/);
  assert.match(msg('2024-05-01T12:00'), /must carry a timezone/);
  // The last: a leap second only at 23:59:60 UTC, as the date-time format of bodies says.
  for (const bad of ['2023-02-29T00:00:00Z', '2024-13-01T00:00:00Z', '2024-05-01T24:00:00Z', '2024-05-01T12:60:00Z', '2024-05-01T12:00:00+24:00', 'now', '', '1714564800', '2024-05-01T12:00:60Z']) {
    assert.match(msg(bad), /date-time with a timezone/, bad);
  }
});
