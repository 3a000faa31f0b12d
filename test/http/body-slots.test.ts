// Bodies read at once per client address (issue 20): one address's bodies take turns, so they
// cannot fill the event loop that every client shares; a body past its address's slots waits,
// unread, and other addresses are served as before.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { rawRequest, requestHead, type RawRequest } from '../support/raw-http.ts';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';

const BODY = JSON.stringify({ owner: 'acme', scope: 'ci', name: 'turns' });

/** A key created from `from`, its body sent in full or only its first half. */
function createKey(t: TestApp, from: string, whole: boolean): RawRequest {
  const head = requestHead('POST', '/v1/admin/keys', { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
  const request = rawRequest(t.baseUrl, head, { from, waitMs: 5000 });
  void request.send(whole ? BODY : BODY.slice(0, 10));
  return request;
}

const within = <T>(promise: Promise<T>, ms: number) => Promise.race([promise, new Promise<'waiting'>((resolve) => setTimeout(resolve, ms, 'waiting'))]);

for (const backend of await backends()) {
  describe(`bodies read per address (${backend})`, () => {
    let t: TestApp;
    const open: RawRequest[] = [];

    before(async () => {
      t = await startTestApp(backend, undefined, { limits: { bodiesReadPerAddress: 1 } });
    });
    after(async () => {
      for (const request of open) request.socket.destroy();
      await t.close();
    });

    test('a body waits for a slot of its address, unread; other addresses are served', async () => {
      const first = createKey(t, '127.0.0.2', false);
      const second = createKey(t, '127.0.0.2', true);
      open.push(first, second);
      assert.equal(await within(second.answer, 500), 'waiting', 'the second body of 127.0.0.2 waits for the first');
      const elsewhere = createKey(t, '127.0.0.3', true);
      open.push(elsewhere);
      assert.equal((await elsewhere.answer).status, 201, 'another address is served at once');
      await first.send(BODY.slice(10));
      assert.deepEqual([(await first.answer).status, (await second.answer).status], [201, 201]);
    });

    test('a slot is given back when its request goes away before the body is read', async () => {
      const gone = createKey(t, '127.0.0.4', false);
      const next = createKey(t, '127.0.0.4', true);
      open.push(gone, next);
      assert.equal(await within(next.answer, 300), 'waiting');
      gone.socket.destroy();
      assert.equal((await next.answer).status, 201);
    });
  });
}
