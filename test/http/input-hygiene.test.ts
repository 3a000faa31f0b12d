// Input hygiene (issue 20, item 10): bytes that are not UTF-8 were stored as U+FFFD, `.` and
// `..` were accepted as repository names, and JSON sent as text/plain answered 422 where
// docs/errors.md promises 415.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { rawRequest, requestHead } from '../support/raw-http.ts';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';

for (const backend of await backends()) {
  describe(`input hygiene (${backend})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend);
    });
    after(() => t.close());

    async function raw(method: string, path: string, body: Buffer, contentType = 'application/json') {
      const request = rawRequest(t.baseUrl, requestHead(method, path, { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': contentType, 'content-length': body.length }));
      await request.send(body);
      const answer = await request.answer;
      request.socket.destroy();
      return { status: answer.status, json: answer.body ? JSON.parse(answer.body) : undefined };
    }

    test('a body that is not UTF-8 is a 422, and nothing is stored', async () => {
      const body = Buffer.concat([Buffer.from('{"owner": "acme", "scope": "ci", "name": "bad '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
      const answer = await raw('POST', '/v1/admin/keys', body);
      assert.equal(answer.status, 422);
      assert.deepEqual(answer.json.detail, [{ loc: ['body'], msg: 'is not valid UTF-8', type: 'json_invalid' }]);
      assert.deepEqual((await t.request('GET', '/v1/admin/keys?owner=acme')).json.keys, []);
    });

    test('`.` and `..` are not repository names', async () => {
      for (const name of ['.', '..']) {
        const answer = await raw('PUT', `/v1/admin/repos/acme/${name}`, Buffer.alloc(0));
        assert.equal(answer.status, 422, name);
        assert.deepEqual(answer.json.detail[0].loc, ['path', 'repository']);
      }
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/.github')).status, 201, 'dots within a name are fine');
    });

    test('JSON sent as text/plain is a 415', async () => {
      const answer = await raw('POST', '/v1/admin/keys', Buffer.from('{"owner": "acme", "scope": "ci", "name": "n"}'), 'text/plain');
      assert.equal(answer.status, 415);
      assert.equal(answer.json.detail, 'Send the body as JSON with Content-Type: application/json.');
    });
  });
}
