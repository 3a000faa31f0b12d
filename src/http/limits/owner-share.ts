// Expensive reads (activity-log lists and aggregates) run at most `perOwner` at a time for one
// owner, and at most `total` in all: one owner's hundredth request waits behind its own
// first ones, not in front of everyone else's, and the pool keeps connections for cheap
// requests. Routes take part with `config: { ownerShare: true }`; the slot is taken once the
// request is valid and authorised (preHandler) and given back when the exchange ends.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError } from '../../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route's work takes one of its owner's slots (owner-share.ts) */
    ownerShare?: boolean;
  }
}

export interface OwnerShareLimits {
  perOwner: number;
  total: number;
  /** requests of one owner that may wait for a slot; past that, 429 */
  waitingPerOwner: number;
}

interface Turn {
  owner: string;
  start: () => void;
}

export class OwnerShare {
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  private readonly waiting: Turn[] = [];
  private readonly waitingBy = new Map<string, number>();

  constructor(private readonly limits: OwnerShareLimits) {}

  /** Resolves with a release function once `owner` may run; refuses when too many of its requests wait. */
  async acquire(owner: string): Promise<() => void> {
    if (!this.mayStart(owner)) {
      const queued = this.waitingBy.get(owner) ?? 0;
      if (queued >= this.limits.waitingPerOwner) throw new ApiError('owner_busy', undefined, 1);
      this.waitingBy.set(owner, queued + 1);
      await new Promise<void>((start) => this.waiting.push({ owner, start }));
    }
    this.runningBy.set(owner, (this.runningBy.get(owner) ?? 0) + 1);
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const left = this.runningBy.get(owner)! - 1;
      if (left > 0) this.runningBy.set(owner, left);
      else this.runningBy.delete(owner);
      this.startNext();
    };
  }

  private mayStart(owner: string): boolean {
    return this.running < this.limits.total && (this.runningBy.get(owner) ?? 0) < this.limits.perOwner;
  }

  /** The first waiting request whose owner has room, in arrival order. */
  private startNext(): void {
    const index = this.waiting.findIndex((turn) => this.mayStart(turn.owner));
    if (index < 0) return;
    const [turn] = this.waiting.splice(index, 1);
    const queued = this.waitingBy.get(turn!.owner)! - 1;
    if (queued > 0) this.waitingBy.set(turn!.owner, queued);
    else this.waitingBy.delete(turn!.owner);
    turn!.start();
  }
}

export function registerOwnerShare(app: FastifyInstance, share: OwnerShare): void {
  const take = async (request: FastifyRequest, reply: FastifyReply) => {
    const owner = (request.params as { owner?: string }).owner?.toLowerCase() ?? '';
    const release = await share.acquire(owner);
    // 'close' comes once the answer is sent or the client went away, whichever is first.
    if (reply.raw.closed) release();
    else reply.raw.once('close', release);
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    if ((route.config as { ownerShare?: unknown } | undefined)?.ownerShare !== true) return;
    const hooks = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [...hooks, take];
  });
}
