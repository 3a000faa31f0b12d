// Moves an embedded store holding --events activity-log events (default 100,000, ingested through
// the API) to PostgreSQL with `switchyard export` / `import`, then checks that every API read of
// test/support/store-contents.ts answers the same on both. Prints the time of each step, the
// dump's size and the load average. `npm test` runs the same check with 2,000 events
// (test/cli/export-import.test.ts).
//   npx tsx bench/export-import.ts [--events 100000]
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/storage/store.ts';
import { privateSchemaUrl } from '../test/support/backends.ts';
import { cli } from '../test/support/cli-runner.ts';
import { populate, readEverything } from '../test/support/store-contents.ts';
import { startTestApp } from '../test/support/test-app.ts';

const { values } = parseArgs({ options: { events: { type: 'string', default: '100000' } } });
const events = Number(values.events);
const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-dump-'));
const { url, drop } = await privateSchemaUrl('sw_bench');
const timed = async <T>(what: string, step: () => Promise<T>): Promise<T> => {
  const started = Date.now();
  const result = await step();
  console.log(`${what.padEnd(44)} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
};
const ok = (result: { code: number; stderr: string }) => assert.equal(result.code, 0, result.stderr);

try {
  console.log(`export-import: ${events} events; load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  const embedded = await openStore({ dataDir: join(dir, 'embedded') });
  const source = await startTestApp('pglite', embedded);
  await timed(`ingest ${events} events (embedded, HTTP)`, () => populate(source, events));
  const before = await timed('read everything (embedded)', () => readEverything(source));
  await source.close();
  await embedded.close();

  await timed('switchyard export (embedded → dump.jsonl.gz)', async () => ok(await cli(['export', 'dump.jsonl.gz'], { cwd: dir, env: { SWITCHYARD_DATA_DIR: join(dir, 'embedded') } })));
  console.log(`${'dump size'.padEnd(44)} ${((await stat(join(dir, 'dump.jsonl.gz'))).size / 1e6).toFixed(1)} MB`);
  await timed('switchyard import (dump → PostgreSQL)', async () => ok(await cli(['import', 'dump.jsonl.gz'], { cwd: dir, env: { DATABASE_URL: url } })));

  const target = await openStore({ databaseUrl: url, dataDir: 'unused' });
  const moved = await startTestApp('postgres', target);
  const after = await timed('read everything (PostgreSQL)', () => readEverything(moved));
  await moved.close();
  await target.close();
  assert.equal(after.length, before.length);
  for (let i = 0; i < after.length; i++) assert.equal(after[i], before[i]);
  console.log(`every read answers the same: ${after.length} responses (pages followed)`);
  console.log(`load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
} finally {
  await drop();
  await rm(dir, { recursive: true, force: true });
}
