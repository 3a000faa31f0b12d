// SIGTERM (DESIGN.md §1): the process stops accepting connections, finishes the requests in
// flight, closes the store, and exits 0. A request is held in flight by a pull request's lock
// taken from outside the process, which needs a database two processes share: PostgreSQL.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { backends, privateSchemaUrl } from '../support/backends.ts';
import { SERVICE_TOKEN } from '../support/test-app.ts';
import { startSwitchyard } from '../support/switchyard-process.ts';

const refusesConnections = (baseUrl: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

describe('SIGTERM with a request in flight (postgres)', { skip: !(await backends()).includes('postgres') && 'needs PostgreSQL' }, () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('new connections are refused, the request in flight is answered and written, then the process exits 0', async () => {
    const { url, drop } = await privateSchemaUrl();
    cleanups.push(drop);
    const server = await startSwitchyard({ DATABASE_URL: url }, { LOG_LEVEL: 'info' });
    cleanups.push(() => server.kill());
    const call = (method: string, path: string, body?: unknown) =>
      fetch(server.baseUrl + path, { method, headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json', connection: 'close' }, body: body === undefined ? undefined : JSON.stringify(body) });
    assert.equal((await call('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
    assert.equal((await call('PUT', '/v1/admin/repos/acme/widgets/pulls/5', { state: 'open', head_sha: 'a'.repeat(40) })).status, 204);

    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('BEGIN');
    await holder.query(`SELECT lock_pull_request(id, 5) FROM repositories WHERE owner = 'acme' AND name = 'widgets'`);
    let answered = false;
    const report = call('PUT', '/v1/repos/acme/widgets/pulls/5/scopes', { scopes: ['api'] }).finally(() => (answered = true));
    await sleep(300);
    assert.equal(answered, false, 'the report is waiting for the lock');

    let exited = false;
    void server.exited.then(() => (exited = true));
    server.child.kill('SIGTERM');
    await sleep(500);
    assert.equal(await refusesConnections(server.baseUrl), true, 'no new connection is accepted');
    assert.equal(exited, false, 'the process waits for the request in flight');

    await holder.query('COMMIT');
    const response = await report;
    assert.equal(response.status, 204, await response.text());
    assert.deepEqual((await server.exited).code, 0);
    const { rows } = await holder.query('SELECT scopes FROM pull_scope_reports WHERE number = 5');
    assert.deepEqual(rows, [{ scopes: ['api'] }], 'the answered report was written');
    assert.match(server.output(), /shutting down/);
  });
});
