// Why a call to the hosting platform did not give an answer, sorted into what a caller does
// about it: retry later (unavailable, rate limited), fix credentials (unauthorized, forbidden),
// or treat it as the platform's word (not found, refused, an invalid answer).
import { ApiError } from '../errors.ts';

export type HostingFailureKind = 'unavailable' | 'rate_limited' | 'unauthorized' | 'forbidden' | 'not_found' | 'refused' | 'invalid_answer';

export class HostingFailure extends Error {
  constructor(
    readonly kind: HostingFailureKind,
    message: string,
    readonly status?: number,
    /** for rate limits: seconds until the platform accepts requests again, when it said */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'HostingFailure';
  }
}

interface RequestErrorLike {
  status: number;
  message: string;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

function isRequestError(error: unknown): error is RequestErrorLike {
  return error instanceof Error && typeof (error as Partial<RequestErrorLike>).status === 'number';
}

/** A 403 or 429 that is GitHub's primary or secondary rate limit, with the seconds it asks to wait. */
export function rateLimitOf(status: number, headers: Record<string, string | undefined>, message: string): { retryAfterSeconds?: number } | undefined {
  const retryAfter = Number(headers['retry-after']);
  const seconds = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
  if (status === 429) return { retryAfterSeconds: seconds };
  if (status !== 403) return undefined;
  if (headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    return { retryAfterSeconds: Number.isFinite(reset) ? Math.max(0, Math.ceil(reset - Date.now() / 1000)) : seconds };
  }
  return /rate limit/i.test(message) ? { retryAfterSeconds: seconds } : undefined;
}

/** The failure an Octokit error stands for; anything else (a bug) is rethrown as it is. */
export function toHostingFailure(error: unknown): HostingFailure {
  if (error instanceof HostingFailure) return error;
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return new HostingFailure('unavailable', 'The hosting platform did not answer in time.');
  }
  if (!isRequestError(error)) throw error;
  const { status } = error;
  const limited = rateLimitOf(status, error.response?.headers ?? {}, error.message);
  if (limited) return new HostingFailure('rate_limited', 'The hosting platform is rate-limiting these requests.', status, limited.retryAfterSeconds);
  // Octokit reports a request that got no response (refused, reset, timed out) as status 500.
  if (status >= 500 || !error.response) return new HostingFailure('unavailable', `The hosting platform is unavailable (${error.message}).`, status);
  const kind = status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : status === 404 ? 'not_found' : 'refused';
  return new HostingFailure(kind, `The hosting platform answered ${status}: ${error.message}`, status);
}

/** For an HTTP request waiting on the platform: what the caller of Switchyard is told. */
export function hostingFailureAsApiError(failure: HostingFailure): ApiError {
  if (failure.kind === 'invalid_answer') return new ApiError('hosting_invalid_answer');
  return new ApiError('hosting_unavailable');
}
