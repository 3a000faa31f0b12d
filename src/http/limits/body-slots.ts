// Request bodies read and parsed at once from one client address (an IPv6 /64 as one; issue
// 20). Reading and parsing a body takes the event loop, which every client shares: eight 1 MiB
// bodies from one address, parsed in one turn of the loop, held it a quarter of a second, and
// other clients' connections waited that long to be accepted. A body past its address's slots
// is not read until one is free: its bytes wait in the kernel's buffers (TCP holds the client
// back) and cost the process nothing. The clock of a body's stalls (body-progress.ts) starts
// only once it is read. Connections per address are capped (connection-gate.ts), and so are the
// requests that can wait here.
import type { FastifyInstance } from 'fastify';
import { addressKey } from '../../domain/address-key.ts';

export class BodySlots {
  private readonly busy = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(readonly perAddress: number) {}

  /** Resolves, once `client` has a slot, with the function that gives it back (idempotent). */
  async acquire(client: string): Promise<() => void> {
    const used = this.busy.get(client) ?? 0;
    if (used < this.perAddress) this.busy.set(client, used + 1);
    else await new Promise<void>((start) => (this.waiting.get(client) ?? this.waiting.set(client, []).get(client)!).push(start));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOn(client);
    };
  }

  /** The slot goes to the client's next waiting body, in arrival order, or is freed. */
  private handOn(client: string): void {
    const queue = this.waiting.get(client);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(client);
    if (next) return next();
    const left = this.busy.get(client)! - 1;
    if (left > 0) this.busy.set(client, left);
    else this.busy.delete(client);
  }
}

/**
 * Registered before every other preParsing hook, so that nothing reads a body before its slot;
 * the slot is given back once the body is parsed (preValidation) or the exchange ends.
 */
export function registerBodySlots(app: FastifyInstance, slots: BodySlots): void {
  const releases = new WeakMap<object, () => void>();
  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) return payload;
    const release = await slots.acquire(addressKey(request.ip));
    releases.set(request, release);
    if (reply.raw.closed) release();
    else reply.raw.once('close', release);
    return payload;
  });
  app.addHook('preValidation', async (request) => {
    releases.get(request)?.();
  });
}
