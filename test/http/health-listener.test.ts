// The health port (SWITCHYARD_HEALTH_PORT, src/http/health-listener.ts): /healthz and /readyz
// answered on a socket of their own, with the store's readiness; nothing else is served there.
// Then the real process with the port set, probed while its API port is flooded with connections
// that never send a request: the probe on the health port still answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startHealthListener } from '../../src/http/health-listener.ts';
import { freePort, spawnSwitchyard } from '../support/switchyard-process.ts';

test('the health port answers /healthz, /readyz as storage answers, and nothing else', async () => {
  let ready: Promise<void> = Promise.resolve();
  const warnings: string[] = [];
  const health = await startHealthListener('127.0.0.1', 0, { ready: () => ready, warn: (_fields, message) => warnings.push(message) });
  const base = `http://127.0.0.1:${health.port}`;
  try {
    const live = await fetch(`${base}/healthz`);
    assert.equal(live.status, 200);
    assert.deepEqual(await live.json(), { status: 'ok' });
    assert.equal((await fetch(`${base}/readyz`)).status, 200);
    ready = Promise.reject(new Error('connection refused'));
    ready.catch(() => undefined);
    const unready = await fetch(`${base}/readyz`);
    assert.equal(unready.status, 503);
    assert.ok(unready.headers.get('retry-after'));
    assert.deepEqual(warnings, ['storage not ready']);
    const other = await fetch(`${base}/v1/admin/keys`);
    assert.equal(other.status, 404);
    assert.match(((await other.json()) as { detail: string }).detail, /serves \/healthz and \/readyz/);
    const posted = await fetch(`${base}/healthz`, { method: 'POST', body: 'x' });
    assert.equal(posted.status, 405);
    assert.equal(posted.headers.get('allow'), 'GET, HEAD');
  } finally {
    await health.close();
  }
});

test('the process with SWITCHYARD_HEALTH_PORT answers its probes there while its API port is flooded', { timeout: 240_000 }, async () => {
  const [port, healthPort] = [await freePort(), await freePort()];
  const run = spawnSwitchyard({ LOG_LEVEL: 'info', PORT: String(port), SWITCHYARD_HEALTH_PORT: String(healthPort), SWITCHYARD_DATA_DIR: 'memory://', SWITCHYARD_MAX_CONNECTIONS: '300', SWITCHYARD_MAX_CONNECTIONS_PER_ADDRESS: '300' });
  const flood: net.Socket[] = [];
  try {
    const deadline = Date.now() + 180_000;
    while (!run.output().includes('switchyard ready')) {
      if (Date.now() > deadline) throw new Error(`not ready: ${run.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(run.output(), new RegExp(`"port":${healthPort}.*health port`));
    // Every connection the API port allows, held open without a request: the API port refuses
    // the next one (503 connections_limited), the health port does not share that limit.
    for (let i = 0; i < 300; i++) {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      flood.push(socket);
    }
    await Promise.all(flood.map((socket) => new Promise((resolve) => (socket.connecting ? socket.once('connect', resolve) : resolve(undefined)))));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const refused = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status, () => 0);
    assert.ok(refused === 503 || refused === 0, `the API port is full: ${refused}`);
    assert.equal((await fetch(`http://127.0.0.1:${healthPort}/healthz`, { signal: AbortSignal.timeout(5_000) })).status, 200);
    assert.equal((await fetch(`http://127.0.0.1:${healthPort}/readyz`, { signal: AbortSignal.timeout(5_000) })).status, 200);
    for (const socket of flood) socket.destroy();
    run.child.kill('SIGTERM');
    assert.equal((await run.exited).code, 0);
  } finally {
    for (const socket of flood) socket.destroy();
    run.child.kill('SIGKILL');
  }
});
