// Time conditions (DESIGN.md §14): timestamps at their precision, relative times that move with
// the clock, current-datetime, schedules in time zones across daylight-saving changes, and the
// next instant each can change (where the engine sets its durable timer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateCondition, parseCondition, parseConditions, type EvaluatedCondition, type PullRequestSnapshot } from '../../src/domain/rules/index.ts';
import { pullSnapshot } from '../support/pull-snapshot.ts';

function at(raw: unknown, now: string, overrides: Partial<PullRequestSnapshot> = {}): EvaluatedCondition {
  const parsed = Array.isArray(raw) ? parseConditions(raw, ['c']) : parseCondition(raw, ['c']);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
  return evaluateCondition(parsed.condition, pullSnapshot(overrides), new Date(now));
}

/** The match and the next change, as ISO text. */
function timeline(raw: unknown, now: string, overrides: Partial<PullRequestSnapshot> = {}): [string, string | null] {
  const tree = at(raw, now, overrides);
  return [tree.match, tree.nextChangeAt?.toISOString() ?? null];
}

const updated = { updatedAt: new Date('2024-05-02T10:00:00Z') };

test('relative times move with the clock and change when value + delay is passed', () => {
  assert.deepEqual(timeline('updated-at<7 days ago', '2024-05-03T12:00:00Z', updated), ['false', '2024-05-09T10:00:00.001Z']);
  assert.deepEqual(timeline('updated-at<7 days ago', '2024-05-09T10:00:00.000Z', updated), ['false', '2024-05-09T10:00:00.001Z']);
  assert.deepEqual(timeline('updated-at<7 days ago', '2024-05-09T10:00:00.001Z', updated), ['true', null]);
  assert.deepEqual(timeline('updated-at<=7 days ago', '2024-05-09T10:00:00.000Z', updated), ['true', null]);
  assert.deepEqual(timeline('updated-at<=7 days ago', '2024-05-03T12:00:00Z', updated), ['false', '2024-05-09T10:00:00.000Z']);
  assert.deepEqual(timeline('updated-at>=1 day 2 hours ago', '2024-05-03T12:00:00Z', updated), ['true', '2024-05-03T12:00:00.001Z']);
  assert.deepEqual(timeline('updated-at>=1 day 2 hours ago', '2024-05-03T12:00:00.001Z', updated), ['false', null]);
  assert.deepEqual(timeline('updated-at>30 minutes ago', '2024-05-02T10:10:00Z', updated), ['true', '2024-05-02T10:30:00.000Z']);
  // An absent time (a pull request never closed) never matches and never changes.
  assert.deepEqual(timeline('closed-at<1 day ago', '2024-05-03T12:00:00Z'), ['false', null]);
});

test('timestamps cover their precision; comparing with one never changes with the clock', () => {
  const merged = { mergedAt: new Date('2024-05-01T23:00:00Z') };
  assert.deepEqual(timeline('merged-at<=2024-05-01', '2024-06-01T00:00:00Z', merged), ['true', null]);
  assert.deepEqual(timeline('merged-at<2024-05-01', '2024-06-01T00:00:00Z', merged), ['false', null]);
  assert.deepEqual(timeline('merged-at>2024-05-01', '2024-06-01T00:00:00Z', merged), ['false', null]);
  assert.deepEqual(timeline('merged-at>=2024-05-02T00:30[Europe/Paris]', '2024-06-01T00:00:00Z', merged), ['true', null]);
  assert.deepEqual(timeline('merged-at>=2024-05-02T01:30+02:00', '2024-06-01T00:00:00Z', merged), ['false', null]);
});

test('current-datetime against a timestamp and within an interval', () => {
  assert.deepEqual(timeline('current-datetime>=2024-05-10T09:00Z', '2024-05-03T12:00:00Z'), ['false', '2024-05-10T09:00:00.000Z']);
  assert.deepEqual(timeline('current-datetime>=2024-05-10T09:00Z', '2024-05-10T09:00:00Z'), ['true', null]);
  assert.deepEqual(timeline('current-datetime<=2024-05-10', '2024-05-10T20:00:00Z'), ['true', '2024-05-11T00:00:00.000Z']);
  const newYear = 'current-datetime!=2024-01-01T00:00/2024-01-01T23:59[Europe/Paris]';
  assert.deepEqual(timeline(newYear, '2023-12-31T20:00:00Z'), ['true', '2023-12-31T23:00:00.000Z']);
  assert.deepEqual(timeline(newYear, '2023-12-31T23:00:00Z'), ['false', '2024-01-01T23:00:00.000Z']);
  assert.deepEqual(timeline(newYear, '2024-01-01T23:00:00Z'), ['true', null]);
  assert.deepEqual(timeline('current-datetime=2024-07-14', '2024-07-14T12:00:00Z'), ['true', '2024-07-15T00:00:00.000Z']);
  assert.deepEqual(timeline('current-datetime=2024-07-14[Europe/Paris]', '2024-07-14T12:00:00Z'), ['true', '2024-07-14T22:00:00.000Z']);
  assert.deepEqual(timeline('current-datetime>9999-12-31[Pacific/Kiritimati]', '2024-07-14T12:00:00Z'), ['false', '9999-12-31T10:00:00.000Z']);
});

test('a schedule in a time zone: its window, days, and the next opening or closing', () => {
  const office = 'schedule=Mon-Fri 09:00-17:30[Europe/Paris]';
  // Friday 2024-05-03, Paris is UTC+2.
  assert.deepEqual(timeline(office, '2024-05-03T06:59:59Z'), ['false', '2024-05-03T07:00:00.000Z']);
  assert.deepEqual(timeline(office, '2024-05-03T07:00:00Z'), ['true', '2024-05-03T15:31:00.000Z']);
  assert.deepEqual(timeline(office, '2024-05-03T15:30:59Z'), ['true', '2024-05-03T15:31:00.000Z']);
  assert.deepEqual(timeline(office, '2024-05-03T15:31:00Z'), ['false', '2024-05-06T07:00:00.000Z']);
  assert.deepEqual(timeline('schedule!=Mon-Fri 09:00-17:30[Europe/Paris]', '2024-05-04T10:00:00Z'), ['true', '2024-05-06T07:00:00.000Z']);
  assert.deepEqual(timeline('schedule=Sat-Sun', '2024-05-03T23:59:59Z'), ['false', '2024-05-04T00:00:00.000Z']);
  assert.deepEqual(timeline('schedule=Sat-Sun', '2024-05-05T12:00:00Z'), ['true', '2024-05-06T00:00:00.000Z']);
  assert.deepEqual(timeline('schedule=22:00-23:59', '2024-05-05T23:00:00Z'), ['true', '2024-05-06T00:00:00.000Z']);
  assert.deepEqual(timeline('schedule=Mon-Sun', '2024-05-05T23:00:00Z'), ['true', null]);
  // Kathmandu is UTC+5:45.
  assert.deepEqual(timeline('schedule=09:00-10:00[Asia/Kathmandu]', '2024-05-03T03:00:00Z'), ['false', '2024-05-03T03:15:00.000Z']);
});

test('schedules across daylight-saving changes', () => {
  // New York springs forward on Sunday 2024-03-10: Friday closes at 22:00Z, Monday opens at 13:00Z.
  const office = 'schedule=Mon-Fri 09:00-17:00[America/New_York]';
  assert.deepEqual(timeline(office, '2024-03-08T21:00:00Z'), ['true', '2024-03-08T22:01:00.000Z']);
  assert.deepEqual(timeline(office, '2024-03-08T23:00:00Z'), ['false', '2024-03-11T13:00:00.000Z']);
  // Paris skips 02:00-02:59 on 2024-03-31: that window opens next on April 1 (00:00Z, UTC+2).
  assert.deepEqual(timeline('schedule=02:00-02:59[Europe/Paris]', '2024-03-31T00:30:00Z'), ['false', '2024-04-01T00:00:00.000Z']);
  // Paris lives 02:00-02:59 twice on 2024-10-27 (UTC+2, then UTC+1): the window opens twice.
  const twice = 'schedule=02:00-02:29[Europe/Paris]';
  assert.deepEqual(timeline(twice, '2024-10-27T00:10:00Z'), ['true', '2024-10-27T00:30:00.000Z']);
  assert.deepEqual(timeline(twice, '2024-10-27T00:30:00Z'), ['false', '2024-10-27T01:00:00.000Z']);
  assert.deepEqual(timeline(twice, '2024-10-27T01:00:00Z'), ['true', '2024-10-27T01:30:00.000Z']);
  // Lord Howe Island moves by 30 minutes (UTC+11 in January).
  assert.deepEqual(timeline('schedule=09:00-09:59[Australia/Lord_Howe]', '2024-01-10T21:00:00Z'), ['false', '2024-01-10T22:00:00.000Z']);
});

test('a timestamp in a zone falls in the gap or overlap of a daylight-saving change sensibly', () => {
  const span = (text: string) => {
    const parsed = parseCondition(text, ['c']);
    assert.ok(parsed.ok);
    const operand = (parsed.condition as { operand: { start: Date } }).operand;
    return operand.start.toISOString();
  };
  // 02:30 does not exist in Paris on 2024-03-31: the clocks jumped at 01:00Z.
  assert.equal(span('created-at>=2024-03-31T02:30[Europe/Paris]'), '2024-03-31T01:00:00.000Z');
  // 02:30 happens twice on 2024-10-27: the first one.
  assert.equal(span('created-at>=2024-10-27T02:30[Europe/Paris]'), '2024-10-27T00:30:00.000Z');
});

test('a tree changes at the earliest change of its leaves, through not, and/or', () => {
  const tree = at([{ or: ['updated-at<7 days ago', 'label=never'] }, { not: 'schedule=Mon-Fri 09:00-17:30[Europe/Paris]' }, 'base=main'], '2024-05-03T12:00:00Z', updated);
  assert.equal(tree.nextChangeAt?.toISOString(), '2024-05-03T15:31:00.000Z');
  assert.ok(tree.kind === 'all');
  assert.deepEqual(tree.conditions.map((node) => node.nextChangeAt?.toISOString() ?? null), ['2024-05-09T10:00:00.001Z', '2024-05-03T15:31:00.000Z', null]);
  assert.equal(at(['base=main', '-draft'], '2024-05-03T12:00:00Z').nextChangeAt, null);
});
