// The merge queue's controls as pure rules (DESIGN.md §9): the configuration's schema, defaults
// and cross-field checks; which base branches a scheduled freeze holds and when; the freeze's
// local times read in its timezone and answered with their offset.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileBodyValidator, toValidationIssues } from '../../src/validation/validators.ts';
import { MergeQueueConfiguration, type MergeQueueConfigurationInput } from '../../src/domain/merge-queue/config-schema.ts';
import { defaultMergeQueueConfig, fillConfigDefaults } from '../../src/domain/merge-queue/config-defaults.ts';
import { configIssues } from '../../src/domain/merge-queue/config-checks.ts';
import { conditionIssues, freezeApplies, type ScheduledFreeze } from '../../src/domain/merge-queue/freeze-conditions.ts';
import { isTimeZone, zonedDateTime, zonedInstant } from '../../src/domain/merge-queue/freeze-times.ts';
import { resolveFreeze } from '../../src/domain/merge-queue/freeze-input.ts';

const validate = compileBodyValidator(MergeQueueConfiguration);

/** The locations of what the schema and the checks refuse in `body`, as a 422 would list them. */
function refused(body: unknown): string[] {
  if (!validate(body)) return toValidationIssues(validate.errors ?? [], ['body']).map((issue) => issue.loc.join('.'));
  return configIssues(body as MergeQueueConfigurationInput).map((issue) => issue.loc.join('.'));
}

describe('configuration', () => {
  test('a repository never configured: serial, one rule `default`, every option at its default', () => {
    assert.deepEqual(defaultMergeQueueConfig(), {
      merge_queue: { mode: 'serial', max_parallel_checks: 5, skip_intermediate_results: false, reset_on_external_merge: 'always' },
      queue_rules: [{ name: 'default', batch_size: 1, batch_max_wait_time: 30, checks_timeout: 3600, max_checks_retries: 0, merge_method: 'merge', required_checks: [], branches: [] }],
      priority_rules: [],
      scopes: { missing: 'wait', wait_seconds: 600 },
    });
  });

  test('options given are kept, the others take their defaults', () => {
    const config = fillConfigDefaults({
      merge_queue: { mode: 'parallel' },
      queue_rules: [{ name: 'hotfix', batch_size: { min: 2, max: 8 }, branches: ['main'] }, { name: 'rest', merge_method: 'squash' }],
      priority_rules: [{ name: 'urgent', labels: ['p0'] }],
      scopes: { missing: 'barrier', barrier_files: { include: ['Makefile'] } },
    });
    assert.equal(config.merge_queue.mode, 'parallel');
    assert.equal(config.merge_queue.max_parallel_checks, 5);
    assert.deepEqual(config.queue_rules.map((r) => [r.name, r.batch_size, r.merge_method, r.branches]), [['hotfix', { min: 2, max: 8 }, 'merge', ['main']], ['rest', 1, 'squash', []]]);
    assert.deepEqual(config.priority_rules, [{ name: 'urgent', priority: 'medium', labels: ['p0'] }]);
    assert.deepEqual(config.scopes, { missing: 'barrier', wait_seconds: 600, barrier_files: { include: ['Makefile'] } });
  });

  test('the filled configuration is itself a valid body that fills to the same', () => {
    const config = fillConfigDefaults({ queue_rules: [{ name: 'a', batch_size: { min: 1, max: 3 } }] });
    assert.deepEqual(refused(config), []);
    assert.deepEqual(fillConfigDefaults(config as MergeQueueConfigurationInput), config);
  });

  test('each invalid option is refused at its location', () => {
    const cases: [unknown, string[]][] = [
      [{ merge_queue: { mode: 'fast' } }, ['body.merge_queue.mode']],
      [{ merge_queue: { max_parallel_checks: 0 } }, ['body.merge_queue.max_parallel_checks']],
      [{ merge_queue: { max_parallel_checks: 129 } }, ['body.merge_queue.max_parallel_checks']],
      [{ merge_queue: { speculative_checks: 2 } }, ['body.merge_queue.speculative_checks']],
      [{ queue_rule: [] }, ['body.queue_rule']],
      [{ queue_rules: [] }, ['body.queue_rules']],
      [{ queue_rules: [{ batch_size: 2 }] }, ['body.queue_rules.0.name']],
      [{ queue_rules: [{ name: 'a', checks_timeout: 59 }] }, ['body.queue_rules.0.checks_timeout']],
      [{ queue_rules: [{ name: 'a', merge_method: 'merge-batch' }] }, ['body.queue_rules.0.merge_method']],
      [{ queue_rules: [{ name: 'a', batch_max_wait_time: '30 s' }] }, ['body.queue_rules.0.batch_max_wait_time']],
      [{ queue_rules: [{ name: 'a', batch_size: { min: 3, max: 2 } }] }, ['body.queue_rules.0.batch_size']],
      [{ queue_rules: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] }, ['body.queue_rules.2.name']],
      [{ priority_rules: [{ name: 'p', priority: 'urgent' }] }, ['body.priority_rules.0.priority']],
      [{ priority_rules: [{ name: 'p' }, { name: 'p' }] }, ['body.priority_rules.1.name']],
      [{ scopes: { missing: 'ignore' } }, ['body.scopes.missing']],
      [{ scopes: { barrier_files: { include: [] } } }, ['body.scopes.barrier_files.include']],
    ];
    for (const [body, locations] of cases) {
      const got = refused(body);
      for (const location of locations) assert.ok(got.includes(location), `${JSON.stringify(body)}: ${location} not in ${JSON.stringify(got)}`);
    }
  });

  test('a batch size is 1 to 128, fixed or as bounds', () => {
    for (const size of [1, 128, { min: 1, max: 128 }, { min: 4, max: 4 }]) assert.deepEqual(refused({ queue_rules: [{ name: 'a', batch_size: size }] }), [], JSON.stringify(size));
    for (const size of [0, 129, 1.5, { min: 0, max: 2 }, { min: 1 }, { min: 1, max: 2, step: 1 }]) assert.ok(refused({ queue_rules: [{ name: 'a', batch_size: size }] }).length > 0, JSON.stringify(size));
  });
});

const freeze = (fields: Partial<ScheduledFreeze> = {}): ScheduledFreeze => ({
  id: '00000000-0000-4000-8000-000000000001',
  reason: 'release',
  start: new Date('2026-12-01T00:00:00Z'),
  end: new Date('2026-12-02T00:00:00Z'),
  timezone: 'UTC',
  matchingConditions: [],
  excludeConditions: [],
  ...fields,
});

describe('scheduled freezes', () => {
  test('a freeze holds from its start (inclusive) to its end (exclusive); without an end, until deleted', () => {
    const f = freeze();
    assert.equal(freezeApplies(f, 'main', new Date('2026-11-30T23:59:59.999Z')), false);
    assert.equal(freezeApplies(f, 'main', new Date('2026-12-01T00:00:00Z')), true);
    assert.equal(freezeApplies(f, 'main', new Date('2026-12-01T23:59:59.999Z')), true);
    assert.equal(freezeApplies(f, 'main', new Date('2026-12-02T00:00:00Z')), false);
    assert.equal(freezeApplies(freeze({ end: null }), 'main', new Date('2099-01-01T00:00:00Z')), true);
  });

  test('matching conditions all hold; exclude conditions, when they all hold, leave the base alone', () => {
    const at = new Date('2026-12-01T12:00:00Z');
    const applies = (fields: Partial<ScheduledFreeze>, base: string) => freezeApplies(freeze(fields), base, at);
    assert.equal(applies({}, 'anything'), true, 'no condition: every base');
    assert.equal(applies({ matchingConditions: ['base=main'] }, 'main'), true);
    assert.equal(applies({ matchingConditions: ['base=main'] }, 'dev'), false);
    assert.equal(applies({ matchingConditions: ['base!=main'] }, 'dev'), true);
    assert.equal(applies({ matchingConditions: ['base!=main', 'base!=dev'] }, 'dev'), false);
    assert.equal(applies({ matchingConditions: [{ or: ['base=main', 'base=release'] }] }, 'release'), true);
    assert.equal(applies({ matchingConditions: [{ not: 'base=main' }] }, 'main'), false);
    assert.equal(applies({ excludeConditions: ['base=hotfix'] }, 'hotfix'), false);
    assert.equal(applies({ excludeConditions: ['base=hotfix'] }, 'main'), true);
    assert.equal(applies({ matchingConditions: [' base = main '] }, 'main'), true, 'spaces around the operator');
  });

  test('conditions other than base=NAME and base!=NAME are refused, each named where it is', () => {
    assert.deepEqual(conditionIssues(['base=main', 'base!=dev', { and: ['base=a', { not: 'base=b' }] }], ['body', 'matching_conditions']), []);
    const issues = conditionIssues(['label=frozen', { or: ['base=main', 'author=bot'] }, 'base=', {}], ['body', 'exclude_conditions']);
    assert.deepEqual(issues.map((i) => i.loc), [['body', 'exclude_conditions', 0], ['body', 'exclude_conditions', 1, 'or', 1], ['body', 'exclude_conditions', 2], ['body', 'exclude_conditions', 3]]);
    assert.match(issues[0]!.msg, /"label=frozen".*base=NAME and base!=NAME/);
    assert.match(issues[1]!.msg, /"author=bot"/);
  });
});

describe('freeze times', () => {
  test('a local time is read in its timezone, daylight saving included; an offset, when given, wins', () => {
    assert.equal(zonedInstant('2026-12-24T18:00:00', 'Europe/Paris')?.toISOString(), '2026-12-24T17:00:00.000Z');
    assert.equal(zonedInstant('2026-07-01T12:00', 'Europe/Paris')?.toISOString(), '2026-07-01T10:00:00.000Z');
    assert.equal(zonedInstant('2026-07-01T12:00:00.250', 'America/New_York')?.toISOString(), '2026-07-01T16:00:00.250Z');
    assert.equal(zonedInstant('2026-07-01T12:00:00', 'UTC')?.toISOString(), '2026-07-01T12:00:00.000Z');
    assert.equal(zonedInstant('2026-07-01T12:00:00+05:30', 'Europe/Paris')?.toISOString(), '2026-07-01T06:30:00.000Z');
    // 02:30 does not exist in Paris on 2026-03-29: read with the offset before the change.
    assert.equal(zonedInstant('2026-03-29T02:30:00', 'Europe/Paris')?.toISOString(), '2026-03-29T01:30:00.000Z');
  });

  test('text that is no date-time, or no such day, is undefined', () => {
    for (const text of ['2026-02-30T00:00:00', '2026-13-01T00:00:00', '2026-01-01T24:00:00', 'tomorrow', '2026-01-01', '']) assert.equal(zonedInstant(text, 'UTC'), undefined, text);
  });

  test('an instant is answered as the local time of the zone with its offset, and reads back to itself', () => {
    const instant = new Date('2026-12-24T17:00:00Z');
    assert.equal(zonedDateTime(instant, 'Europe/Paris'), '2026-12-24T18:00:00+01:00');
    assert.equal(zonedDateTime(instant, 'America/St_Johns'), '2026-12-24T13:30:00-03:30');
    assert.equal(zonedDateTime(instant, 'UTC'), '2026-12-24T17:00:00+00:00');
    assert.equal(zonedDateTime(new Date('2026-07-01T10:00:00.120Z'), 'Europe/Paris'), '2026-07-01T12:00:00.120+02:00');
    for (const zone of ['Europe/Paris', 'Asia/Kolkata', 'Pacific/Auckland']) assert.equal(zonedInstant(zonedDateTime(instant, zone), zone)?.getTime(), instant.getTime());
  });

  test('time zones are IANA names the runtime knows', () => {
    for (const zone of ['UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires']) assert.equal(isTimeZone(zone), true, zone);
    for (const zone of ['Mars/Olympus', '', 'Europe/Paris; DROP', '../etc']) assert.equal(isTimeZone(zone), false, zone);
  });
});

describe('a freeze from its payload', () => {
  const now = new Date('2026-11-01T12:00:00Z');

  test('start null is now; end absent is until deleted; conditions default to none', () => {
    const result = resolveFreeze({ reason: 'r', start: null, timezone: 'Europe/Paris' }, null, now);
    assert.ok(result.ok);
    assert.deepEqual(result.freeze, { reason: 'r', start: now, end: null, timezone: 'Europe/Paris', matchingConditions: [], excludeConditions: [] });
  });

  test('an end not after the start, or already past, an unknown zone, a bad time: 422 issues naming the field', () => {
    const issues = (input: Parameters<typeof resolveFreeze>[0]) => {
      const result = resolveFreeze(input, null, now);
      return result.ok || 'started' in result ? [] : result.issues.map((i) => i.loc.join('.'));
    };
    assert.deepEqual(issues({ reason: 'r', start: '2026-12-02T00:00:00', end: '2026-12-01T00:00:00', timezone: 'UTC' }), ['body.end']);
    assert.deepEqual(issues({ reason: 'r', start: null, end: '2026-10-01T00:00:00', timezone: 'UTC' }), ['body.end']);
    assert.deepEqual(issues({ reason: 'r', start: null, timezone: 'Nowhere/City' }), ['body.timezone']);
    assert.deepEqual(issues({ reason: 'r', start: 'soon', end: 'later', timezone: 'UTC' }), ['body.start', 'body.end']);
    assert.deepEqual(issues({ reason: 'r', start: null, timezone: 'UTC', matching_conditions: ['head=x'] }), ['body.matching_conditions.0']);
  });

  test('an update keeps what it does not give; the start of a freeze already begun cannot move', () => {
    const current = { reason: 'r', start: new Date('2026-10-31T00:00:00Z'), end: null, timezone: 'UTC', matchingConditions: ['base=main'], excludeConditions: [] };
    const renamed = resolveFreeze({ reason: 'new', end: '2026-11-05T00:00:00' }, current, now);
    assert.ok(renamed.ok);
    assert.deepEqual(renamed.freeze, { ...current, reason: 'new', end: new Date('2026-11-05T00:00:00Z') });
    assert.deepEqual(resolveFreeze({ start: '2026-11-03T00:00:00' }, current, now), { ok: false, started: true });
    const later = { ...current, start: new Date('2026-11-10T00:00:00Z') };
    const moved = resolveFreeze({ start: '2026-11-03T00:00:00' }, later, now);
    assert.ok(moved.ok && moved.freeze.start.toISOString() === '2026-11-03T00:00:00.000Z', 'a freeze not yet begun may move');
  });
});
