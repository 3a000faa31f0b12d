// How many bytes of request bodies the process may hold at once: in all, and per client address.
// A body is held from its first byte until its answer is sent, so 600 half-sent 5 MiB webhooks
// took 2.8 GiB and never returned; now a request whose body would pass either bound is refused
// (503, Retry-After) and its bytes are not kept.
export class BodyMemoryBudget {
  private held = 0;
  private readonly heldBy = new Map<string, number>();

  constructor(
    readonly totalBytes: number,
    readonly perClientBytes: number,
  ) {}

  /** Takes `bytes` for `client`; false, taking nothing, when either bound would be passed. */
  reserve(client: string, bytes: number): boolean {
    const mine = this.heldBy.get(client) ?? 0;
    if (this.held + bytes > this.totalBytes || mine + bytes > this.perClientBytes) return false;
    this.held += bytes;
    this.heldBy.set(client, mine + bytes);
    return true;
  }

  release(client: string, bytes: number): void {
    if (bytes === 0) return;
    this.held -= bytes;
    const left = (this.heldBy.get(client) ?? 0) - bytes;
    if (left > 0) this.heldBy.set(client, left);
    else this.heldBy.delete(client);
  }

  /** Bytes held now, in all (for /metrics and tests). */
  get heldBytes(): number {
    return this.held;
  }
}
