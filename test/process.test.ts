// The real process, started as `npm start` starts it: a newcomer's first run (generated
// service token → application key → authenticated answer), a bad setting stopping start-up
// with one line, and SIGTERM closing cleanly.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import net from 'node:net';
import { join } from 'node:path';
import { freePort, spawnSwitchyard } from './support/switchyard-process.ts';

/** As `npm start` starts it: no service token given (one is generated), logs at info. */
const startSwitchyard = (env: Record<string, string>) => spawnSwitchyard({ LOG_LEVEL: 'info', ...env });

async function waitFor(condition: () => boolean, what: string, ms = 180_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the switchyard process', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  test('first run on the embedded store: generated token, a key, an authenticated answer, clean SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'switchyard-data-'));
    dirs.push(dataDir);
    const port = await freePort();
    const run = startSwitchyard({ PORT: String(port), SWITCHYARD_DATA_DIR: dataDir });
    try {
      await waitFor(() => run.output().includes('switchyard ready'), 'start-up');
      const tokenFile = join(dataDir, 'service-token');
      assert.equal((await stat(tokenFile)).mode & 0o777, 0o600);
      const token = (await readFile(tokenFile, 'utf8')).trim();
      assert.ok(!run.output().includes(token), 'the token is never logged');

      const base = `http://127.0.0.1:${port}`;
      const created = await fetch(`${base}/v1/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ owner: 'acme', scope: 'admin', name: 'first key' }),
      });
      assert.equal(created.status, 201);
      const { key } = (await created.json()) as { key: string };
      assert.match(key, /^swy_/);
      const answer = await fetch(`${base}/v1/default_products/acme`, { headers: { authorization: `Bearer ${key}` } });
      assert.notEqual(answer.status, 403);
      assert.ok(!run.output().includes(key), 'keys are never logged');
      assert.match(run.output(), /"reqId"/, 'logs are JSON lines with a request id');

      run.child.kill('SIGTERM');
      assert.equal((await run.exited).code, 0);
      assert.match(run.output(), /shutting down/);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  test("a second process on the same data directory is refused; a killed owner's lock is taken over", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'switchyard-data-'));
    dirs.push(dataDir);
    const first = startSwitchyard({ PORT: String(await freePort()), SWITCHYARD_DATA_DIR: dataDir });
    try {
      await waitFor(() => first.output().includes('switchyard ready'), 'first start-up');
      const second = startSwitchyard({ PORT: String(await freePort()), SWITCHYARD_DATA_DIR: dataDir });
      assert.equal((await second.exited).code, 1);
      assert.match(second.output(), new RegExp(`data directory .* is in use by process ${first.child.pid}`));
      first.child.kill('SIGKILL');
      await first.exited;
      const third = startSwitchyard({ PORT: String(await freePort()), SWITCHYARD_DATA_DIR: dataDir });
      try {
        await waitFor(() => third.output().includes('switchyard ready'), 'start-up after a crash');
      } finally {
        third.child.kill('SIGTERM');
        assert.equal((await third.exited).code, 0);
      }
    } finally {
      first.child.kill('SIGKILL');
    }
  });

  test('SIGTERM exits even while clients hold connections that never send a request', { timeout: 180_000 }, async () => {
    const port = await freePort();
    const run = startSwitchyard({ PORT: String(port), SWITCHYARD_DATA_DIR: 'memory://' });
    const idle: net.Socket[] = [];
    try {
      await waitFor(() => run.output().includes('switchyard ready'), 'start-up');
      for (let i = 0; i < 5; i++) idle.push(net.connect(port, '127.0.0.1').on('error', () => undefined));
      await Promise.all(idle.map((socket) => new Promise((resolve) => socket.once('connect', resolve))));
      run.child.kill('SIGTERM');
      // Node stops timing out request-less connections once the server closes: before, this waited forever.
      assert.equal((await run.exited).code, 0);
      assert.match(run.output(), /closing the connections still open/);
    } finally {
      for (const socket of idle) socket.destroy();
      run.child.kill('SIGKILL');
    }
  });

  for (const [name, value] of [['PORT', 'eighty'], ['DATABASE_URL', 'mysql://x'], ['SWITCHYARD_RETENTION_DAYS', '0'], ['LOG_LEVEL', 'loud'], ['SWITCHYARD_SERVICE_TOKEN', 'short']] as const) {
    test(`a bad ${name} stops start-up with one clear line`, async () => {
      const run = startSwitchyard({ [name]: value, SWITCHYARD_DATA_DIR: 'memory://' });
      assert.equal((await run.exited).code, 2);
      const lines = run.output().trim().split('\n');
      assert.equal(lines.length, 1, run.output());
      assert.match(lines[0]!, new RegExp(`configuration error: ${name}`));
    });
  }
});
