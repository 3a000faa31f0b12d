// Check runs written by an app on the fake platform behave as GitHub's: output with text, GitHub's
// refusals (unknown status or conclusion, completed without a conclusion, output beyond 65535
// characters or bytes), filters by name, app and latest, and the check_run webhooks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { restCall } from '../support/fake-platform/rest-call.ts';

describe('fake platform: check runs of an app', () => {
  let platform: FakePlatform;
  let appToken: string;
  let otherToken: string;
  let appId: bigint;
  let userToken: string;
  const repo = 'acme/checked';
  let sha: string;
  const call = (token: string, method: string, path: string, body?: unknown) => restCall(platform.url, token, method, path, body);

  before(async () => {
    platform = await new FakePlatform().start();
    platform.createOrganization('acme');
    userToken = platform.createUser('alice').token;
    platform.setMembership('acme', 'alice', { role: 'admin', state: 'active' });
    await platform.createRepository({ owner: 'acme', name: 'checked' });
    const app = platform.createApp('switchyard', 'alice');
    appId = app.id;
    appToken = platform.installationToken(platform.installApp(app, 'acme'));
    otherToken = platform.installationToken(platform.installApp(platform.createApp('other-ci', 'alice'), 'acme'));
    sha = await platform.push({ repo, branch: 'feature', changes: { 'f.txt': 'f\n' } });
  });
  after(() => platform.stop());

  test('created in progress, then completed with output text; read back; check_run created and completed', async () => {
    const created = await call(appToken, 'POST', `/repos/${repo}/check-runs`, { name: 'Switchyard / Summary', head_sha: sha, status: 'in_progress', output: { title: 'Working', summary: 'so far', text: 'details' }, external_id: 'x1' });
    assert.equal(created.status, 201);
    assert.deepEqual([created.json.status, created.json.conclusion, created.json.output.title, created.json.output.summary, created.json.output.text, created.json.external_id, BigInt(created.json.app.id)], ['in_progress', null, 'Working', 'so far', 'details', 'x1', appId]);
    const id = created.json.id;
    const done = await call(appToken, 'PATCH', `/repos/${repo}/check-runs/${id}`, { status: 'completed', conclusion: 'failure', output: { title: '1 rule fails', summary: 'the summary' } });
    assert.deepEqual([done.status, done.json.status, done.json.conclusion, done.json.output.text, typeof done.json.completed_at], [200, 'completed', 'failure', null, 'string']);
    const read = await call(userToken, 'GET', `/repos/${repo}/check-runs/${id}`);
    assert.deepEqual([read.status, read.json.output.title], [200, '1 rule fails']);
    assert.equal((await call(userToken, 'GET', `/repos/${repo}/check-runs/1`)).status, 404);
    await platform.webhooks.settled();
    const hooks = platform.webhooks.sent('check_run').filter((d) => BigInt((d.payload.check_run as { id: bigint }).id) === BigInt(id)).map((d) => [d.action, (d.payload.check_run as { status: string }).status]);
    assert.deepEqual(hooks, [['created', 'in_progress'], ['completed', 'completed']]);
  });

  test('refusals: a user cannot write check runs; bad status, bad conclusion, completed without conclusion, output without summary', async () => {
    const base = { name: 'bad', head_sha: sha };
    assert.equal((await call(userToken, 'POST', `/repos/${repo}/check-runs`, base)).status, 403);
    for (const body of [{ status: 'done' }, { conclusion: 'great' }, { conclusion: 'stale' }, { status: 'completed' }, { output: { title: 'no summary' } }]) {
      const refused = await call(appToken, 'POST', `/repos/${repo}/check-runs`, { ...base, ...body });
      assert.equal(refused.status, 422, JSON.stringify(body));
    }
    const run = (await call(appToken, 'POST', `/repos/${repo}/check-runs`, base)).json;
    assert.equal((await call(appToken, 'PATCH', `/repos/${repo}/check-runs/${run.id}`, { status: 'completed' })).status, 422);
    assert.equal((await call(otherToken, 'PATCH', `/repos/${repo}/check-runs/${run.id}`, { conclusion: 'success' })).status, 403, 'only the app that created it');
    assert.equal((await call(appToken, 'POST', `/repos/${repo}/check-runs`, { name: 'x', head_sha: 'f'.repeat(40) })).status, 422);
  });

  test('output beyond 65535: characters refused by the schema, bytes by validation; 65535 bytes are fine', async () => {
    const post = (summary: string, text?: string) => call(appToken, 'POST', `/repos/${repo}/check-runs`, { name: 'long', head_sha: sha, output: { title: 't', summary, ...(text === undefined ? {} : { text }) } });
    const tooManyCharacters = await post('a'.repeat(65536));
    assert.deepEqual([tooManyCharacters.status, tooManyCharacters.json.message], [422, 'Invalid request.\n\nOnly 65535 characters are allowed; 65536 were supplied.']);
    const tooManyBytes = await post('é'.repeat(40000));
    assert.deepEqual([tooManyBytes.status, tooManyBytes.json.errors[0].message], [422, 'summary exceeds a maximum bytesize of 65535']);
    assert.equal((await post('ok', 'b'.repeat(65536))).status, 422, 'text has the same limit');
    assert.equal((await post('a'.repeat(65535))).status, 201);
  });

  test('listing by ref: latest per name by default, every run with filter=all, by check_name and by app_id', async () => {
    const target = await platform.push({ repo, branch: 'listing', changes: { 'l.txt': 'l\n' } });
    const post = (token: string, name: string, conclusion: string) => call(token, 'POST', `/repos/${repo}/check-runs`, { name, head_sha: target, conclusion });
    await post(appToken, 'Switchyard / Summary', 'failure');
    const latest = (await post(appToken, 'Switchyard / Summary', 'success')).json;
    await post(appToken, 'Switchyard Merge Protections', 'neutral');
    await post(otherToken, 'Switchyard / Summary', 'failure');
    const list = async (query: string) => (await call(userToken, 'GET', `/repos/${repo}/commits/${target}/check-runs${query}`)).json;
    assert.equal((await list('')).total_count, 3);
    assert.equal((await list('?filter=all')).total_count, 4);
    const named = await list(`?check_name=${encodeURIComponent('Switchyard / Summary')}&app_id=${appId}`);
    assert.deepEqual([named.total_count, named.check_runs[0].id, named.check_runs[0].conclusion], [1, latest.id, 'success']);
    assert.equal((await list(`?app_id=${appId}`)).total_count, 2);
    assert.equal((await list('?app_id=1')).total_count, 0);
    assert.equal((await list('?check_name=nothing')).total_count, 0);
  });
});
