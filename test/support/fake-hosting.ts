// The fake hosting platform of the token-verification tests: the full fake platform
// (fake-platform/), plus its first interface kept for the tests written against it — users
// declared by token in `users` with their repository rights and organisations, answered on the
// three endpoints Switchyard verifies tokens with, `requests` (the URLs asked) and `failWith`.
import { json, message, type RouteResult } from './fake-platform/http-router.ts';
import { FakePlatform } from './fake-platform/fake-platform.ts';
import type { RawRequest } from './fake-platform/platform-server.ts';

export interface FakeUser {
  login: string;
  id: number | bigint;
  /** "owner/repo" → permissions; `push` defaults to `admin` */
  repos?: Record<string, { admin: boolean; pull: boolean; push?: boolean }>;
  /** organisations the user administers */
  adminOf?: string[];
  /** other memberships, as the platform answers them: organisation → role and state */
  memberships?: Record<string, { role: string; state: string }>;
}

export class FakeHosting extends FakePlatform {
  readonly users = new Map<string, FakeUser>();

  /** The URLs asked, in order. */
  get requests(): string[] {
    return this.requestLog.map((request) => request.url);
  }

  /** When set, every request answers this status. */
  get failWith(): number | undefined {
    return this.failing;
  }

  set failWith(status: number | undefined) {
    this.failing = status;
    this.faults.clear();
    if (status !== undefined) this.faults.add({ kind: { status, message: 'failing on purpose' } });
  }

  private failing: number | undefined;

  protected override answerBeforeRouting(request: RawRequest): RouteResult | undefined {
    const user = request.token === undefined ? undefined : this.users.get(request.token);
    if (!user || request.method !== 'GET') return undefined;
    if (request.path === '/user') return json(200, { login: user.login, id: user.id });
    const repo = /^\/repos\/([^/]+)\/([^/]+)$/.exec(request.path);
    if (repo) {
      const permissions = user.repos?.[`${decodeURIComponent(repo[1]!)}/${decodeURIComponent(repo[2]!)}`.toLowerCase()];
      return permissions ? json(200, { permissions: { ...permissions, push: permissions.push ?? permissions.admin } }) : message(404, 'Not Found');
    }
    const membership = /^\/orgs\/([^/]+)\/memberships\/([^/]+)$/.exec(request.path);
    if (membership) {
      const org = decodeURIComponent(membership[1]!).toLowerCase();
      if (user.adminOf?.some((o) => o.toLowerCase() === org)) return json(200, { role: 'admin', state: 'active' });
      const other = user.memberships?.[org];
      return other ? json(200, other) : message(404, 'Not Found');
    }
    return undefined;
  }
}
