// Client of the hosting platform's API (GitHub-compatible), used to verify hosting-platform
// tokens (DESIGN.md §3). Answers, refusals included, are cached 60 s per token and URL; an
// unreachable API or a 5xx is never cached and surfaces as 503.
import { createHash } from 'node:crypto';
import { ApiError } from '../errors.ts';

export interface HostingUser {
  login: string;
  id: number;
}

export interface RepositoryPermissions {
  admin: boolean;
  pull: boolean;
}

const MAX_ENTRIES = 10_000;
const TIMEOUT_MS = 5_000;

interface Entry {
  expires: number;
  value: Promise<unknown>;
}

export class HostingApi {
  private readonly cache = new Map<string, Entry>();

  constructor(
    private readonly baseUrl: string,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The token's user, or null when the platform refuses the token. */
  user(token: string): Promise<HostingUser | null> {
    return this.get(token, '/user', (body) => {
      const user = body as { login?: unknown; id?: unknown };
      return typeof user.login === 'string' ? { login: user.login, id: Number(user.id) } : null;
    });
  }

  /** The token's permissions on a repository, or null when it cannot see it. */
  repositoryPermissions(token: string, owner: string, repository: string): Promise<RepositoryPermissions | null> {
    return this.get(token, `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repository)}`, (body) => {
      const permissions = (body as { permissions?: Record<string, unknown> }).permissions ?? {};
      return { admin: permissions.admin === true, pull: permissions.pull === true };
    });
  }

  /** Whether the user administers the organisation `owner`. */
  async isOrganisationAdmin(token: string, owner: string, login: string): Promise<boolean> {
    const path = `/orgs/${encodeURIComponent(owner)}/memberships/${encodeURIComponent(login)}`;
    const membership = await this.get(token, path, (body) => body as { role?: unknown; state?: unknown });
    return membership !== null && membership.role === 'admin' && (membership.state ?? 'active') === 'active';
  }

  private get<T>(token: string, path: string, read: (body: unknown) => T): Promise<T | null> {
    const key = `${createHash('sha256').update(token).digest('base64url')} ${path}`;
    const hit = this.cache.get(key);
    if (hit && hit.expires > this.now()) return hit.value as Promise<T | null>;
    const value = this.fetchJson(token, path).then((body) => (body === null ? null : read(body)));
    this.remember(key, value);
    return value;
  }

  private remember(key: string, value: Promise<unknown>): void {
    this.cache.delete(key);
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { expires: this.now() + this.ttlMs, value });
    value.catch(() => this.cache.delete(key));
  }

  private async fetchJson(token: string, path: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(this.baseUrl + path, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'user-agent': 'switchyard' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new ApiError('hosting_unavailable');
    }
    if (response.status >= 500 || response.status === 429) throw new ApiError('hosting_unavailable');
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    try {
      return await response.json();
    } catch {
      throw new ApiError('hosting_unavailable', 'The hosting platform API answered with invalid JSON; retry shortly.');
    }
  }
}
