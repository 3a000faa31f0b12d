// A bounded in-memory cache of the platform's answers, each kept for the time its caller gives;
// requests for a key already being asked share that one request.
export class AnswerCache<T> {
  private readonly entries = new Map<string, { value: T; expires: number }>();
  private readonly inFlight = new Map<string, Promise<T>>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  /** The cached value, if any and not expired. */
  get(key: string): { value: T } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires > this.now()) return { value: entry.value };
    this.entries.delete(key);
    return undefined;
  }

  /** The answer being asked for `key` right now, if any. */
  pending(key: string): Promise<T> | undefined {
    return this.inFlight.get(key);
  }

  /** Runs `ask` for `key`; what it resolves to is kept for the milliseconds it says (0: not kept). */
  ask(key: string, ask: () => Promise<{ value: T; keepMs: number }>): Promise<T> {
    const answer = ask().then(({ value, keepMs }) => {
      if (keepMs > 0) this.set(key, value, keepMs);
      return value;
    });
    const shared = answer.finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, shared);
    return shared;
  }

  private set(key: string, value: T, keepMs: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: this.now() + keepMs });
  }
}
