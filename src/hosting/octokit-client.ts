// The one way Switchyard builds an Octokit: @octokit/core with the retry plugin (server errors
// and lost connections, with backoff) and the throttling plugin (GitHub's primary and secondary
// rate limits, Retry-After honoured, writes paced), each attempt bounded by a timeout.
import { Octokit } from '@octokit/core';
import { createAppAuth } from '@octokit/auth-app';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';

const PluggedOctokit = Octokit.plugin(retry, throttling);
export type HostingOctokit = InstanceType<typeof PluggedOctokit>;

export interface ClientTuning {
  /** the throttling plugin's limiter key: clients with one id share its limit of 10 requests at once */
  id?: string;
  /** one attempt's limit, milliseconds (default 10 s) */
  timeoutMs?: number;
  /** retries of a server error or lost connection (default 3) */
  retries?: number;
  /** the retry plugin waits (n+1)² × this before retry n (default 1000 ms) */
  retryBaseMs?: number;
  /** milliseconds per second a rate limit asks to wait (default 1000; tests shorten it) */
  rateLimitSecondMs?: number;
  /** a rate limit asking for a longer wait is reported, not waited out (default 60 s) */
  maxRateLimitWaitSeconds?: number;
  /** how many times one request waits out a rate limit (default 2) */
  rateLimitRetries?: number;
  /** least time between two writes, as GitHub advises for one client (default 1000 ms) */
  writeIntervalMs?: number;
  /**
   * least time between two writes that notify people (opening a pull request, merging one,
   * commenting): by default the throttling plugin's 3000 ms, shared by every client of this
   * process with the same `id`; given, this client paces them alone at that interval
   */
  notificationIntervalMs?: number;
  warn?: (message: string) => void;
}

export type ClientAuth = { token: string } | { appId: string; privateKey: string; installationId?: bigint } | undefined;

// 405 and 409 are answers (not mergeable, conflict); 429 is the throttling plugin's to handle.
const DO_NOT_RETRY = [400, 401, 403, 404, 405, 409, 410, 422, 429, 451];

/** fetch with a limit per attempt; an abort by the caller's own signal is not retried. */
function fetchWithTimeout(timeoutMs: number): typeof fetch {
  return async (input, init = {}) => {
    const callerSignal = init.signal ?? undefined;
    const signal = callerSignal ? AbortSignal.any([callerSignal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    try {
      return await fetch(input, { ...init, signal });
    } catch (error) {
      if (callerSignal?.aborted) throw Object.assign(new Error('The caller gave up waiting for the hosting platform.'), { name: 'AbortError' });
      throw error;
    }
  };
}

function authOptions(auth: ClientAuth) {
  if (auth === undefined) return {};
  if ('token' in auth) return { auth: auth.token };
  const installationId = auth.installationId === undefined ? {} : { installationId: Number(auth.installationId) };
  return { authStrategy: createAppAuth, auth: { appId: auth.appId, privateKey: auth.privateKey, ...installationId } };
}

export function createOctokit(baseUrl: string, auth: ClientAuth, tuning: ClientTuning = {}): HostingOctokit {
  const warn = tuning.warn ?? (() => undefined);
  const maxWait = tuning.maxRateLimitWaitSeconds ?? 60;
  const rateLimitRetries = tuning.rateLimitRetries ?? 2;
  const waitOut = (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) => {
    const wait = retryCount < rateLimitRetries && retryAfter <= maxWait;
    warn(`hosting platform rate limit: ${wait ? `retrying in ${retryAfter} s` : 'giving up'}`);
    return wait;
  };
  return new PluggedOctokit({
    baseUrl,
    userAgent: 'switchyard',
    ...authOptions(auth),
    request: { fetch: fetchWithTimeout(tuning.timeoutMs ?? 10_000) },
    retry: { retries: tuning.retries ?? 3, retryAfterBaseValue: tuning.retryBaseMs ?? 1000, doNotRetry: DO_NOT_RETRY },
    throttle: {
      id: tuning.id ?? 'switchyard',
      retryAfterBaseValue: tuning.rateLimitSecondMs ?? 1000,
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: tuning.writeIntervalMs ?? 1000 }),
      ...(tuning.notificationIntervalMs === undefined ? {} : { notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: tuning.notificationIntervalMs }) }),
      onRateLimit: waitOut,
      onSecondaryRateLimit: waitOut,
    },
    log: { debug: () => undefined, info: () => undefined, warn, error: warn },
  });
}
