// Trouble on demand: rate limits (primary: 403 with x-ratelimit-remaining 0; secondary: 429 with
// retry-after), server errors, dropped connections and slowness, for the next N matching requests.
export type FaultKind =
  | { status: number; message?: string }
  | { rateLimit: 'primary'; resetInSeconds: number }
  | { rateLimit: 'secondary'; retryAfterSeconds: number }
  | { dropConnection: true }
  | { delayMs: number };

export interface Fault {
  kind: FaultKind;
  /** requests it applies to; all when absent */
  method?: string;
  path?: RegExp;
  /** how many requests it applies to; every one when absent */
  times?: number;
}

export interface FaultResponse {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export class Faults {
  private readonly active: (Fault & { left: number })[] = [];

  add(fault: Fault): void {
    this.active.push({ ...fault, left: fault.times ?? Infinity });
  }

  clear(): void {
    this.active.length = 0;
  }

  /** The fault the request meets, if any (and one use of it is spent). */
  take(method: string, path: string): FaultKind | undefined {
    const fault = this.active.find((f) => f.left > 0 && (!f.method || f.method === method) && (!f.path || f.path.test(path)));
    if (!fault) return undefined;
    fault.left -= 1;
    return fault.kind;
  }
}

export function faultResponse(kind: FaultKind, now: Date): FaultResponse | undefined {
  if ('status' in kind) return { status: kind.status, headers: {}, body: { message: kind.message ?? 'Server Error' } };
  if (!('rateLimit' in kind)) return undefined;
  const reset = Math.floor(now.getTime() / 1000) + (kind.rateLimit === 'primary' ? kind.resetInSeconds : 0);
  if (kind.rateLimit === 'primary') {
    return {
      status: 403,
      headers: { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-used': '5000', 'x-ratelimit-reset': String(reset), 'x-ratelimit-resource': 'core' },
      body: { message: 'API rate limit exceeded for user. (But here\'s the good news: Authenticated requests get a higher rate limit.)', documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting' },
    };
  }
  return {
    status: 429,
    headers: { 'retry-after': String(kind.retryAfterSeconds) },
    body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits' },
  };
}
