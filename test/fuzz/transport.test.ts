// What arrives below the API (issue #9): bytes that are not HTTP, headers over 16 KiB, paths
// that are not percent-encoded UTF-8 or too long, bodies at and over each size limit, numbers
// too long to parse cheaply. Each is refused with a 4xx and a JSON `detail`, and the server
// keeps answering.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** Writes `bytes` on a fresh connection and returns everything the server sends back before closing. */
function exchangeRaw(port: number, bytes: string | Buffer, waitMs = 5_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let received = '';
    const done = () => resolve(received);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', done);
    socket.on('error', done);
    setTimeout(() => socket.destroy(), waitMs);
  });
}

function parseRaw(raw: string): { status: number; headers: string; body: string } {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: rest.join('\r\n\r\n') };
}

const MiB = 1024 * 1024;

describe('transport-level junk', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp('pglite');
    port = Number(new URL(t.baseUrl).port);
    assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
  });
  after(() => t.close());

  test('bytes that are not HTTP/1.1 get a JSON 400 and a closed connection', async () => {
    const junk = [
      'GARBAGE\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'POST /v1/admin/keys HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX: a\u0000b\r\n\r\n',
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03]), // a TLS ClientHello
    ];
    for (const bytes of junk) {
      const answer = parseRaw(await exchangeRaw(port, bytes));
      assert.equal(answer.status, 400, JSON.stringify(bytes.toString()));
      assert.match(answer.headers, /Content-Type: application\/json/i);
      assert.deepEqual(JSON.parse(answer.body), { detail: 'The request is not well-formed HTTP/1.1.' });
    }
    assert.equal((await t.request('GET', '/healthz', { token: null })).status, 200, 'still serving');
  });

  test('headers over 16 KiB get a JSON 431', async () => {
    for (const headers of [{ 'x-padding': 'p'.repeat(17 * 1024) }, Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`x-h${i}`, 'v'.repeat(50)]))]) {
      const response = await t.request('GET', '/v1/admin/keys', { headers });
      assert.equal(response.status, 431);
      assert.deepEqual(response.json, { detail: 'The request headers are larger than 16 KiB.' });
    }
  });

  test('paths that are not percent-encoded UTF-8, or with a segment over 512 characters, are 422 naming the path', async () => {
    for (const path of ['/v1/products/acme/%E0%A4%A', '/v1/products/acme/%FF', '/v1/products/%/widgets', '/v1/default_products/' + 'a'.repeat(600)]) {
      const response = await t.request('GET', path);
      assert.equal(response.status, 422, path);
      assert.deepEqual(response.json.detail.map((d: { loc: string[]; type: string }) => [d.loc.join('.'), d.type]), [['path', 'url_invalid']], path);
    }
  });

  test('bodies are limited: 1 MiB, 10 MiB for ingestion, 5 MiB for webhooks; at the limit they are read', async () => {
    const padded = (size: number, prefix: string, suffix: string) => prefix + 'x'.repeat(size - prefix.length - suffix.length) + suffix;
    const atLimit = await t.request('PUT', '/v1/products/acme/widgets', { rawBody: padded(MiB, '{"products":[],"pad":"', '"}') });
    assert.equal(atLimit.status, 422, 'a 1 MiB body is read (and its unknown field refused)');
    const over = await t.request('PUT', '/v1/products/acme/widgets', { rawBody: padded(MiB + 1, '{"products":[],"pad":"', '"}') });
    assert.equal(over.status, 413);
    assert.match(over.json.detail, /larger/);
    const ingestion = await t.request('POST', '/v1/repos/acme/widgets/logs', { rawBody: padded(2 * MiB, '{"events":[],"pad":"', '"}') });
    assert.equal(ingestion.status, 422, 'ingestion reads bodies over 1 MiB');
    assert.equal((await t.request('POST', '/v1/repos/acme/widgets/logs', { rawBody: padded(10 * MiB + 1, '{"events":[],"pad":"', '"}') })).status, 413);
  });

  test('an integer literal of more than 4300 digits is refused before it is converted', async () => {
    const started = Date.now();
    const response = await t.request('PUT', '/v1/products/acme/widgets', { rawBody: `{"products":${'9'.repeat(900_000)}}` });
    assert.equal(response.status, 422);
    assert.equal(response.json.detail[0].type, 'json_invalid');
    assert.ok(Date.now() - started < 1_000, 'answered at once');
  });

  test('a request whose body stalls is given up after the request timeout, not held forever', () => {
    assert.ok(t.app.server.requestTimeout > 0 && t.app.server.requestTimeout <= 120_000, `requestTimeout is ${t.app.server.requestTimeout}`);
  });
});
