// Group commit in the application: writes that arrive while statements are in flight wait for
// the next one and share it, so under load one statement (one round trip, one transaction, one
// WAL flush) carries many writes, and an idle service writes each at once, with no added delay.
// Every caller is answered after the statement holding its write has committed. Writes to the
// same key in one statement are folded into the later one, as if it had replaced the earlier at
// once, and every caller gets its result: a statement never writes a row twice.
import { DatabaseUnavailableError } from './drivers/database-errors.ts';
import { isStorageUnavailable } from './storage-errors.ts';

interface Waiting<T, R> {
  item: T;
  weight: number;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export interface WriteBatcherOptions<T> {
  /** Writes per statement at most. */
  maxBatch: number;
  /** Statements in flight at once. */
  maxInFlight: number;
  /** Writes waiting at most; past it a write is refused at once (503), not queued. */
  maxQueued: number;
  /** A statement's writes weigh this much together at most (one heavier write goes alone). */
  maxWeight: number;
  /** The weight of one write, about its size in bytes. */
  weigh: (item: T) => number;
  /** What a write replaces: two writes with the same key are one row. */
  keyOf: (item: T) => string;
}

/** `writeMany` gets writes of distinct keys, and answers one result per write, in their order. */
export class WriteBatcher<T, R = void> {
  private readonly queue: Waiting<T, R>[] = [];
  private inFlight = 0;

  constructor(
    private readonly writeMany: (items: T[]) => Promise<R[]>,
    private readonly options: WriteBatcherOptions<T>,
  ) {}

  write(item: T): Promise<R> {
    // Overload or an outage: the queue would only grow, and each caller wait longer to fail.
    if (this.queue.length >= this.options.maxQueued) return Promise.reject(new DatabaseUnavailableError('too many writes waiting for the database'));
    return new Promise((resolve, reject) => {
      this.queue.push({ item, weight: this.options.weigh(item), resolve, reject });
      if (this.inFlight < this.options.maxInFlight) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.inFlight++;
    try {
      while (this.queue.length > 0) await this.run(this.takeBatch());
    } finally {
      this.inFlight--;
    }
  }

  private takeBatch(): Waiting<T, R>[] {
    let count = 1;
    let weight = this.queue[0]!.weight;
    while (count < this.queue.length && count < this.options.maxBatch && weight + this.queue[count]!.weight <= this.options.maxWeight) weight += this.queue[count++]!.weight;
    return this.queue.splice(0, count);
  }

  private async run(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const latest = new Map<string, T>();
      for (const { item } of batch) latest.set(this.options.keyOf(item), item);
      const results = await this.writeMany([...latest.values()]);
      const byKey = new Map([...latest.keys()].map((key, i) => [key, results[i]!]));
      for (const waiting of batch) waiting.resolve(byKey.get(this.options.keyOf(waiting.item))!);
    } catch (error) {
      // Storage out of reach fails every write alike: answer them all now. Anything else may be
      // one bad write: halve the batch until it fails alone, so the others are written.
      if (batch.length === 1 || isStorageUnavailable(error)) {
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      const half = Math.ceil(batch.length / 2);
      await this.run(batch.slice(0, half));
      await this.run(batch.slice(half));
    }
  }
}
