// Connections and slow clients (issue 20, item 3): 21,000 idle half-sent connections from one
// client locked every other client out for about 80 s per wave. Connections are now capped in
// all and per client address, the excess refused at once, and headers, bodies and idle
// keep-alive connections given only the time a legitimate client needs. Through real sockets on
// loopback (127.0.0.2 and up are other clients); storage plays no part, so PGlite only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { rawRequest, requestHead, type RawRequest } from '../support/raw-http.ts';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';

const HALF_SENT = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Waiting: ';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A complete request from `from` on a connection of its own. */
function call(t: TestApp, from: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = { authorization: `Bearer ${SERVICE_TOKEN}`, ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}) };
  return new Promise((resolve, reject) => {
    const request = http.request(`${t.baseUrl}${path}`, { method, headers, localAddress: from, agent: false }, (response) => {
      let received = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (received += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: received }));
    });
    request.on('error', reject);
    request.end(text);
  });
}

/** Opens `count` connections from `from`, one after the other, each sending the start of a request and no more. */
async function halfSent(t: TestApp, from: string, count: number): Promise<RawRequest[]> {
  const opened: RawRequest[] = [];
  for (let i = 0; i < count; i++) {
    const request = rawRequest(t.baseUrl, HALF_SENT, { from, waitMs: 5000 });
    await new Promise((resolve) => request.socket.once('connect', resolve));
    opened.push(request);
  }
  return opened;
}

/** Connections the server counts as open, read from /metrics (the asking one included). */
async function openConnections(t: TestApp): Promise<number> {
  return Number(/^switchyard_connections_open (\d+)$/m.exec((await call(t, '127.0.0.2', 'GET', '/metrics')).body)?.[1]);
}

/** Waits until the server has seen closed what the test closed: at most `count` open besides the asking one. */
async function settled(t: TestApp, count: number): Promise<void> {
  for (const started = Date.now(); (await openConnections(t)) > count + 1; await sleep(50)) {
    if (Date.now() - started > 5000) assert.fail(`still more than ${count} connections open after 5 s`);
  }
}

/** Whether the server has neither answered nor closed `request` within `ms`. */
async function stillWaiting(request: RawRequest, ms = 300): Promise<boolean> {
  return Promise.race([request.answer.then(() => false), sleep(ms).then(() => !request.socket.destroyed && request.socket.bytesRead === 0)]);
}

describe('connection caps', () => {
  let t: TestApp;
  const open: RawRequest[] = [];

  before(async () => {
    // Headers may take 30 s here, so the half-sent connections stay while the caps are checked.
    t = await startTestApp('pglite', undefined, {
      limits: { connectionsTotal: 12, connectionsPerAddress: 4, headersTimeoutMs: 30_000 },
      trustedProxies: ['127.0.0.5'],
    });
  });
  after(async () => {
    for (const request of open) request.socket.destroy();
    await t.close();
  });

  test('past its cap a client is refused at once, while another client is still served', async () => {
    const flood = await halfSent(t, '127.0.0.3', 7);
    open.push(...flood);
    const refused = await Promise.all(flood.slice(4).map((request) => request.answer));
    for (const answer of refused) {
      assert.equal(answer.status, 503);
      assert.match(answer.headers, /\r\nretry-after: 5\r\n/i);
      assert.match(JSON.parse(answer.body).detail, /as many connections open as it may/);
    }
    for (const request of flood.slice(0, 4)) assert.ok(await stillWaiting(request), 'the first four are kept, waiting for their headers');

    const health = await call(t, '127.0.0.2', 'GET', '/healthz');
    assert.equal(health.status, 200);
    assert.equal((await call(t, '127.0.0.2', 'GET', '/readyz')).status, 200);
    const created = await call(t, '127.0.0.2', 'POST', '/v1/admin/keys', { owner: 'acme', scope: 'ci', name: 'served beside a flood' });
    assert.equal(created.status, 201, created.body);
    assert.match((await call(t, '127.0.0.2', 'GET', '/metrics')).body, /^switchyard_connections_refused_total\{limit="address"\} 3$/m);
    await settled(t, 4);
    assert.equal(await openConnections(t), 5, 'the four kept and the one asking');

    // A connection closed gives its place back.
    for (const request of flood) request.socket.destroy();
    await settled(t, 0);
    const again = await halfSent(t, '127.0.0.3', 4);
    open.push(...again);
    for (const request of again) assert.ok(await stillWaiting(request, 100));
    for (const request of again) request.socket.destroy();
    await settled(t, 0);
  });

  test('past the total, every new connection is refused until one closes', async () => {
    const first = await halfSent(t, '127.0.0.3', 4);
    const second = await halfSent(t, '127.0.0.4', 4);
    const third = await halfSent(t, '127.0.0.6', 4);
    open.push(...first, ...second, ...third);
    for (const request of third) assert.ok(await stillWaiting(request, 100), 'twelve in all are kept');
    const refused = await call(t, '127.0.0.2', 'GET', '/healthz');
    assert.equal(refused.status, 503);
    assert.match(JSON.parse(refused.body).detail, /connections/);
    first[0]!.socket.destroy();
    let answer = 503;
    for (const started = Date.now(); answer === 503 && Date.now() - started < 5000; await sleep(50)) answer = (await call(t, '127.0.0.2', 'GET', '/healthz')).status;
    assert.equal(answer, 200, 'served once the server has seen one close');
    for (const request of [...first, ...second, ...third]) request.socket.destroy();
    await settled(t, 0);
  });

  test("a trusted proxy's connections count in the total only: its clients are all behind its one address", async () => {
    const proxied = await halfSent(t, '127.0.0.5', 8);
    open.push(...proxied);
    for (const request of proxied) assert.ok(await stillWaiting(request, 100), 'more than the per-address cap from the proxy');
    const direct = await halfSent(t, '127.0.0.3', 4);
    open.push(...direct);
    const past = await halfSent(t, '127.0.0.5', 1);
    open.push(...past);
    assert.equal((await past[0]!.answer).status, 503, 'the thirteenth connection passes the total');
    for (const request of [...proxied, ...direct]) request.socket.destroy();
  });
});

describe('slow clients', () => {
  let t: TestApp;
  const open: Socket[] = [];

  before(async () => {
    t = await startTestApp('pglite', undefined, { limits: { headersTimeoutMs: 1000, bodyStallTimeoutMs: 2000, keepAliveTimeoutMs: 1000 } });
  });
  after(async () => {
    for (const socket of open) socket.destroy();
    await t.close();
  });

  /** Milliseconds until the server closes `socket`; Infinity past `limitMs`. */
  const closedAfter = (socket: Socket, limitMs: number) => {
    const started = performance.now();
    return new Promise<number>((resolve) => {
      socket.once('close', () => resolve(performance.now() - started));
      setTimeout(() => resolve(Infinity), limitMs).unref();
    });
  };

  test('headers not sent in full within the header timeout: 408, and the connection is closed', async () => {
    const request = rawRequest(t.baseUrl, HALF_SENT, { waitMs: 6000 });
    const idle = connect({ port: Number(new URL(t.baseUrl).port), host: '127.0.0.1' });
    idle.on('error', () => undefined);
    idle.resume(); // reads, so that it sees the server close
    open.push(request.socket, idle);
    const [answer, idleMs, halfMs] = await Promise.all([request.answer, closedAfter(idle, 6000), closedAfter(request.socket, 6000)]);
    assert.equal(answer.status, 408);
    assert.equal(JSON.parse(answer.body).detail, 'The request did not arrive in time.');
    assert.ok(halfMs < 5000, `the half-sent connection closed after ${halfMs} ms`);
    assert.ok(idleMs < 5000, `a connection that sent nothing closed after ${idleMs} ms`);
  });

  test('a body that stops mid-way: 408 after the stall timeout, long before the request timeout', async () => {
    const head = requestHead('POST', '/v1/admin/keys', { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json', 'content-length': 100 });
    const request = rawRequest(t.baseUrl, head, { waitMs: 8000 });
    open.push(request.socket);
    const started = performance.now();
    await request.send('{"owner": "acme", ');
    const answer = await request.answer;
    const ms = performance.now() - started;
    assert.equal(answer.status, 408);
    assert.equal(JSON.parse(answer.body).detail, 'The request body stopped arriving for more than 2 s.');
    assert.ok(ms >= 1500 && ms < 7000, `answered after ${ms} ms`);
  });

  test('a slow body that keeps coming is read to the end, however long it takes in all', async () => {
    const body = Buffer.from(JSON.stringify({ owner: 'acme', scope: 'ci', name: 'a slow client' }));
    const head = requestHead('POST', '/v1/admin/keys', { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json', 'content-length': body.length });
    const request = rawRequest(t.baseUrl, head, { waitMs: 15_000 });
    open.push(request.socket);
    const started = performance.now();
    // About 3.5 s in all, a pause of 0.2 s at most: under the 2 s stall timeout each time.
    for (let at = 0; at < body.length; at += 3) {
      await request.send(body.subarray(at, at + 3));
      await sleep(200);
    }
    const answer = await request.answer;
    assert.ok(performance.now() - started > 2000, 'longer than the stall timeout in all');
    assert.equal(answer.status, 201, answer.body);
  });

  test('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const request = rawRequest(t.baseUrl, requestHead('GET', '/healthz', {}), { waitMs: 6000 });
    open.push(request.socket);
    assert.equal((await request.answer).status, 200);
    const ms = await closedAfter(request.socket, 6000);
    assert.ok(ms < 5000, `closed ${ms} ms after the answer`);
  });
});
