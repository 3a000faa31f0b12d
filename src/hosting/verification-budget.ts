// How many tokens the hosting platform may be asked about for one client address: each costs
// this service an upstream call (and the platform rate-limits this service, not the client), so
// a stream of random tokens from one address is cut off here. A token bucket per address (IPv6
// per /64, which one host usually holds whole), in a bounded table that forgets the least
// recently seen address first.
import { addressKey } from '../domain/address-key.ts';

export type BudgetAnswer = { granted: true } | { granted: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

export class VerificationBudget {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perMinute: number,
    private readonly maxAddresses = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Spends one verification of `address`'s budget, if it has one left. */
  take(address: string): BudgetAnswer {
    const key = addressKey(address);
    const bucket = this.refilled(key);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { granted: true };
    }
    return { granted: false, retryAfterSeconds: Math.max(1, Math.ceil(((1 - bucket.tokens) * 60) / this.perMinute)) };
  }

  /** Gives a verification back: the token was a real one, which costs the address nothing. */
  refund(address: string): void {
    const bucket = this.refilled(addressKey(address));
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + 1);
  }

  private refilled(key: string): Bucket {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) * this.perMinute) / 60_000);
    bucket.at = now;
    this.buckets.delete(key);
    if (this.buckets.size >= this.maxAddresses) this.buckets.delete(this.buckets.keys().next().value as string);
    this.buckets.set(key, bucket);
    return bucket;
  }
}
