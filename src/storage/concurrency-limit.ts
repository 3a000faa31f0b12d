// At most `limit` tasks at once; the others wait their turn, in arrival order, up to `maxWaiting`
// of them; past that a task is refused at once as storage unavailable (a 503 with Retry-After).
import { DatabaseUnavailableError } from './drivers/database-errors.ts';

export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active++;
    else if (this.waiting.length >= this.maxWaiting) throw new DatabaseUnavailableError('too many queries of this kind waiting');
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
