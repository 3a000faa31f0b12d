// Request bodies the process holds at once (issue 20, item 2): 600 unauthenticated half-sent
// webhook bodies took the process to 2.8 GiB. A delivery is now refused from its headers when no
// body could be accepted, and the bytes of bodies in flight are bounded, in all and per client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { rawRequest, requestHead, type RawRequest } from '../support/raw-http.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const MiB = 1024 * 1024;
const FORGED = `sha256=${'0'.repeat(64)}`;

function webhookHead(headers: Record<string, string | number>): string {
  return requestHead('POST', '/v1/hooks/hosting', { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-github-delivery': 'd-1', ...headers });
}

for (const backend of await backends()) {
  describe(`bodies in flight (${backend})`, () => {
    let t: TestApp;
    const open: RawRequest[] = [];

    before(async () => {
      t = await startTestApp(backend, undefined, { limits: { bodiesInFlightBytes: 8 * MiB, bodiesInFlightPerClientBytes: 3 * MiB } });
    });
    after(async () => {
      for (const request of open) request.socket.destroy();
      await t.close();
    });

    test('a webhook without a well-formed signature is refused from its headers, its body unread', async () => {
      for (const signature of [undefined, 'sha256=nothex', 'sha1=0123']) {
        const request = rawRequest(t.baseUrl, webhookHead({ 'content-length': 5 * MiB - 1, ...(signature ? { 'x-hub-signature-256': signature } : {}) }), { waitMs: 3000 });
        open.push(request);
        const answer = await request.answer;
        assert.equal(answer.status, 403, `signature ${signature}: answered before any body byte`);
        assert.equal(JSON.parse(answer.body).detail, 'The webhook signature is missing or does not match the shared secret.');
      }
    });

    test('a webhook announcing more than 5 MiB is refused at once', async () => {
      const request = rawRequest(t.baseUrl, webhookHead({ 'content-length': 5 * MiB + 1, 'x-hub-signature-256': FORGED }), { waitMs: 3000 });
      open.push(request);
      assert.equal((await request.answer).status, 413);
    });

    test('past its share of memory a client is refused (503), others are served, and the bytes come back', async () => {
      const stalled: RawRequest[] = [];
      // Four half-sent bodies of 1 MiB from 127.0.0.2: three fill its 3 MiB, one is refused
      // (whichever's bytes arrive last) and the others wait for the rest of their bodies.
      for (let i = 0; i < 4; i++) {
        const request = rawRequest(t.baseUrl, webhookHead({ 'content-length': 5 * MiB - 1, 'x-hub-signature-256': FORGED }), { from: '127.0.0.2', waitMs: 4000 });
        open.push(request);
        stalled.push(request);
        await request.send(Buffer.alloc(MiB, 0x20));
      }
      const answers = await Promise.all(stalled.map((request) => request.answer));
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [0, 0, 0, 503]);
      assert.match(answers.find((answer) => answer.status === 503)!.headers, /\r\nretry-after: \d+/i);
      // Another client's bodies still fit in what is left of the whole.
      const created = await t.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'still served' } });
      assert.equal(created.status, 201);
      // Closing the stalled connections gives their bytes back: the same client is served again.
      for (const request of stalled) request.socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = rawRequest(t.baseUrl, webhookHead({ 'content-length': 2, 'x-hub-signature-256': FORGED }), { from: '127.0.0.2', waitMs: 5000 });
      open.push(again);
      await again.send('{}');
      assert.equal((await again.answer).status, 403, 'read in full, then refused for its signature');
    });
  });
}
