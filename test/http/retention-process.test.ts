// SWITCHYARD_RETENTION_DAYS (DESIGN.md §1, §8) reaches the retention job of the real process: it
// runs at start with the configured number of days. Events are stored before the process starts
// (in a PostgreSQL schema both can open), 3 and 1 days old; with 2 days, only the older goes.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { exampleEvent } from '../fixtures/event-fixtures.ts';
import { validateIngestEvents } from '../../src/domain/events/index.ts';
import { registerRepository } from '../../src/services/register-repository.ts';
import { openStore } from '../../src/storage/store.ts';
import { backends, privateSchemaUrl } from '../support/backends.ts';
import { startSwitchyard } from '../support/switchyard-process.ts';

const DAY = 86_400_000;

describe('retention in the real process (postgres)', { skip: !(await backends()).includes('postgres') && 'needs PostgreSQL' }, () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('the job starts with SWITCHYARD_RETENTION_DAYS and removes what is older', async () => {
    const { url, drop } = await privateSchemaUrl();
    cleanups.push(drop);
    const store = await openStore({ databaseUrl: url, dataDir: 'unused' });
    const now = Date.now();
    try {
      const { repository } = await registerRepository(store, 'acme', 'widgets');
      const events = [3, 1].map((days) => ({ ...exampleEvent('action.label'), received_at: new Date(now - days * DAY).toISOString() }));
      const validation = validateIngestEvents(events, new Date(now));
      assert.ok(validation.ok);
      await store.events.insertBatch(repository.id, validation.events);
    } finally {
      await store.close();
    }
    const server = await startSwitchyard({ DATABASE_URL: url }, { LOG_LEVEL: 'info', SWITCHYARD_RETENTION_DAYS: '2' });
    cleanups.push(() => server.kill());
    const started = Date.now();
    while (!server.output().includes('retention: removed expired events') && Date.now() - started < 15_000) await sleep(100);
    const line = server.output().split('\n').find((l) => l.includes('retention: removed expired events'));
    assert.ok(line, `no retention run logged:\n${server.output()}`);
    assert.deepEqual({ removed: JSON.parse(line).removed, retentionDays: JSON.parse(line).retentionDays }, { removed: 1, retentionDays: 2 });
    const reader = await openStore({ databaseUrl: url, dataDir: 'unused' });
    try {
      const left = await reader.db.selectFrom('events').select('received_at').execute();
      assert.deepEqual(left.map((row) => row.received_at.getTime()), [now - DAY]);
    } finally {
      await reader.close();
    }
    assert.equal(await server.stop(), 0);
  });
});
