// A FIFO mutex: PGlite is a single session, so whoever holds it (a query, or a transaction from
// BEGIN to COMMIT) must have it alone, and waiters are served in arrival order.

export class ExclusiveLock {
  #held = false;
  readonly #waiters: Array<() => void> = [];

  async acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Hands the lock straight to the next waiter, so no later arrival can overtake it. */
  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = false;
  }
}
