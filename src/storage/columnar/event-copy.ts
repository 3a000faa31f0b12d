// A columnar copy of the events' narrow columns in an embedded DuckDB (issue 16), which answers
// aggregates tens of times faster than row storage can: the facets by number under a filter read
// every matching event of the window, which DuckDB scans column by column on every core.
//
// The copy is an accelerator, never the record: the event table stays the truth, each process
// keeps its own copy (in a temporary file, rebuilt after a restart), and an aggregate the copy
// cannot answer exactly is answered from storage as before (event-aggregate.ts). Exact means: the
// same answer as storage in one snapshot, so that total still equals the list. How:
//
// - Per repository, the copy holds every event with an id up to `copiedThrough`. A request reads
//   the repository's position (migration 0033) in a snapshot: `last_id`, and the last event
//   retention removed. Writers take a lock per repository before drawing ids, so every event of
//   the repository up to `last_id` is in that snapshot; the copy then counts exactly the events
//   with an id up to `last_id` that sort after the removed one.
// - Behind by a few events, the request copies them in its own snapshot first; further behind
//   (a first aggregate, a bulk load), it is answered from storage while a background build copies
//   the repository in chunks, each a short statement (PGlite's one session is lent out between).
// - Events retention removed are left out by their key, and deleted from the copy by the first
//   aggregate that sees the removal. A row removed before the copy read it is missing, so the
//   copy records the last removal (`purged`) of every snapshot it read in or cleaned to; a request
//   whose snapshot saw an older one, or that still finds an event at or before its own removal
//   key (one written later with an old time), is answered from storage.
// - Any error of DuckDB turns the copy off for the life of the process, with one log line.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ActivityLogFilters } from '../../domain/activity-log/index.ts';
import type { Database } from '../database.ts';
import type { EventScope } from '../queries/event-filters.ts';
import type { PartRow } from '../queries/event-aggregate-parts.ts';
import { mainPart, numberPart, triggerPart, type CopyState, type CopyStatement, type EventKey } from './copy-aggregate.ts';

type Db = Kysely<Database> | Transaction<Database>;

interface RepositoryCopy {
  /** Every event of the repository with an id up to this one is in the copy (or was removed). */
  copiedThrough: bigint;
  /** The latest removal key seen in a snapshot the copy read rows in. */
  purged: EventKey | undefined;
  building: Promise<void> | undefined;
  /** The copy's rows that sort at or before this key were deleted (retention removed them from storage). */
  cleaned: EventKey | undefined;
}

interface Position {
  lastId: bigint;
  purged: EventKey | undefined;
}

interface CopiedRow {
  id: string;
  us: string;
  type: string;
  outcome: string;
  trigger: string;
  pull_request: string | null;
  base_ref: string | null;
  batch_pull_request: string | null;
  batch_id: string | null;
}

const COLUMNS = sql`id::text AS id, (extract(epoch FROM received_at) * 1000000)::bigint::text AS us, type, outcome, trigger,
  pull_request::text AS pull_request, base_ref, batch_pull_request::text AS batch_pull_request, batch_id::text AS batch_id`;

export interface EventCopyOptions {
  /** PostgreSQL: reads in a REPEATABLE READ snapshot; PGlite runs one transaction at a time anyway. */
  readonly snapshots: boolean;
  /** Rows one background statement copies (smaller on PGlite, whose session waits meanwhile). */
  readonly chunkRows: number;
  readonly log?: (message: string, detail: object) => void;
}

export class EventCopy {
  /** A request further behind than this many events is answered from storage while the copy catches up. */
  inlineRows = 20_000;
  /** Aggregates the copy answered, and those it left to storage (tests and benchmarks read them). */
  readonly counts = { answered: 0, declined: 0 };
  /** The longest one of its storage transactions took (on PGlite, held the one session), in milliseconds; benchmarks read and reset it. */
  longestHoldMs = 0;
  private readonly repositories = new Map<string, RepositoryCopy>();
  private duck: Promise<{ instance: DuckDBInstance; connection: DuckDBConnection; dir: string }> | undefined;
  private failed: Error | undefined;
  private closed = false;
  /** Copies, cleanings and queries one at a time: DuckDB uses every core for each. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: EventCopyOptions,
  ) {}

  /** Whether the copy may still answer (false once DuckDB failed or the store closed). */
  get usable(): boolean {
    return !this.failed && !this.closed;
  }

  /**
   * The parts of the aggregate from the copy, or undefined when it cannot answer this one
   * exactly now (the caller reads storage instead).
   */
  async aggregate(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number): Promise<PartRow[] | undefined> {
    const rows = await this.answer(scope, filters, stepSeconds);
    this.counts[rows ? 'answered' : 'declined']++;
    return rows;
  }

  private async answer(scope: EventScope, filters: ActivityLogFilters, stepSeconds: number): Promise<PartRow[] | undefined> {
    if (!this.usable) return undefined;
    const copy = this.copyOf(scope.repositoryId);
    if (copy.building) return undefined;
    try {
      return await this.exclusive(async () => {
        const position = await this.readIn(scope.repositoryId, copy);
        if (!position) return undefined;
        const lastId = scope.maxId !== undefined && scope.maxId < position.lastId ? scope.maxId : position.lastId;
        const state: CopyState = { repositoryId: BigInt(scope.repositoryId), lastId, purged: position.purged };
        const statements = [
          mainPart(state, scope.window, filters, stepSeconds),
          triggerPart(state, scope.window, filters),
          numberPart(state, scope.window, filters, 'pull_request'),
          numberPart(state, scope.window, filters, 'batch_pull_request'),
        ];
        const rows: PartRow[] = [];
        for (const statement of statements) rows.push(...(await this.rows(statement)));
        if (position.purged && (!copy.cleaned || compareKeys(position.purged, copy.cleaned) > 0)) await this.clean(scope.repositoryId, copy, position.purged);
        return rows;
      });
    } catch (error) {
      if (!(error instanceof DuckDbError)) throw error;
      this.fail(error);
      return undefined;
    }
  }

  /** Builds the copy of these repositories, one after the other (benchmarks, tests). */
  async warm(repositoryIds: readonly string[]): Promise<void> {
    for (const id of repositoryIds) await this.startBuild(id, this.copyOf(id));
  }

  /** Builds the copy of every repository that has events, largest id first (the server at start-up, in the background). */
  async warmAll(): Promise<void> {
    const { rows } = await sql<{ id: string }>`SELECT repository_id::text AS id FROM event_positions ORDER BY last_id DESC`.execute(this.db);
    await this.warm(rows.map((row) => row.id));
  }

  /** How many rows the copy holds for the repository (tests). */
  async copiedRows(repositoryId: string): Promise<number> {
    if (!this.duck) return 0;
    const { connection } = await this.duck;
    return this.exclusive(async () => {
      const reader = await inDuckDb(() => connection.runAndReadAll('SELECT count(*) AS n FROM events WHERE repository_id = $repository', { repository: BigInt(repositoryId) }));
      return Number(reader.getRowObjects()[0]!.n);
    });
  }

  /** Bytes the copy's database file takes on disk now (benchmarks), after a checkpoint; 0 before its first use. */
  async fileBytes(): Promise<number> {
    if (!this.duck) return 0;
    const { connection, dir } = await this.duck;
    await this.exclusive(() => inDuckDb(() => connection.run('CHECKPOINT')));
    const files = await readdir(dir);
    const sizes = await Promise.all(files.map(async (name) => (await stat(join(dir, name))).size));
    return sizes.reduce((sum, size) => sum + size, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.repositories.values()].map((copy) => copy.building));
    await this.queue.catch(() => undefined);
    const duck = await this.duck?.catch(() => undefined);
    if (!duck) return;
    duck.connection.closeSync();
    duck.instance.closeSync();
    await rm(duck.dir, { recursive: true, force: true });
  }

  /**
   * In one snapshot: the repository's position, the events the copy lacks when they are few,
   * and whether the copy answers this snapshot exactly. Undefined when it does not.
   */
  private readIn(repositoryId: string, copy: RepositoryCopy): Promise<Position | undefined> {
    return this.snapshot(async (trx) => {
      const position = await positionOf(trx, repositoryId);
      if (position.lastId > copy.copiedThrough) {
        const { rows } = await sql<CopiedRow>`SELECT ${COLUMNS} FROM events
          WHERE repository_id = ${repositoryId} AND id > ${copy.copiedThrough.toString()} AND id <= ${position.lastId.toString()}
          ORDER BY id LIMIT ${this.inlineRows + 1}`.execute(trx);
        if (rows.length > this.inlineRows) {
          void this.startBuild(repositoryId, copy);
          return undefined;
        }
        // A build begun meanwhile (start-up's) copies these too.
        if (copy.building) return undefined;
        await this.append(repositoryId, rows);
        copy.copiedThrough = position.lastId;
        copy.purged = later(copy.purged, position.purged);
      }
      // A snapshot older than one the copy read in: rows it still sees may be missing here.
      if (copy.purged && (!position.purged || compareKeys(position.purged, copy.purged) < 0)) return undefined;
      // An event at or before the removal key that storage still holds (written after, with an older time).
      if (position.purged && (await anyAtOrBefore(trx, repositoryId, position.purged))) return undefined;
      return position;
    });
  }

  /**
   * Copies the repository up to its position now, in chunks in the window index's order, each in
   * its own short snapshot; requests are answered from storage meanwhile.
   */
  private startBuild(repositoryId: string, copy: RepositoryCopy): Promise<void> {
    if (!this.usable) return Promise.resolve();
    copy.building ??= this.build(repositoryId, copy)
      .catch((error: unknown) => {
        if (this.closed) return;
        // DuckDB failing turns the copy off; storage failing ends this build, and a later request starts another.
        if (error instanceof DuckDbError) this.fail(error);
        else this.options.log?.('columnar copy: a build stopped, aggregates read storage meanwhile', { cause: (error as Error).message });
      })
      .finally(() => {
        copy.building = undefined;
      });
    return copy.building;
  }

  private async build(repositoryId: string, copy: RepositoryCopy): Promise<void> {
    const from = copy.copiedThrough;
    let target: bigint | undefined;
    let after: EventKey | undefined;
    for (;;) {
      if (this.closed) return;
      const chunk = await this.snapshot(async (trx) => {
        const position = await positionOf(trx, repositoryId);
        target ??= position.lastId;
        const { rows } = await sql<CopiedRow>`SELECT ${COLUMNS} FROM events
          WHERE repository_id = ${repositoryId} AND id > ${from.toString()} AND id <= ${target.toString()}
          ${after ? sql`AND (received_at, id) > (${sql`timestamptz 'epoch' + ${after.us.toString()}::bigint * interval '1 microsecond'`}, ${after.id.toString()})` : sql``}
          ORDER BY received_at, id LIMIT ${this.options.chunkRows}`.execute(trx);
        return { rows, purged: position.purged };
      });
      // Less what a request copied after this build read `from` (its catch-up ran as the build began).
      await this.exclusive(() => this.append(repositoryId, chunk.rows.filter((row) => BigInt(row.id) > copy.copiedThrough)));
      copy.purged = later(copy.purged, chunk.purged);
      const last = chunk.rows.at(-1);
      if (!last || chunk.rows.length < this.options.chunkRows) break;
      after = { us: BigInt(last.us), id: BigInt(last.id) };
    }
    if (target !== undefined && target > copy.copiedThrough) copy.copiedThrough = target;
  }

  /**
   * Deletes the copy's rows retention removed from storage, through `purged`. A request whose
   * snapshot saw an earlier removal no longer uses the copy (`copy.purged`); any later one leaves
   * those rows out anyway.
   */
  private async clean(repositoryId: string, copy: RepositoryCopy, purged: EventKey): Promise<void> {
    copy.purged = later(copy.purged, purged);
    const { connection } = await this.open();
    await inDuckDb(() => connection.run('DELETE FROM events WHERE repository_id = $repository AND (received_us < $us OR (received_us = $us AND id <= $id))', { repository: BigInt(repositoryId), us: purged.us, id: purged.id }));
    copy.cleaned = purged;
  }

  private async append(repositoryId: string, rows: CopiedRow[]): Promise<void> {
    if (rows.length === 0) return;
    const { connection } = await this.open();
    await inDuckDb(async () => {
      const repository = BigInt(repositoryId);
      const appender = await connection.createAppender('events');
      for (const row of rows) {
        appender.appendBigInt(repository);
        appender.appendBigInt(BigInt(row.id));
        appender.appendBigInt(BigInt(row.us));
        appender.appendVarchar(row.type);
        appender.appendVarchar(row.outcome);
        appender.appendVarchar(row.trigger);
        if (row.pull_request === null) appender.appendNull();
        else appender.appendBigInt(BigInt(row.pull_request));
        if (row.base_ref === null) appender.appendNull();
        else appender.appendVarchar(row.base_ref);
        if (row.batch_pull_request === null) appender.appendNull();
        else appender.appendBigInt(BigInt(row.batch_pull_request));
        if (row.batch_id === null) appender.appendNull();
        else appender.appendVarchar(row.batch_id);
        appender.endRow();
      }
      appender.closeSync();
    });
  }

  private async rows(statement: CopyStatement): Promise<PartRow[]> {
    const { connection } = await this.open();
    const reader = await inDuckDb(() => connection.runAndReadAll(statement.text, statement.params));
    return reader.getRowObjects().map((row) => ({ grouping: String(row.grouping) as PartRow['grouping'], value: row.value === null ? null : String(row.value), n: Number(row.n) }));
  }

  private open() {
    this.duck ??= (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'switchyard-copy-'));
      try {
        const instance = await DuckDBInstance.create(join(dir, 'events.duckdb'), { threads: '2', memory_limit: '512MB' });
        const connection = await instance.connect();
        await connection.run(`CREATE TABLE events (repository_id BIGINT NOT NULL, id BIGINT NOT NULL, received_us BIGINT NOT NULL,
          type VARCHAR NOT NULL, outcome VARCHAR NOT NULL, "trigger" VARCHAR NOT NULL, pull_request BIGINT, base_ref VARCHAR,
          batch_pull_request BIGINT, batch_id VARCHAR)`);
        return { instance, connection, dir };
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw new DuckDbError(error as Error);
      }
    })();
    return this.duck;
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private snapshot<T>(read: (trx: Db) => Promise<T>): Promise<T> {
    const timed = async (trx: Db) => {
      const started = performance.now();
      try {
        return await read(trx);
      } finally {
        this.longestHoldMs = Math.max(this.longestHoldMs, performance.now() - started);
      }
    };
    if (!this.options.snapshots) return this.db.transaction().execute(timed);
    return this.db.transaction().setIsolationLevel('repeatable read').execute(timed);
  }

  private copyOf(repositoryId: string): RepositoryCopy {
    let copy = this.repositories.get(repositoryId);
    if (!copy) this.repositories.set(repositoryId, (copy = { copiedThrough: 0n, purged: undefined, building: undefined, cleaned: undefined }));
    return copy;
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = error;
    this.options.log?.('columnar copy: turned off, aggregates read storage', { cause: error.message });
  }
}

/** An error of DuckDB (the copy turns itself off), as opposed to one of storage (the request fails as before). */
class DuckDbError extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
  }
}

async function inDuckDb<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    throw new DuckDbError(error as Error);
  }
}

async function positionOf(db: Db, repositoryId: string): Promise<Position> {
  const { rows } = await sql<{ last_id: string; purged_id: string | null; purged_us: string | null }>`
    SELECT last_id::text AS last_id, purged_id::text AS purged_id, (extract(epoch FROM purged_at) * 1000000)::bigint::text AS purged_us
    FROM event_positions WHERE repository_id = ${repositoryId}`.execute(db);
  const row = rows[0];
  if (!row) return { lastId: 0n, purged: undefined };
  return { lastId: BigInt(row.last_id), purged: row.purged_id === null ? undefined : { us: BigInt(row.purged_us!), id: BigInt(row.purged_id) } };
}

/** Whether storage holds an event of the repository that sorts at or before `key` (the window index, one probe). */
async function anyAtOrBefore(db: Db, repositoryId: string, key: EventKey): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM events WHERE repository_id = ${repositoryId}
    AND (received_at, id) <= (timestamptz 'epoch' + ${key.us.toString()}::bigint * interval '1 microsecond', ${key.id.toString()}) LIMIT 1`.execute(db);
  return rows.length > 0;
}

function compareKeys(a: EventKey, b: EventKey): number {
  return a.us < b.us ? -1 : a.us > b.us ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function later(a: EventKey | undefined, b: EventKey | undefined): EventKey | undefined {
  if (!a) return b;
  if (!b) return a;
  return compareKeys(a, b) >= 0 ? a : b;
}
