// Many readers or one writer at a time, in one process. A waiting writer stops new readers from
// entering, so a stream of readers cannot starve it; readers that arrive while it waits or works
// enter together when it is done.

export class ReadWriteGate {
  #readers = 0;
  #writing = false;
  readonly #writers: (() => void)[] = [];
  #readersWaiting: (() => void)[] = [];

  async read<T>(task: () => Promise<T>): Promise<T> {
    if (this.#writing || this.#writers.length > 0) await new Promise<void>((resolve) => this.#readersWaiting.push(resolve));
    else this.#readers++;
    try {
      return await task();
    } finally {
      this.#readers--;
      if (this.#readers === 0) this.#wakeWriter() || this.#wakeReaders();
    }
  }

  async write<T>(task: () => Promise<T>): Promise<T> {
    if (this.#writing || this.#readers > 0 || this.#writers.length > 0) await new Promise<void>((resolve) => this.#writers.push(resolve));
    else this.#writing = true;
    try {
      return await task();
    } finally {
      this.#writing = false;
      this.#wakeReaders() || this.#wakeWriter();
    }
  }

  /** The readers that waited, all at once (after a writer, so writers and readers alternate). */
  #wakeReaders(): boolean {
    if (this.#readersWaiting.length === 0) return false;
    const waiting = this.#readersWaiting;
    this.#readersWaiting = [];
    this.#readers += waiting.length;
    for (const resolve of waiting) resolve();
    return true;
  }

  /** The next writer (after the last reader leaves, before readers that came while it waited). */
  #wakeWriter(): boolean {
    const writer = this.#writers.shift();
    if (!writer) return false;
    this.#writing = true;
    writer();
    return true;
  }
}
