// The rules engine's check runs (Summary, protections, configuration) through the hosting client
// as a GitHub App: found by name among this app's runs only, written once, rewritten only when
// something differs (no platform write otherwise), output cut to GitHub's limit on a character
// boundary; and team members read with the organisation's installation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostingPlatform } from '../../src/hosting/hosting-platform.ts';
import type { CheckRunWrite, RepositoryRef } from '../../src/hosting/hosting-types.ts';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { hostingClientFor } from '../support/fake-platform/platform-client.ts';

describe('hosting client: check runs written by the app', () => {
  let platform: FakePlatform;
  let client: HostingPlatform;
  const ref: RepositoryRef = { owner: 'acme', repo: 'checked' };
  let count = 0;
  const writes = () => platform.mutations().filter((r) => /\/check-runs/.test(r.url)).length;

  async function commit(): Promise<string> {
    return platform.push({ repo: 'acme/checked', branch: `b${++count}`, changes: { [`f${count}.txt`]: 'f\n' } });
  }

  before(async () => {
    platform = await new FakePlatform({ firstId: 2n ** 53n + 1000n }).start();
    platform.createOrganization('acme');
    platform.createUser('carol');
    platform.createTeam('acme', 'core', ['carol']);
    await platform.createRepository({ owner: 'acme', name: 'checked' });
    const app = platform.createApp('switchyard', 'acme');
    platform.installApp(app, 'acme');
    client = hostingClientFor(platform, { kind: 'app', appId: String(app.id), privateKey: app.privateKey });
  });
  after(() => platform.stop());

  test('created once, then nothing written while nothing differs; rewritten in place when it does', async () => {
    const sha = await commit();
    const wanted: CheckRunWrite = { headSha: sha, name: 'Switchyard / Summary', status: 'completed', conclusion: 'success', title: '1 rule matches', summary: '- [x] `label=queue`', externalId: 'summary' };
    const before = writes();
    const first = await client.upsertCheckRun(ref, wanted);
    assert.equal(first.changed, true);
    assert.ok(first.id > 2n ** 53n);
    assert.deepEqual(await client.upsertCheckRun(ref, wanted), { id: first.id, changed: false });
    assert.deepEqual(await client.upsertCheckRun(ref, { ...wanted }), { id: first.id, changed: false });
    assert.equal(writes(), before + 1, 'an identical check run costs no write');
    assert.deepEqual(await client.upsertCheckRun(ref, { ...wanted, conclusion: 'failure', title: '1 rule fails' }), { id: first.id, changed: true });
    assert.deepEqual(await client.upsertCheckRun(ref, { ...wanted, conclusion: 'failure', title: '1 rule fails', text: 'details' }), { id: first.id, changed: true });
    assert.deepEqual(await client.upsertCheckRun(ref, { ...wanted, conclusion: 'failure', title: '1 rule fails' }), { id: first.id, changed: true }, 'dropping the text is a change');
    assert.equal(writes(), before + 4);
    const found = (await client.findCheckRun(ref, sha, 'Switchyard / Summary'))!;
    assert.deepEqual([found.id, found.status, found.conclusion, found.output.title, found.output.text ?? '', found.externalId], [first.id, 'completed', 'failure', '1 rule fails', '', 'summary']);
    assert.equal(platform.repo('acme/checked').checkRuns.size, 1);
  });

  test('in progress then completed: the same run; completed then in progress again: a new run becomes the latest', async () => {
    const sha = await commit();
    const base = { headSha: sha, name: 'Switchyard Merge Protections', title: 'Waiting', summary: 'checks pending' };
    const pending = await client.upsertCheckRun(ref, { ...base, status: 'in_progress' });
    const done = await client.upsertCheckRun(ref, { ...base, status: 'completed', conclusion: 'success', title: 'All protections pass' });
    assert.equal(done.id, pending.id);
    const again = await client.upsertCheckRun(ref, { ...base, status: 'in_progress' });
    assert.notEqual(again.id, done.id);
    assert.equal((await client.findCheckRun(ref, sha, base.name))!.id, again.id);
    await platform.webhooks.settled();
    const actions = platform.webhooks.sent('check_run').filter((d) => (d.payload.check_run as { head_sha: string }).head_sha === sha).map((d) => d.action);
    assert.deepEqual(actions, ['created', 'completed', 'created']);
  });

  test("another app's run of the same name is not ours: ours is created beside it", async () => {
    platform.ci.configure({ checks: [{ name: 'Switchyard / Summary' }] });
    const sha = await commit();
    platform.ci.configure(undefined);
    await platform.ci.settled();
    assert.equal(platform.repo('acme/checked').checkRuns.size > 0, true);
    assert.equal(await client.findCheckRun(ref, sha, 'Switchyard / Summary'), null);
    const ours = await client.upsertCheckRun(ref, { headSha: sha, name: 'Switchyard / Summary', status: 'completed', conclusion: 'neutral', title: 'No rules', summary: '' });
    assert.equal(ours.changed, true);
    assert.equal((await client.findCheckRun(ref, sha, 'Switchyard / Summary'))!.app, 'switchyard');
  });

  test('a summary beyond 65535 bytes is cut on a character boundary with a note, and accepted; the same cut text is no change', async () => {
    const sha = await commit();
    // Two-byte and four-byte characters, so a cut at a fixed byte count would split one.
    const summary = 'é'.repeat(20000) + '😀'.repeat(10000);
    const wanted: CheckRunWrite = { headSha: sha, name: 'Switchyard / Configuration', status: 'completed', conclusion: 'failure', title: 'Invalid', summary, text: '😀'.repeat(20000) };
    const written = await client.upsertCheckRun(ref, wanted);
    assert.equal(written.changed, true);
    const run = (await client.findCheckRun(ref, sha, wanted.name))!;
    for (const field of [run.output.summary!, run.output.text!]) {
      assert.ok(Buffer.byteLength(field) <= 65535, `${Buffer.byteLength(field)} bytes`);
      assert.doesNotMatch(field, /\ufffd/, 'no character cut in half');
      assert.match(field, /truncated: \d+ more bytes/);
    }
    assert.ok(run.output.summary!.startsWith('é'.repeat(20000) + '😀'));
    assert.deepEqual(await client.upsertCheckRun(ref, wanted), { id: written.id, changed: false });
  });

  test('team members through the installation on the organisation', async () => {
    assert.deepEqual(await client.teamMembers('acme', 'core'), ['carol']);
    assert.equal(await client.teamMembers('acme', 'nobody'), null);
    assert.equal(platform.requestLog.filter((r) => r.url === '/orgs/acme/installation' && r.status === 200).length, 1);
  });
});
