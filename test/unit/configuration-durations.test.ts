// Durations as the public configuration writes them ("30 s", "1 hour", "2 days 3 hours",
// "1h30m"), integers as seconds, and bounds named in the error when a value falls outside them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeSeconds, parseDuration, readConfiguration } from '../../src/domain/configuration/index.ts';
import { toyConditions } from '../support/toy-conditions.ts';

test('duration text reads as seconds', () => {
  const cases: [string, number][] = [
    ['30 s', 30],
    ['30 seconds', 30],
    ['1 second', 1],
    ['5 minutes', 300],
    ['5 min', 300],
    ['1 hour', 3600],
    ['2 days 3 hours', 183_600],
    ['1h30m', 5400],
    ['1d 2h 3m 4s', 93_784],
    [' 10 MINUTES ', 600],
    ['0 seconds', 0],
  ];
  for (const [text, seconds] of cases) assert.equal(parseDuration(text), seconds, text);
});

test('text that is not a duration reads as nothing', () => {
  for (const text of ['', '30', 'soon', '1 fortnight', '3 minutes 2 hours', '1 hour 1 hour', '-5 minutes', '1.5 hours', '5 minutes ago', '9999999999 seconds']) {
    assert.equal(parseDuration(text), null, text);
  }
});

test('seconds are described the way durations are written', () => {
  assert.equal(describeSeconds(0), '0 seconds');
  assert.equal(describeSeconds(60), '1 minute');
  assert.equal(describeSeconds(604_800), '7 days');
  assert.equal(describeSeconds(5430), '1 hour 30 minutes 30 seconds');
});

function queueRule(option: string) {
  return readConfiguration(`queue_rules:\n  - name: a\n    ${option}\n`, 'f.yml', toyConditions);
}

test('queue rule durations take text or integer seconds within their bounds', () => {
  assert.equal(queueRule('batch_max_wait_time: 90 s').configuration?.queue_rules[0]?.batch_max_wait_time, 90);
  assert.equal(queueRule('batch_max_wait_time: 45').configuration?.queue_rules[0]?.batch_max_wait_time, 45);
  assert.equal(queueRule('checks_timeout: 2 days').configuration?.queue_rules[0]?.checks_timeout, 172_800);
  const tooShort = queueRule('checks_timeout: 30 s').errors[0];
  assert.deepEqual([tooShort?.loc, tooShort?.msg, tooShort?.line], [['queue_rules', 0, 'checks_timeout'], 'must be a duration from 1 minute to 7 days; 30 seconds is out of range', 3]);
  assert.equal(queueRule('batch_max_wait_time: 2 days').errors[0]?.msg, 'must be a duration from 0 seconds to 1 day; 2 days is out of range');
  assert.match(queueRule('batch_max_wait_time: a while').errors[0]?.msg ?? '', /must be a duration such as "30 seconds"/);
  assert.match(queueRule('batch_max_wait_time: -3').errors[0]?.msg ?? '', /must be a duration/);
});
