// One request to the hosting platform, or every page of a list, with the credentials of what it
// is about (repository-clients.ts). Statuses the caller treats as answers come back as replies;
// every other failure throws HostingFailure. An installation token the platform no longer takes
// is replaced once and the request tried again.
import { invalid } from './answer-fields.ts';
import { HostingFailure, toHostingFailure } from './hosting-failure.ts';
import type { HostingOctokit } from './octokit-client.ts';
import type { CallTarget, RepositoryClients } from './repository-clients.ts';

export interface Reply {
  status: number;
  data: unknown;
}

export const PAGE_SIZE = 100;
const MAX_PAGES = 50;

export class PlatformCalls {
  constructor(private readonly clients: RepositoryClients) {}

  /** The GitHub App's id when the service runs as one. */
  get appId(): string | undefined {
    return this.clients.appId;
  }

  /** One request; statuses in `answers` come back as replies, other failures throw HostingFailure. */
  async call(target: CallTarget, route: string, params: Record<string, unknown>, answers: readonly number[] = []): Promise<Reply> {
    const client = await this.clients.forTarget(target);
    const all = { ...('org' in target ? { org: target.org } : { owner: target.owner, repo: target.repo }), ...params };
    try {
      return await send(client.octokit, route, all, answers);
    } catch (error) {
      const failure = toHostingFailure(error);
      if (failure.kind !== 'unauthorized' || !client.refresh) throw failure;
      await client.refresh().catch((refreshError: unknown) => Promise.reject(toHostingFailure(refreshError)));
      return send(client.octokit, route, all, answers).catch((retryError: unknown) => Promise.reject(toHostingFailure(retryError)));
    }
  }

  /** Every item of a paginated list, up to `maxPages` pages of 100. */
  async pages<T>(target: CallTarget, route: string, query: Record<string, unknown>, read: (data: unknown) => T[], maxPages = MAX_PAGES): Promise<T[]> {
    return (await this.collect(target, route, query, read, maxPages, []))!;
  }

  /** As `pages`, but null when the list itself is a 404 (an unknown team, say). */
  pagesOrMissing<T>(target: CallTarget, route: string, query: Record<string, unknown>, read: (data: unknown) => T[], maxPages = MAX_PAGES): Promise<T[] | null> {
    return this.collect(target, route, query, read, maxPages, [404]);
  }

  private async collect<T>(target: CallTarget, route: string, query: Record<string, unknown>, read: (data: unknown) => T[], maxPages: number, answers: readonly number[]): Promise<T[] | null> {
    const all: T[] = [];
    for (let page = 1; page <= maxPages; page++) {
      const reply = await this.call(target, route, { ...query, per_page: PAGE_SIZE, page }, answers);
      if (reply.status === 404) return null;
      const items = read(reply.data);
      all.push(...items);
      if (items.length < PAGE_SIZE) break;
    }
    return all;
  }
}

async function send(octokit: HostingOctokit, route: string, params: Record<string, unknown>, answers: readonly number[]): Promise<Reply> {
  try {
    const response = await octokit.request(route, params);
    return { status: response.status, data: response.data };
  } catch (error) {
    const failed = error as { status?: number; response?: { data?: unknown } };
    if (typeof failed.status === 'number' && failed.response && answers.includes(failed.status)) return { status: failed.status, data: failed.response.data };
    throw error;
  }
}

export function messageOf(reply: Reply): string {
  const data = reply.data as { message?: unknown } | null;
  return typeof data?.message === 'string' ? data.message : '';
}

export function refused(reply: Reply): HostingFailure {
  return new HostingFailure('refused', `The hosting platform answered ${reply.status}: ${JSON.stringify(reply.data)}`, reply.status);
}

export function arrayOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(what);
  return value;
}
