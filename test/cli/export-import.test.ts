// `switchyard export` / `import`: an embedded store's data moved to PostgreSQL and back, verified
// by every API read answering the same; and the imports refused: a store not empty, migrations
// that differ, a damaged dump (nothing written). `npm test` moves a few thousand events; the
// 100,000-event run is bench/export-import.ts (CI time).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends, privateSchemaUrl } from '../support/backends.ts';
import { openStore } from '../../src/storage/store.ts';
import { stateChecksum } from '../support/state-checksum.ts';
import { startTestApp } from '../support/test-app.ts';
import { cli } from '../support/cli-runner.ts';
import { populate, readEverything } from '../support/store-contents.ts';

const EVENTS = 2000;
const onPostgres = (await backends()).includes('postgres');

describe('export from the embedded store, import into PostgreSQL, and back', { skip: !onPostgres && 'needs PostgreSQL' }, () => {
  let dir = '';
  const drops: (() => Promise<void>)[] = [];
  let embeddedReads: string[] = [];
  let exported: { tables: { table: string; rows: number; checksum: string }[] };
  let postgresUrl = '';
  let exportedEvents = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-dump-'));
    const store = await openStore({ dataDir: join(dir, 'embedded') });
    const server = await startTestApp('pglite', store);
    await populate(server, EVENTS);
    embeddedReads = await readEverything(server);
    await server.close();
    await store.close();
  });
  after(async () => {
    for (const drop of drops) await drop();
    await rm(dir, { recursive: true, force: true });
  });

  test('export writes every table with its count and checksum', async () => {
    const result = await cli(['export', 'dump.jsonl.gz', '--json'], { cwd: dir, env: { SWITCHYARD_DATA_DIR: join(dir, 'embedded') } });
    assert.equal(result.code, 0, result.stderr);
    exported = JSON.parse(result.stdout);
    const rows = Object.fromEntries(exported.tables.map((t) => [t.table, t.rows]));
    exportedEvents = rows.events!;
    assert.ok(exportedEvents >= EVENTS, 'the ingested events and the product changes');
    assert.ok(rows.event_counts! > 0 && rows.cursor_signing_keys === 1 && rows.repositories === 2 && rows.application_keys === 2, JSON.stringify(rows));
    assert.ok(!('schema_migrations' in rows), 'migrations are compared, not copied');
  });

  test('import into PostgreSQL: every API read answers the same, cursors included', async () => {
    const { url, drop } = await privateSchemaUrl('sw_import');
    drops.push(drop);
    postgresUrl = url;
    const result = await cli(['import', join(dir, 'dump.jsonl.gz'), '--json'], { env: { DATABASE_URL: url } });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), exported, 'verified counts and checksums are the exported ones');
    const store = await openStore({ databaseUrl: url, dataDir: 'unused' });
    const server = await startTestApp('postgres', store);
    try {
      const reads = await readEverything(server);
      assert.equal(reads.length, embeddedReads.length);
      for (let i = 0; i < reads.length; i++) assert.equal(reads[i], embeddedReads[i]);
      // Writing goes on from where the embedded store stopped: the next id follows the last one.
      const written = await server.request('POST', '/v1/repos/acme/widgets/logs', { body: { events: [{ type: 'action.refresh', trigger: 't', metadata: {} }] } });
      assert.equal(written.status, 201);
      assert.equal(BigInt(written.json.ids[0]), BigInt(exportedEvents) + 1n);
    } finally {
      await server.close();
      await store.close();
    }
  });

  test('a store that is not empty is refused, and left as it was', async () => {
    const store = await openStore({ databaseUrl: postgresUrl, dataDir: 'unused' });
    const before = await stateChecksum(store);
    const again = await cli(['import', join(dir, 'dump.jsonl.gz')], { env: { DATABASE_URL: postgresUrl } });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /import refused: this store is not empty \(table \w+ has \d+ rows\)/);
    assert.deepEqual(await stateChecksum(store), before);
    await store.close();
  });

  test('a damaged dump or one at other migrations is refused, and nothing is written', async () => {
    const text = (await cli(['export', 'plain.jsonl'], { cwd: dir, env: { DATABASE_URL: postgresUrl } })).code === 0 ? await readFile(join(dir, 'plain.jsonl'), 'utf8') : '';
    assert.ok(text.length > 0);
    const lines = text.split('\n');
    const damaged = [...lines];
    const row = damaged.findIndex((line, i) => line.startsWith('[') && lines.slice(0, i).some((l) => l.startsWith('{"table":"events"')));
    const values = JSON.parse(damaged[row]!) as string[];
    values[5] += ' (edited)'; // the trigger: the row still loads, only the checksum can tell
    damaged[row] = JSON.stringify(values);
    await writeFile(join(dir, 'damaged.jsonl'), damaged.join('\n'));
    const header = JSON.parse(lines[0]!);
    header.migrations.pop();
    await writeFile(join(dir, 'older.jsonl'), [JSON.stringify(header), ...lines.slice(1)].join('\n'));

    const { url, drop } = await privateSchemaUrl('sw_import');
    drops.push(drop);
    for (const [file, reason] of [['damaged.jsonl', /the dump is damaged: table events should hold/], ['older.jsonl', /the dump was taken at migrations .* but this store is at /]] as const) {
      const refused = await cli(['import', join(dir, file)], { env: { DATABASE_URL: url } });
      assert.equal(refused.code, 1, file);
      assert.match(refused.stderr, reason);
    }
    const store = await openStore({ databaseUrl: url, dataDir: 'unused' });
    const rows = Object.fromEntries((await stateChecksum(store)).map((t) => [t.table, t.rows]));
    await store.close();
    assert.deepEqual([rows.events, rows.repositories, rows.cursor_signing_keys], [0, 0, 1], 'only what the migrations wrote');
  });

  test('and back: PostgreSQL exported into a new embedded store holds the same counts and checksums', async () => {
    const back = await cli(['export', 'back.jsonl', '--json'], { cwd: dir, env: { DATABASE_URL: postgresUrl } });
    assert.equal(back.code, 0, back.stderr);
    const result = await cli(['import', 'back.jsonl', '--json'], { cwd: dir, env: { SWITCHYARD_DATA_DIR: join(dir, 'embedded-again') } });
    assert.equal(result.code, 0, result.stderr);
    const tables = JSON.parse(result.stdout).tables as { table: string; rows: number }[];
    assert.equal(tables.find((t) => t.table === 'events')!.rows, exportedEvents + 1);
    assert.deepEqual(JSON.parse(result.stdout), JSON.parse(back.stdout));
  });
});
