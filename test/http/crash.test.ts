// Crashes (issue #9): the real process is killed with SIGKILL in the middle of sustained event
// ingestion and scope reports, restarted on the same storage (the embedded store's lock file,
// left behind by the killed owner, is taken over), and every write it had acknowledged is
// there. Twice in a row, on the embedded store and on PostgreSQL.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends, privateSchemaUrl } from '../support/backends.ts';
import { SERVICE_TOKEN } from '../support/test-app.ts';
import { startSwitchyard, type StorageEnv, type SwitchyardProcess } from '../support/switchyard-process.ts';
import { LOAD_REPOSITORY, WriteLedger, runWriteLoad, verifyLedger } from '../support/write-load.ts';

const CYCLES = 2;

async function storageFor(backend: string): Promise<{ env: StorageEnv; dispose: () => Promise<void> }> {
  if (backend === 'pglite') {
    // A directory the process creates itself, so its mode is the process's doing.
    const parent = await mkdtemp(join(tmpdir(), 'switchyard-crash-'));
    return { env: { SWITCHYARD_DATA_DIR: join(parent, 'data') }, dispose: () => rm(parent, { recursive: true, force: true }) };
  }
  const { url, drop } = await privateSchemaUrl();
  return { env: { DATABASE_URL: url }, dispose: drop };
}

for (const backend of await backends()) {
  describe(`crash under load (${backend})`, () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    });

    test('SIGKILL during ingestion and scope reports, restart on the same storage: every acknowledged write is there', { timeout: 120_000 }, async (t) => {
      const storage = await storageFor(backend);
      cleanups.push(storage.dispose);
      let server: SwitchyardProcess = await startSwitchyard(storage.env);
      cleanups.push(() => server.kill());
      if (storage.env.SWITCHYARD_DATA_DIR) assert.equal((await stat(storage.env.SWITCHYARD_DATA_DIR)).mode & 0o777, 0o700, 'only the owner may enter the data directory');
      const registered = await fetch(`${server.baseUrl}/v1/admin/repos/${LOAD_REPOSITORY}`, { method: 'PUT', headers: { authorization: `Bearer ${SERVICE_TOKEN}` } });
      assert.equal(registered.status, 201);
      const ledger = new WriteLedger();

      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        const before = ledger.acknowledged();
        const current = server;
        const killed = new Promise<void>((resolve) => setTimeout(resolve, 1_500 + Math.random() * 1_000)).then(() => current.kill());
        await runWriteLoad({ baseUrl: () => current.baseUrl, ledger, until: killed, stopOnNoAnswer: true });
        await killed;
        assert.equal((await current.exited).signal, 'SIGKILL');
        assert.ok(ledger.acknowledged() > before, `cycle ${cycle}: writes were acknowledged before the kill`);

        server = await startSwitchyard(storage.env);
        const problems = await verifyLedger(server.baseUrl, ledger);
        assert.deepEqual(problems.slice(0, 10), [], `cycle ${cycle}: ${problems.length} acknowledged writes missing after the restart`);
      }
      const unanswered = ledger.outcomes.filter((o) => o.status >= 500);
      assert.deepEqual(unanswered, [], 'no request answered 5xx before the kill');
      assert.equal(await server.stop(), 0, 'a clean stop after the restarts');
      t.diagnostic(`${ledger.events.size} events, ${ledger.commits.size} commit and ${ledger.pulls.size} pull request reports acknowledged over ${CYCLES} kills`);
    });
  });
}
