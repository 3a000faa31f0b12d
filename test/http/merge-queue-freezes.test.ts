// Scheduled freezes through HTTP (DESIGN.md §9): create, list, update and delete in the public
// shapes, local times read in the freeze's timezone, one scheduled_freeze.* event per change with
// the freeze before and after, 422s naming unsupported conditions and bad times, 404 for an
// unknown freeze, rights, and the freeze the executor sees holding a base branch.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { publicReferenceAvailable, publicShapeProblem } from '../support/public-reference.ts';
import { queueHolds } from '../../src/services/merge-queue/controls.ts';

interface LoggedEvent {
  type: string;
  outcome: string;
  metadata: Record<string, any>;
}

const FREEZES = '/v1/repos/acme/widgets/scheduled_freeze';
const noPublicReference = !publicReferenceAvailable && 'the public reference is not beside the repository';

/** A local date-time (no offset) `days` from now, at noon in whatever zone reads it. */
function localDay(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${date.toISOString().slice(0, 10)}T12:00:00`;
}

for (const backend of await backends()) {
  describe(`scheduled freezes (${backend})`, () => {
    let t: TestApp;
    let adminKey: { id: string; key: string };
    const changes: string[] = [];
    const answers: [string, unknown][] = [];

    async function freezeEvents(repository = 'widgets'): Promise<LoggedEvent[]> {
      const answer = await t.request('GET', `/v1/repos/acme/${repository}/logs?per_page=100`);
      assert.equal(answer.status, 200, answer.text);
      return (answer.json.events as LoggedEvent[]).filter((e) => e.type.startsWith('scheduled_freeze.')).reverse();
    }

    const keep = <T extends { json: unknown }>(schema: string, answer: T): T => {
      answers.push([schema, answer.json]);
      return answer;
    };

    before(async () => {
      t = await startTestApp(backend, undefined, { onQueueChanged: (id) => changes.push(id) });
      for (const name of ['widgets', 'rights']) assert.equal((await t.request('PUT', `/v1/admin/repos/acme/${name}`)).status, 201);
      adminKey = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'admin', name: 'release bot' } })).json;
      t.hosting.users.set('hosting-writer', { login: 'alice', id: 4242, repos: { 'acme/rights': { admin: true, pull: true } } });
      t.hosting.users.set('hosting-reader', { login: 'bob', id: 4243, repos: { 'acme/rights': { admin: false, pull: true } } });
    });
    after(() => t.close());

    test('a repository without freezes lists none', async () => {
      const answer = keep('GetScheduledFreezesResponse', await t.request('GET', FREEZES));
      assert.deepEqual([answer.status, answer.json], [200, { scheduled_freezes: [] }]);
    });

    test('create, list, update and delete a freeze: local times in its timezone, one event per change', async () => {
      const start = localDay(3);
      const end = localDay(5);
      const created = keep('ScheduledFreezeObjectResponse', await t.request('POST', FREEZES, {
        token: adminKey.key,
        body: { reason: 'end of year', start, end, timezone: 'America/New_York', matching_conditions: ['base=main'], exclude_conditions: [] },
      }));
      assert.equal(created.status, 201, created.text);
      const { id, ...attributes } = created.json;
      assert.match(id, /^[0-9a-f-]{36}$/);
      const { start: answeredStart, end: answeredEnd, ...rest } = attributes;
      assert.deepEqual(rest, { reason: 'end of year', timezone: 'America/New_York', matching_conditions: ['base=main'], exclude_conditions: [] });
      assert.match(answeredStart, new RegExp(`^${start}-0[45]:00$`), 'the local time given, with its offset');
      assert.match(answeredEnd, new RegExp(`^${end}-0[45]:00$`));
      const inNewYork = (text: string) => new Date(text).toLocaleString('sv-SE', { timeZone: 'America/New_York' }).replace(' ', 'T');
      assert.equal(inNewYork(answeredStart), start, 'read in the freeze\'s timezone');
      assert.deepEqual(keep('GetScheduledFreezesResponse', await t.request('GET', FREEZES)).json, { scheduled_freezes: [created.json] });

      const patched = keep('ScheduledFreezeObjectResponse', await t.request('PATCH', `${FREEZES}/${id}`, { body: { reason: 'end of year, extended', end: localDay(6) } }));
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(patched.json, { ...created.json, reason: 'end of year, extended', end: patched.json.end });
      assert.equal(patched.json.end.slice(0, 19), localDay(6));

      const deleted = await t.request('POST', `${FREEZES}/${id}/delete`, { token: adminKey.key, body: { delete_reason: 'cancelled' } });
      assert.equal(deleted.status, 204, deleted.text);
      assert.deepEqual((await t.request('GET', FREEZES)).json, { scheduled_freezes: [] });

      const events = await freezeEvents();
      assert.deepEqual(events.map((e) => e.type), ['scheduled_freeze.create', 'scheduled_freeze.update', 'scheduled_freeze.delete']);
      const appActor = { type: 'application', id: adminKey.id, name: 'release bot' };
      const [create, update, remove] = events.map((e) => e.metadata);
      assert.deepEqual(create!.scheduled_freeze_attributes, attributes);
      assert.deepEqual([create!.created_by, create!.created_by_staff], [appActor, false]);
      assert.deepEqual(update!.scheduled_freeze_attributes_before, attributes);
      assert.deepEqual(update!.scheduled_freeze_attributes_after, (({ id: _, ...rest }) => rest)(patched.json));
      assert.equal(update!.updated_by_staff, true);
      assert.deepEqual(remove!.scheduled_freeze_attributes, update!.scheduled_freeze_attributes_after);
      assert.deepEqual([remove!.reason, remove!.deleted_by], ['cancelled', appActor]);
      assert.ok(events.every((e) => e.outcome === 'neutral'));
    });

    test('the deprecated DELETE takes no body; a start of null is now; no end is until deleted', async () => {
      const now = keep('ScheduledFreezeObjectResponse', await t.request('POST', FREEZES, { body: { reason: 'incident', start: null, timezone: 'UTC' } }));
      assert.equal(now.status, 201, now.text);
      assert.ok(Math.abs(Date.parse(now.json.start) - Date.now()) < 60_000);
      assert.equal(now.json.end, null);
      assert.deepEqual(now.json.matching_conditions, []);
      const removed = await t.request('DELETE', `${FREEZES}/${now.json.id}`);
      assert.equal(removed.status, 204, removed.text);
      assert.equal(removed.headers.get('deprecation'), 'true');
      const last = (await freezeEvents()).at(-1)!;
      assert.deepEqual([last.type, last.metadata.reason], ['scheduled_freeze.delete', '']);
    });

    test('the start of a freeze already begun cannot move: 400, nothing written', async () => {
      const begun = await t.request('POST', FREEZES, { body: { reason: 'ongoing', start: null, timezone: 'UTC' } });
      const before = (await freezeEvents()).length;
      const moved = await t.request('PATCH', `${FREEZES}/${begun.json.id}`, { body: { start: localDay(1) } });
      assert.equal(moved.status, 400, moved.text);
      assert.match(moved.json.detail, /already started/);
      assert.equal((await freezeEvents()).length, before);
      const ended = keep('ScheduledFreezeObjectResponse', await t.request('PATCH', `${FREEZES}/${begun.json.id}`, { body: { end: localDay(1), exclude_conditions: ['base=hotfix'] } }));
      assert.equal(ended.status, 200, 'its end and conditions may change');
      assert.deepEqual(ended.json.exclude_conditions, ['base=hotfix']);
      assert.equal((await t.request('POST', `${FREEZES}/${begun.json.id}/delete`, { body: { delete_reason: 'done' } })).status, 204);
    });

    test('unsupported conditions, bad times and zones are 422s naming them; nothing is written', async () => {
      const before = (await freezeEvents()).length;
      const base = { reason: 'r', start: localDay(1), timezone: 'UTC' };
      const cases: [Record<string, unknown>, (string | number)[], RegExp][] = [
        [{ ...base, matching_conditions: ['label=frozen'] }, ['body', 'matching_conditions', 0], /"label=frozen".*base=NAME and base!=NAME/],
        [{ ...base, exclude_conditions: ['base=main', { or: ['base=a', 'author=bot'] }] }, ['body', 'exclude_conditions', 1, 'or', 1], /"author=bot"/],
        [{ ...base, timezone: 'Mars/Olympus' }, ['body', 'timezone'], /Mars\/Olympus/],
        [{ ...base, start: 'next monday' }, ['body', 'start'], /ISO 8601/],
        [{ ...base, start: '2026-02-30T10:00:00' }, ['body', 'start'], /ISO 8601/],
        [{ ...base, end: localDay(0.5) }, ['body', 'end'], /after start/],
        [{ ...base, start: null, end: '2020-01-01T00:00:00' }, ['body', 'end'], /after start|future/],
        [{ ...base, reasons: 'typo' }, ['body', 'reasons'], /Unknown field/],
        [{ reason: 'r', timezone: 'UTC' }, ['body', 'start'], /required/],
      ];
      for (const [body, loc, msg] of cases) {
        const answer = await t.request('POST', FREEZES, { body });
        assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
        const issue = answer.json.detail.find((d: { loc: unknown[] }) => JSON.stringify(d.loc) === JSON.stringify(loc));
        assert.ok(issue, `${JSON.stringify(body)}: no issue at ${JSON.stringify(loc)} in ${answer.text}`);
        assert.match(issue.msg, msg);
      }
      const freeze = await t.request('POST', FREEZES, { body: base });
      const patch = await t.request('PATCH', `${FREEZES}/${freeze.json.id}`, { body: { matching_conditions: ['base~=main'] } });
      assert.equal(patch.status, 422);
      assert.deepEqual(patch.json.detail[0].loc, ['body', 'matching_conditions', 0]);
      assert.equal((await freezeEvents()).length, before + 1, 'only the valid create');
      assert.equal((await t.request('POST', `${FREEZES}/${freeze.json.id}/delete`, { body: { delete_reason: 'x' } })).status, 204);
    });

    test('an unknown freeze or repository is a 404 saying which', async () => {
      const missing = '00000000-0000-4000-8000-000000000000';
      for (const [method, path, body] of [['PATCH', `${FREEZES}/${missing}`, { reason: 'x' }], ['DELETE', `${FREEZES}/${missing}`, undefined], ['POST', `${FREEZES}/${missing}/delete`, { delete_reason: 'x' }]] as const) {
        const answer = await t.request(method, path, { body });
        assert.deepEqual([answer.status, answer.json], [404, { detail: 'The scheduled freeze with the given id does not exist.' }], `${method} ${path}`);
      }
      const other = await t.request('POST', '/v1/repos/acme/rights/scheduled_freeze', { body: { reason: 'r', start: null, timezone: 'UTC' } });
      assert.equal((await t.request('PATCH', `${FREEZES}/${other.json.id}`, { body: { reason: 'x' } })).status, 404, "another repository's freeze");
      assert.equal((await t.request('GET', '/v1/repos/acme/nothing/scheduled_freeze')).json.detail, 'Repository not found');
      assert.equal((await t.request('POST', `${FREEZES}/not-a-uuid/delete`, { body: null })).status, 422);
    });

    test('rights: pull reads, push writes; ci keys and other owners nothing', async () => {
      const path = '/v1/repos/acme/rights/scheduled_freeze';
      const body = { reason: 'r', start: localDay(2), timezone: 'UTC' };
      assert.equal((await t.request('GET', path, { token: 'hosting-reader' })).status, 200);
      assert.equal((await t.request('POST', path, { token: 'hosting-reader', body })).status, 403);
      const created = await t.request('POST', path, { token: 'hosting-writer', body });
      assert.equal(created.status, 201);
      assert.equal((await t.request('PATCH', `${path}/${created.json.id}`, { token: 'hosting-reader', body: { reason: 'x' } })).status, 403);
      assert.equal((await t.request('POST', `${path}/${created.json.id}/delete`, { token: 'hosting-reader', body: { delete_reason: 'x' } })).status, 403);
      const ciKey = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'ci' } })).json.key;
      const otherAdmin = (await t.request('POST', '/v1/admin/keys', { body: { owner: 'globex', scope: 'admin', name: 'other' } })).json.key;
      for (const token of [ciKey, otherAdmin]) {
        assert.equal((await t.request('GET', path, { token })).status, 403);
        assert.equal((await t.request('POST', path, { token, body })).status, 403);
      }
      const events = await freezeEvents('rights');
      assert.deepEqual(events.slice(-1).map((e) => [e.type, e.metadata.created_by]), [['scheduled_freeze.create', { type: 'user', id: 4242, name: 'alice' }]]);
    });

    test('the executor sees an ongoing freeze hold the bases it matches, not the excluded ones', async () => {
      const id = (await t.store.repositories.find('acme', 'widgets'))!.id;
      const told = changes.length;
      const frozen = keep('ScheduledFreezeObjectResponse', await t.request('POST', FREEZES, { body: { reason: 'release', start: null, end: localDay(1), timezone: 'Europe/Paris', matching_conditions: [{ or: ['base=main', 'base=release'] }], exclude_conditions: ['base=release'] } }));
      assert.equal(frozen.status, 201, frozen.text);
      await t.request('POST', FREEZES, { body: { reason: 'later', start: localDay(2), timezone: 'UTC' } });
      const now = new Date();
      const main = await queueHolds(t.store, id, 'main', now);
      assert.deepEqual(main.freeze && { id: main.freeze.id, reason: main.freeze.reason }, { id: frozen.json.id, reason: 'release' });
      assert.equal(main.frozen, true);
      assert.equal((await queueHolds(t.store, id, 'release', now)).frozen, false, 'excluded');
      assert.equal((await queueHolds(t.store, id, 'dev', now)).frozen, false, 'not matched');
      assert.equal((await queueHolds(t.store, id, 'dev', new Date(Date.now() + 3 * 86_400_000))).freeze?.reason, 'later', 'the later freeze, once begun, holds every base');
      assert.deepEqual(changes.slice(told), [id, id]);
      keep('GetScheduledFreezesResponse', await t.request('GET', FREEZES));
    });

    test('every answer fits the public schemas', { skip: noPublicReference }, () => {
      assert.ok(answers.length >= 5, 'the answers were kept');
      for (const [schema, value] of answers) assert.equal(publicShapeProblem(schema, value), undefined);
    });
  });
}
