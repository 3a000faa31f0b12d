// @ts-check
// Runs PGlite (PostgreSQL in WASM) off the main thread, so a slow query cannot stall the HTTP
// server. Plain JavaScript on purpose: under Node 20 a worker does not inherit tsx's loader, and
// this file needs none. Protocol: pglite-worker-messages.ts. Values go back as PostgreSQL's text;
// the main thread decodes them with the same table as the pg backend (type-parsers.ts).
import { chmodSync, mkdirSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

// Kept in line with DatabaseErrorFields (database-errors.ts).
const ERROR_FIELDS = ['code', 'severity', 'detail', 'hint', 'position', 'where', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'];

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { dataDir } = /** @type {{ dataDir: string }} */ (workerData);

/**
 * PostgreSQL's error fields when PostgreSQL raised it (an ErrorResponse always has a severity);
 * for anything else (a file system error, a bug) only the message, so no errno passes for a SQLSTATE.
 * @param {unknown} error
 */
function describeError(error) {
  const source = /** @type {Record<string, unknown>} */ (error ?? {});
  /** @type {Record<string, unknown>} */
  const fields = { message: error instanceof Error ? error.message : String(error) };
  if (typeof source.severity !== 'string') return fields;
  for (const key of ERROR_FIELDS) if (typeof source[key] === 'string') fields[key] = source[key];
  return fields;
}

/** @param {import('@electric-sql/pglite').Results} result (rows are arrays: rowMode 'array') */
function toRawResult(result) {
  return { fields: result.fields, rows: result.rows, command: result.command, rowCount: result.rowCount };
}

/**
 * Found in the security review (docs/security.md): PGlite writes its files mode 0666 whatever the
 * umask, under a directory created 0755, so any local user could read the store and rewrite its
 * tables (application keys included). As PostgreSQL does with its own data directory, only the
 * owner may enter it. Best effort: a directory this process does not own is left as it is.
 * @param {string} dir
 */
function restrictToOwner(dir) {
  try {
    chmodSync(dir, 0o700);
  } catch {
    // not ours to change (EPERM): the operator decides
  }
}

async function open() {
  if (!dataDir.includes('://')) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    restrictToOwner(dataDir);
  }
  const db = await PGlite.create(dataDir);
  // Every type PGlite would parse (including the array types it registered at start-up) is
  // returned as text instead; the main thread does the one decoding both backends share.
  const asText = Object.fromEntries(Object.keys(db.parsers).map((oid) => [oid, (/** @type {string} */ text) => text]));
  return { db, options: /** @type {const} */ ({ rowMode: 'array', parsers: asText }) };
}

/**
 * @param {Awaited<ReturnType<typeof open>>} session
 * @param {{ kind: string, sql?: string, params?: unknown[] }} request
 */
async function handle({ db, options }, request) {
  switch (request.kind) {
    case 'query':
      return toRawResult(await db.query(/** @type {string} */ (request.sql), request.params, options));
    case 'exec': {
      const results = await db.exec(/** @type {string} */ (request.sql), options);
      // Like pg with several statements: no single result to report.
      return results.length === 1 && results[0] ? toRawResult(results[0]) : { fields: [], rows: [] };
    }
    case 'close':
      await db.close();
      return undefined;
    default:
      throw new Error(`Unknown request kind: ${request.kind}`);
  }
}

async function main() {
  let session;
  try {
    session = await open();
  } catch (error) {
    port.postMessage({ id: 0, ok: false, error: describeError(error) });
    return;
  }
  port.postMessage({ id: 0, ok: true });
  // Requests run strictly one after another, in arrival order, whatever PGlite does internally.
  let queue = Promise.resolve();
  port.on('message', (request) => {
    queue = queue.then(async () => {
      try {
        port.postMessage({ id: request.id, ok: true, result: await handle(session, request) });
      } catch (error) {
        port.postMessage({ id: request.id, ok: false, error: describeError(error) });
      }
      if (request.kind === 'close') port.close();
    });
  });
}

await main();
