// The two storage backends behind one SQL: every test body runs on PGlite (in a worker thread) and
// on PostgreSQL, and both must give the same values, transactions and errors.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { Kysely, sql, type Dialect } from 'kysely';
import pg from 'pg';
import { DatabaseError, DatabaseUnavailableError } from '../src/storage/drivers/database-errors.ts';
import { checkDatabaseLiveness } from '../src/storage/drivers/liveness.ts';
import { createPgliteDialect } from '../src/storage/drivers/pglite-dialect.ts';
import { PGLITE_WORKER_URL, PgliteWorkerClient, startPgliteWorker } from '../src/storage/drivers/pglite-worker-client.ts';
import { createPostgresDialect, type PostgresDialectConfig } from '../src/storage/drivers/postgres-dialect.ts';
import { openStore, storeOptions } from '../src/storage/store.ts';
import { loadConfig } from '../src/config.ts';
import { privateSchemaUrl } from './support/backends.ts';

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REQUIRE_POSTGRES = process.env.SWITCHYARD_REQUIRE_POSTGRES === '1';
const TEST_SCHEMA = `sw_test_${randomBytes(6).toString('hex')}`;
const INT8_MAX = 9223372036854775807n;

type Db = Kysely<any>;
const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function open(dialect: Dialect): Db {
  const db = new Kysely<any>({ dialect });
  cleanups.push(() => db.destroy());
  return db;
}

/** The private schema for this run, through the connection's startup options. */
function postgresConfig(overrides: Partial<PostgresDialectConfig> = {}): PostgresDialectConfig {
  const url = new URL(overrides.connectionString ?? POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${TEST_SCHEMA}`);
  return { ...overrides, connectionString: url.toString() };
}

async function createTestSchema(): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  await admin.connect();
  try {
    await admin.query(`create schema ${TEST_SCHEMA}`);
  } finally {
    await admin.end();
  }
  cleanups.unshift(async () => {
    const dropper = new pg.Client({ connectionString: POSTGRES_URL });
    await dropper.connect();
    await dropper.query(`drop schema ${TEST_SCHEMA} cascade`);
    await dropper.end();
  });
}

let pgliteDb: Promise<Db> | undefined;
let postgresDb: Promise<Db | Error> | undefined;

async function openPostgres(): Promise<Db | Error> {
  try {
    await createTestSchema();
  } catch (error) {
    return error as Error;
  }
  const db = open(createPostgresDialect(postgresConfig()));
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  assert.equal(rows[0]?.schema, TEST_SCHEMA, 'tests must never touch a shared schema');
  return db;
}

const backends = {
  pglite: async (): Promise<Db> => (pgliteDb ??= Promise.resolve(open(createPgliteDialect({ dataDir: 'memory://' })))),
  postgres: async (t: TestContext): Promise<Db | undefined> => {
    const db = await (postgresDb ??= openPostgres());
    if (!(db instanceof Error)) return db;
    if (REQUIRE_POSTGRES) throw new Error(`SWITCHYARD_REQUIRE_POSTGRES=1 but ${POSTGRES_URL} does not answer`, { cause: db });
    t.skip(`PostgreSQL at ${POSTGRES_URL} does not answer: ${db.message}`);
    return undefined;
  },
};
type BackendName = keyof typeof backends;

/** Defines the test once per backend; the body never knows which one it runs on. */
function testEachBackend(name: string, body: (db: Db) => Promise<void>): void {
  for (const backend of Object.keys(backends) as BackendName[]) {
    test(`${backend}: ${name}`, async (t) => {
      const db = await backends[backend](t);
      if (db) await body(db);
    });
  }
}

testEachBackend('values come back as the same JS types', async (db) => {
  await sql`create table typed (
    big int8, num numeric, doc json, docb jsonb, at timestamptz, local timestamp,
    flag bool, small int4, tiny int2, ratio float8, tags text[], ids int8[], day date, bytes bytea)`.execute(db);
  const at = new Date('2024-02-29T23:59:58.123Z');
  const doc = '{"n": 12345678901234567890,  "a":[1,2]}';
  await db
    .insertInto('typed')
    .values({ big: INT8_MAX, num: '12345678901234567890.5', doc, docb: doc, at, local: at, flag: true,
      small: 2147483647, tiny: -3, ratio: 0.1, tags: ['a', 'b,c', 'NULL', 'null', 'nUlL', null, 'q"\\', '', ' padded ', '{x}', 'a b', 'x.y:z+1-2_3'], ids: [INT8_MAX, 1n], day: '2024-02-29',
      bytes: new Uint8Array([1, 2, 255]) })
    .execute();

  const row = await db.selectFrom('typed').selectAll().where('big', '=', INT8_MAX).executeTakeFirstOrThrow();
  assert.deepEqual(row, {
    big: '9223372036854775807',
    num: '12345678901234567890.5',
    doc, // json: the exact text stored, spacing included
    docb: '{"a": [1, 2], "n": 12345678901234567890}', // jsonb: PostgreSQL's canonical text, number exact
    at,
    local: at, // timestamp without time zone is read as UTC
    flag: true,
    small: 2147483647,
    tiny: -3,
    ratio: 0.1,
    tags: ['a', 'b,c', 'NULL', 'null', 'nUlL', null, 'q"\\', '', ' padded ', '{x}', 'a b', 'x.y:z+1-2_3'],
    ids: ['9223372036854775807', '1'],
    day: '2024-02-29', // date: as text, so no time zone can move it to another day
    bytes: Buffer.from([1, 2, 255]),
  });
});

testEachBackend('bigint parameters, timestamps and the session time zone', async (db) => {
  const { rows } = await sql<Record<string, unknown>>`select
      ${-INT8_MAX - 1n}::int8 as min,
      ${INT8_MAX}::int8 + 0 as max,
      '2024-01-02 03:04:05.678999+02'::timestamptz as micro,
      ${new Date('1999-12-31T23:59:59.999Z')}::timestamptz + interval '1 ms' as millennium,
      '0099-01-01 00:00:00+00'::timestamptz as early,
      '0044-03-15 12:00:00+00 BC'::timestamptz as ides,
      'infinity'::timestamptz as forever,
      current_setting('TimeZone') as zone,
      null::int8 as nothing`.execute(db);
  assert.deepEqual(rows[0], {
    min: '-9223372036854775808',
    max: '9223372036854775807',
    micro: new Date('2024-01-02T01:04:05.678Z'), // microseconds truncated: a Date holds milliseconds
    millennium: new Date('2000-01-01T00:00:00.000Z'),
    early: new Date('0099-01-01T00:00:00.000Z'),
    ides: new Date('-000043-03-15T12:00:00.000Z'), // 44 BC is astronomical year -43
    forever: Infinity,
    zone: 'UTC',
    nothing: null,
  });
});

testEachBackend('a committed transaction stays, a failed one leaves nothing', async (db) => {
  await sql`create table ledger (id serial primary key, note text not null)`.execute(db);
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('ledger').values({ note: 'kept' }).execute();
  });
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await trx.insertInto('ledger').values({ note: 'discarded' }).execute();
      throw new Error('changed my mind');
    }),
    /changed my mind/,
  );
  const notes = await db.selectFrom('ledger').select('note').execute();
  assert.deepEqual(notes, [{ note: 'kept' }]);
});

testEachBackend('a savepoint undoes part of a transaction', async (db) => {
  await sql`create table steps (name text)`.execute(db);
  const trx = await db.startTransaction().execute();
  await trx.insertInto('steps').values({ name: 'first' }).execute();
  const saved = await trx.savepoint('before "second"').execute();
  await saved.insertInto('steps').values({ name: 'second' }).execute();
  const restored = await saved.rollbackToSavepoint('before "second"').execute();
  await restored.releaseSavepoint('before "second"').execute();
  await restored.commit().execute();
  assert.deepEqual(await db.selectFrom('steps').select('name').execute(), [{ name: 'first' }]);
});

testEachBackend('a query from outside never sees an uncommitted row', async (db) => {
  await sql`create table drafts (name text)`.execute(db);
  let outside: Promise<unknown[]> | undefined;
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await trx.insertInto('drafts').values({ name: 'ghost' }).execute();
      // On PGlite this must wait for the transaction's end instead of running inside it.
      outside = db.selectFrom('drafts').selectAll().execute();
      await sleep(50);
      throw new Error('rollback');
    }),
  );
  assert.deepEqual(await outside, []);
});

testEachBackend('20 concurrent read-increment-write transactions all count', async (db) => {
  await sql`create table counters (id int primary key, value int not null)`.execute(db);
  await db.insertInto('counters').values({ id: 1, value: 0 }).execute();
  const increment = () =>
    db.transaction().execute(async (trx) => {
      const { value } = await trx.selectFrom('counters').select('value').where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
      await sleep(1); // give the other transactions every chance to interleave
      await trx.updateTable('counters').set({ value: value + 1 }).where('id', '=', 1).execute();
    });
  await Promise.all(Array.from({ length: 20 }, increment));
  const { value } = await db.selectFrom('counters').select('value').where('id', '=', 1).executeTakeFirstOrThrow();
  assert.equal(value, 20);
});

testEachBackend('PostgreSQL error codes reach the caller', async (db) => {
  await sql`create table accounts (login text constraint accounts_login_key unique)`.execute(db);
  await db.insertInto('accounts').values({ login: 'octocat' }).execute();
  const duplicate = await db.insertInto('accounts').values({ login: 'octocat' }).execute().catch((error: unknown) => error);
  assert.ok(duplicate instanceof DatabaseError, `expected a DatabaseError, got ${String(duplicate)}`);
  assert.equal(duplicate.code, '23505');
  assert.equal(duplicate.constraint, 'accounts_login_key');
  assert.equal(duplicate.table, 'accounts');
  assert.match(duplicate.detail ?? '', /\(login\)=\(octocat\) already exists/);
  assert.match(duplicate.message, /duplicate key value violates unique constraint/);

  // The failed transaction is rolled back and the session is usable straight after.
  await assert.rejects(
    db.transaction().execute((trx) => trx.insertInto('accounts').values({ login: 'octocat' }).execute()),
    (error: unknown) => error instanceof DatabaseError && error.code === '23505',
  );
  await assert.rejects(sql`selec 1`.execute(db), (error: unknown) => error instanceof DatabaseError && error.code === '42601');
  const { count } = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  assert.equal(count, '1');
});

testEachBackend('several statements without parameters run as one script', async (db) => {
  const result = await sql
    .raw(`create table script_run (id int primary key);
          insert into script_run values (1);
          insert into script_run values (2);`)
    .execute(db);
  assert.deepEqual(result.rows, []);
  const inserted = await db.insertInto('script_run').values([{ id: 3 }, { id: 4 }]).executeTakeFirstOrThrow();
  assert.equal(inserted.numInsertedOrUpdatedRows, 2n);
  const ids = await db.selectFrom('script_run').select('id').orderBy('id').execute();
  assert.deepEqual(ids.map((row) => row.id), [1, 2, 3, 4]);
});

testEachBackend('a slow query leaves the event loop free', async (db) => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  try {
    await sql`select pg_sleep(0.5)`.execute(db);
  } finally {
    clearInterval(timer);
  }
  // About 50 ticks in 500 ms; a blocked loop would manage at most one.
  assert.ok(ticks >= 20, `only ${ticks} timer ticks during a 500 ms query`);
});

testEachBackend('liveness check answers', async (db) => {
  await checkDatabaseLiveness(db);
});

test('pglite: a database directory survives closing and reopening', async () => {
  const root = await mkdtemp(join(tmpdir(), 'switchyard-pglite-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const dataDir = join(root, 'nested', 'db'); // missing parents are created
  const first = new Kysely<any>({ dialect: createPgliteDialect({ dataDir }) });
  await sql`create table kept (id int8, note text)`.execute(first);
  await first.insertInto('kept').values({ id: INT8_MAX, note: 'still here' }).execute();
  await first.destroy();

  const second = open(createPgliteDialect({ dataDir }));
  assert.deepEqual(await second.selectFrom('kept').selectAll().execute(), [{ id: '9223372036854775807', note: 'still here' }]);
});

test('pglite: a dead worker fails pending and later queries instead of hanging', async () => {
  const worker = new Worker(PGLITE_WORKER_URL, { workerData: { dataDir: 'memory://' }, execArgv: [] });
  const client = await PgliteWorkerClient.start(worker);
  const pending = client.query('select pg_sleep(30)', []);
  await sleep(100);
  await worker.terminate(); // what a crash looks like from the main thread: the worker is gone
  await assert.rejects(pending, DatabaseUnavailableError);
  await assert.rejects(client.query('select 1', []), DatabaseUnavailableError);
});

test('pglite: a data directory that cannot be opened fails the start', async () => {
  const root = await mkdtemp(join(tmpdir(), 'switchyard-pglite-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const file = join(root, 'not-a-directory');
  await writeFile(file, 'x');
  await assert.rejects(startPgliteWorker({ dataDir: join(file, 'db') }), /ENOTDIR|EEXIST|not a directory/);
});

/** A TCP hop to PostgreSQL that the test can cut, make silent, or restore. */
class FlakyProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  silent = false;

  constructor(target: { host: string; port: number }) {
    this.#server = createServer((socket) => {
      this.#track(socket);
      if (this.silent) return; // accepts, never answers: like a host that is down behind a firewall
      const upstream = this.#track(connect(target.port, target.host));
      socket.pipe(upstream).pipe(socket);
    });
  }

  #track(socket: Socket): Socket {
    this.#sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.#sockets.delete(socket));
    return socket;
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return (this.#server.address() as { port: number }).port;
  }

  cutAll(): void {
    for (const socket of this.#sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

test('postgres: fails fast while the server is away, then recovers by itself', async (t) => {
  if (!(await backends.postgres(t))) return;
  const target = new URL(POSTGRES_URL);
  const proxy = new FlakyProxy({ host: target.hostname, port: Number(target.port || 5432) });
  target.port = String(await proxy.listen());
  cleanups.push(() => proxy.close());
  const idleErrors: Error[] = [];
  const db = open(
    createPostgresDialect(postgresConfig({ connectionString: target.toString(), onIdleConnectionError: (error) => idleErrors.push(error) })),
  );
  await checkDatabaseLiveness(db);

  // The server goes away: the idle pooled connection dies without taking the process with it.
  proxy.silent = true;
  proxy.cutAll();
  await sleep(50);
  assert.equal(idleErrors.length, 1);
  const started = performance.now();
  await assert.rejects(checkDatabaseLiveness(db), DatabaseUnavailableError);
  const waited = performance.now() - started;
  assert.ok(waited < 3000, `took ${Math.round(waited)} ms to fail`);

  // It comes back: the next query opens a fresh connection.
  proxy.silent = false;
  await checkDatabaseLiveness(db);

  // A connection lost inside a transaction fails that transaction only.
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      proxy.cutAll();
      await sleep(50);
      await sql`select 1`.execute(trx);
    }),
    DatabaseUnavailableError,
  );
  await checkDatabaseLiveness(db);
});

test('postgres: a statement over the time limit is cancelled by the server', async (t) => {
  if (!(await backends.postgres(t))) return;
  const db = open(createPostgresDialect(postgresConfig({ statementTimeoutMillis: 200 })));
  await assert.rejects(sql`select pg_sleep(2)`.execute(db), (error: unknown) => error instanceof DatabaseError && error.code === '57014');
  await checkDatabaseLiveness(db);
});

test('postgres: SWITCHYARD_DB_POOL_SIZE and SWITCHYARD_STATEMENT_TIMEOUT_MS reach the store the server opens', async (t) => {
  if (!(await backends.postgres(t))) return;
  const { url, drop } = await privateSchemaUrl('sw_settings');
  const store = await openStore(storeOptions(loadConfig({ DATABASE_URL: url, SWITCHYARD_DB_POOL_SIZE: '2', SWITCHYARD_STATEMENT_TIMEOUT_MS: '250' })));
  try {
    const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(store.db);
    assert.equal(rows[0]!.statement_timeout, '250ms');
    await assert.rejects(sql`select pg_sleep(1)`.execute(store.db), (error: unknown) => error instanceof DatabaseError && error.code === '57014');
    // Six queries at once share the two connections of the pool (the default pool would open six).
    const answers = await Promise.all(Array.from({ length: 6 }, () => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)::text`.execute(store.db)));
    assert.equal(new Set(answers.map((answer) => answer.rows[0]!.pid)).size, 2);
  } finally {
    await store.close();
    await drop();
  }
});
