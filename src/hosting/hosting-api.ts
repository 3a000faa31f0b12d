// Verifies hosting-platform tokens (DESIGN.md §3) on Octokit: the token's user, its permissions
// on a repository, its organisation memberships. Only definite answers are cached, per token and
// path: a success for 60 s, a refusal (401 bad credentials, 404) for 10 s. Rate limits, server
// errors and lost connections are never cached and surface as 503. A user the platform could not
// have issued (an id beyond 64 bits, a login GitHub would not issue) identifies nobody: the token
// is refused as a credential (403, saying why), never passed on, and asking again would be told
// the same. Tokens not in the cache are budgeted per client address (verification-budget.ts).
import { createHash } from 'node:crypto';
import { ApiError } from '../errors.ts';
import { AnswerCache } from './answer-cache.ts';
import { int64Of, loginOf, objectOf } from './answer-fields.ts';
import { hostingFailureAsApiError, toHostingFailure } from './hosting-failure.ts';
import { createOctokit, type ClientTuning, type HostingOctokit } from './octokit-client.ts';
import { VerificationBudget } from './verification-budget.ts';

export interface HostingUser {
  login: string;
  /** 64-bit: exact as the platform gave it */
  id: bigint;
}

export interface RepositoryPermissions {
  admin: boolean;
  /** Write access: enter and leave the merge queue, pause it, freeze it. */
  push: boolean;
  pull: boolean;
}

export interface HostingApiOptions {
  /** how long a success is kept (default 60 s, DESIGN.md §3) */
  ttlMs?: number;
  /** how long a refusal (401, 404) is kept (default 10 s) */
  refusalTtlMs?: number;
  /** unknown-token verifications a client address may cause per minute (default 30) */
  verificationsPerMinute?: number;
  /** the whole of one verification, retries included (default 5 s) */
  deadlineMs?: number;
  now?: () => number;
  tuning?: ClientTuning;
}

const MAX_ENTRIES = 10_000;

export class HostingApi {
  private readonly cache: AnswerCache<unknown>;
  private readonly budget: VerificationBudget;
  private readonly octokit: HostingOctokit;
  private readonly ttlMs: number;
  private readonly refusalTtlMs: number;
  private readonly deadlineMs: number;

  constructor(baseUrl: string, options: HostingApiOptions = {}) {
    const now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.refusalTtlMs = options.refusalTtlMs ?? 10_000;
    this.deadlineMs = options.deadlineMs ?? 5_000;
    this.cache = new AnswerCache(MAX_ENTRIES, now);
    this.budget = new VerificationBudget(options.verificationsPerMinute ?? 30, MAX_ENTRIES, now);
    // A person is waiting: one quick retry of a server error, no waiting out a rate limit.
    this.octokit = createOctokit(baseUrl, undefined, { id: 'token-verification', timeoutMs: this.deadlineMs / 2, retries: 1, retryBaseMs: 100, rateLimitRetries: 0, ...options.tuning });
  }

  /**
   * The token's user, or null when the platform refuses the token. A token not in the cache is
   * asked about only within `clientAddress`'s budget; a confirmed one gives it back.
   */
  async user(token: string, clientAddress?: string): Promise<HostingUser | null> {
    const key = cacheKey(token, '/user');
    const known = this.cache.get(key) ?? (this.cache.pending(key) && { value: await this.cache.pending(key) });
    if (known) return known.value as HostingUser | null;
    if (clientAddress !== undefined) {
      const spent = this.budget.take(clientAddress);
      if (!spent.granted) throw new ApiError('token_verifications_limited', undefined, spent.retryAfterSeconds);
    }
    const user = (await this.ask(token, '/user', readUser)) as HostingUser | null;
    if (user && clientAddress !== undefined) this.budget.refund(clientAddress);
    return user;
  }

  /** The token's permissions on a repository, or null when it cannot see it. */
  repositoryPermissions(token: string, owner: string, repository: string): Promise<RepositoryPermissions | null> {
    return this.cached(token, `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repository)}`, (body) => {
      const permissions = objectOf(objectOf(body, 'repository').permissions ?? {}, 'repository permissions');
      return { admin: permissions.admin === true, push: permissions.push === true, pull: permissions.pull === true };
    });
  }

  /** Whether the user administers the organisation `owner`. */
  async isOrganisationAdmin(token: string, owner: string, login: string): Promise<boolean> {
    const path = `/orgs/${encodeURIComponent(owner)}/memberships/${encodeURIComponent(login)}`;
    const membership = await this.cached(token, path, (body) => objectOf(body, 'membership'));
    return membership !== null && membership.role === 'admin' && (membership.state ?? 'active') === 'active';
  }

  private async cached<T>(token: string, path: string, read: (body: unknown) => T): Promise<T | null> {
    const key = cacheKey(token, path);
    const known = this.cache.get(key);
    if (known) return known.value as T | null;
    return (await (this.cache.pending(key) ?? this.ask(token, path, read))) as T | null;
  }

  private ask<T>(token: string, path: string, read: (body: unknown) => T): Promise<unknown> {
    return this.cache.ask(cacheKey(token, path), async () => {
      try {
        const response = await this.octokit.request(`GET ${path}`, { headers: { authorization: `token ${token}` }, request: { signal: AbortSignal.timeout(this.deadlineMs) } });
        return { value: read(response.data), keepMs: this.ttlMs };
      } catch (error) {
        if (error instanceof ApiError) throw error;
        const failure = toHostingFailure(error);
        if (failure.kind === 'unauthorized' || failure.kind === 'not_found') return { value: null, keepMs: this.refusalTtlMs };
        // Any other refusal (a 403 that is not a rate limit, a 422) holds for this request only.
        if (failure.kind === 'forbidden' || failure.kind === 'refused') return { value: null, keepMs: 0 };
        throw hostingFailureAsApiError(failure);
      }
    });
  }
}

function cacheKey(token: string, path: string): string {
  return `${createHash('sha256').update(token).digest('base64url')} ${path}`;
}

function readUser(body: unknown): HostingUser {
  const user = objectOf(body, 'user');
  return { login: identityField(() => loginOf(user.login, 'user login'), 'login'), id: identityField(() => int64Of(user.id, 'user id'), 'id') };
}

function identityField<T>(read: () => T, what: 'login' | 'id'): T {
  try {
    return read();
  } catch {
    const rule = what === 'login' ? 'a login is 1 to 39 letters, digits, hyphens or underscores, an app\'s ending in [bot]' : 'user ids are integers from 0 to 2^63-1';
    throw new ApiError('hosting_identity_invalid', `The hosting platform names this token's user with an invalid ${what} (${rule}); the token is refused as a credential.`);
  }
}
