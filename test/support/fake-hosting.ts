// A small fake of the hosting platform's API (GitHub-compatible), served on loopback: the
// endpoints Switchyard calls to verify hosting-platform tokens.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeUser {
  login: string;
  id: number;
  /** "owner/repo" → permissions */
  repos?: Record<string, { admin: boolean; pull: boolean }>;
  /** organisations the user administers */
  adminOf?: string[];
  /** other memberships, as the platform answers them: organisation → role and state */
  memberships?: Record<string, { role: string; state: string }>;
}

export class FakeHosting {
  readonly users = new Map<string, FakeUser>();
  requests: string[] = [];
  /** When set, every request answers this status. */
  failWith: number | undefined;
  private server: Server | undefined;
  url = '';

  /** Listens on `port` (any free one by default). */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      this.requests.push(req.url ?? '');
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (this.failWith) return send(this.failWith, { message: 'failing on purpose' });
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const user = token ? this.users.get(token) : undefined;
      if (!user) return send(401, { message: 'Bad credentials' });
      this.route(user, req.url ?? '', send);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  private route(user: FakeUser, url: string, send: (status: number, body: unknown) => void): void {
    if (url === '/user') return send(200, { login: user.login, id: user.id });
    const repo = /^\/repos\/([^/]+)\/([^/]+)$/.exec(url);
    if (repo) {
      const permissions = user.repos?.[`${decodeURIComponent(repo[1]!)}/${decodeURIComponent(repo[2]!)}`.toLowerCase()];
      return permissions ? send(200, { permissions: { ...permissions, push: permissions.admin } }) : send(404, { message: 'Not Found' });
    }
    const membership = /^\/orgs\/([^/]+)\/memberships\/([^/]+)$/.exec(url);
    if (membership) {
      const org = decodeURIComponent(membership[1]!).toLowerCase();
      const isAdmin = user.adminOf?.some((o) => o.toLowerCase() === org);
      if (isAdmin) return send(200, { role: 'admin', state: 'active' });
      const other = user.memberships?.[org];
      return other ? send(200, other) : send(404, { message: 'Not Found' });
    }
    send(404, { message: 'Not Found' });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
