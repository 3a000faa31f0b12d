// Group commit in the application: writes that arrive while statements are in flight wait for
// the next one and share it, so under load one statement (one round trip, one transaction, one
// WAL flush) carries many writes, and an idle service writes each at once, with no added delay.
// Every caller is answered after the statement holding its write has committed.

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export interface WriteBatcherOptions {
  /** Writes per statement at most. */
  maxBatch: number;
  /** Statements in flight at once. */
  maxInFlight: number;
}

/** `writeMany` answers one result per item, in the order of the items. */
export class WriteBatcher<T, R = void> {
  private readonly queue: Waiting<T, R>[] = [];
  private inFlight = 0;

  constructor(
    private readonly writeMany: (items: T[]) => Promise<R[]>,
    private readonly options: WriteBatcherOptions,
  ) {}

  write(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.inFlight < this.options.maxInFlight) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.inFlight++;
    try {
      while (this.queue.length > 0) await this.run(this.queue.splice(0, this.options.maxBatch));
    } finally {
      this.inFlight--;
    }
  }

  private async run(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.writeMany(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, i) => waiting.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // One bad write must not fail the others: each is tried alone, and fails alone.
      for (const waiting of batch) await this.run([waiting]);
    }
  }
}
