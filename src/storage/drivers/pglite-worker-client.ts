// The main thread's side of pglite-worker.mjs: numbered requests, answers matched by id, and every
// waiting caller rejected (never left hanging) if the worker dies.
import { Worker } from 'node:worker_threads';
import { DatabaseError, DatabaseUnavailableError } from './database-errors.ts';
import type { PgliteRequest, PgliteResponse, PgliteWorkerData, PgliteWorkerError, RawResult } from './pglite-worker-messages.ts';

export const PGLITE_WORKER_URL = new URL('./pglite-worker.mjs', import.meta.url);

interface Pending {
  resolve(result: RawResult | undefined): void;
  reject(error: Error): void;
}

type RequestBody = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;

export class PgliteWorkerClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  /** Set once the worker is gone; every later request fails with it at once. */
  #failure: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (response: PgliteResponse) => this.#settle(response));
    worker.on('error', (error) => this.#fail(new DatabaseUnavailableError(`PGlite worker crashed: ${error.message}`, { cause: error })));
    worker.on('messageerror', (error) => this.#fail(new DatabaseUnavailableError('PGlite worker sent an unreadable message', { cause: error })));
    worker.on('exit', (code) => this.#fail(new DatabaseUnavailableError(`PGlite worker exited (code ${code})`)));
  }

  /** Resolves once PGlite has opened dataDir, or rejects with the reason it could not. */
  static async start(worker: Worker): Promise<PgliteWorkerClient> {
    const client = new PgliteWorkerClient(worker);
    await client.#request(0, undefined);
    worker.unref(); // only outstanding requests keep the process alive
    return client;
  }

  query(sql: string, params: readonly unknown[]): Promise<RawResult> {
    return this.#send({ kind: 'query', sql, params }) as Promise<RawResult>;
  }

  exec(sql: string): Promise<RawResult> {
    return this.#send({ kind: 'exec', sql }) as Promise<RawResult>;
  }

  /** Closes PGlite (flushing a directory-backed database) and ends the worker. */
  async close(): Promise<void> {
    if (this.#failure) return;
    try {
      await this.#send({ kind: 'close' });
    } finally {
      this.#failure = new DatabaseUnavailableError('PGlite worker is closed');
      await this.#worker.terminate();
    }
  }

  #send(body: RequestBody): Promise<RawResult | undefined> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    const answer = this.#request(id, body);
    try {
      this.#worker.postMessage({ ...body, id });
    } catch (error) {
      // e.g. a parameter that cannot be cloned; the worker never saw the request.
      this.#pending.delete(id);
      return Promise.reject(error);
    }
    return answer;
  }

  #request(id: number, body: RequestBody | undefined): Promise<RawResult | undefined> {
    if (this.#pending.size === 0 && body) this.#worker.ref();
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  #settle(response: PgliteResponse): void {
    const pending = this.#pending.get(response.id);
    if (!pending) return;
    this.#pending.delete(response.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (response.ok) pending.resolve(response.result);
    else pending.reject(toError(response.error));
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(this.#failure);
    this.#pending.clear();
  }
}

function toError(error: PgliteWorkerError): Error {
  return error.code === undefined ? new Error(error.message) : new DatabaseError(error);
}

/** Starts a worker running PGlite on dataDir ('memory://' or a directory). */
export function startPgliteWorker(data: PgliteWorkerData): Promise<PgliteWorkerClient> {
  // The worker is plain JavaScript: it needs none of the parent's flags (such as tsx's loader).
  return PgliteWorkerClient.start(new Worker(PGLITE_WORKER_URL, { workerData: data, execArgv: [] }));
}
