// Scope-report traffic shared by the benchmarks that send it (scope-reports.ts, mixed.ts): many
// owners, repositories and open pull requests with heads, one CI key per owner, and the two
// report requests (by commit, by pull request number) aimed at a random repository.
import type { Store } from '../src/storage/store.ts';
import { SERVICE_TOKEN } from '../test/support/test-app.ts';

export const OWNERS = 10;
export const REPOS_PER_OWNER = 10;
export const PULLS_PER_REPO = 50;

export interface Target {
  owner: string;
  repo: string;
}

export const targets: Target[] = Array.from({ length: OWNERS * REPOS_PER_OWNER }, (_, i) => ({ owner: `owner${i % OWNERS}`, repo: `repo${Math.floor(i / OWNERS)}` }));
export const hex = (n: number) => n.toString(16).padStart(40, '0');
export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
export const REPORT_BODY = JSON.stringify({ scopes: ['api', 'frontend', 'docs'], all_scopes: false });

export async function call(base: string, method: string, path: string, token: string, body?: unknown): Promise<Response> {
  const response = await fetch(base + path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** One CI key per owner, through the admin API: owner → secret. */
export async function createCiKeys(base: string): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (let o = 0; o < OWNERS; o++) keys.set(`owner${o}`, ((await (await call(base, 'POST', '/v1/admin/keys', SERVICE_TOKEN, { owner: `owner${o}`, scope: 'ci', name: 'bench' })).json()) as { key: string }).key);
  return keys;
}

/** Registers the repositories, open pull requests with heads, and one CI key per owner. */
export async function seedScopeTargets(base: string): Promise<Map<string, string>> {
  const keys = await createCiKeys(base);
  for (const { owner, repo } of targets) {
    await call(base, 'PUT', `/v1/admin/repos/${owner}/${repo}`, SERVICE_TOKEN);
    for (let n = 1; n <= PULLS_PER_REPO; n++) await call(base, 'PUT', `/v1/admin/repos/${owner}/${repo}/pulls/${n}`, SERVICE_TOKEN, { state: 'open', head_sha: hex(n), base_ref: 'main' });
  }
  return keys;
}

/**
 * The same repositories and open pull requests, written through a store in one transaction
 * before the server starts: 5,000 pull requests through HTTP take most of a minute on PGlite,
 * one commit each. The CI keys still come from createCiKeys.
 */
export async function writeScopeTargets(store: Store): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    for (const { owner, repo } of targets) {
      const { repository } = await store.repositories.register(trx, owner, repo, []);
      for (let n = 1; n <= PULLS_PER_REPO; n++) await store.pullRequests.upsert(trx, repository.id, { number: BigInt(n), state: 'open', headSha: hex(n), baseRef: 'main' });
    }
  });
}

/** A report by commit: a new sha almost every time, so each one inserts. */
export const byCommit = (t: Target) => `/v1/repos/${t.owner}/${t.repo}/commits/${hex(Math.floor(Math.random() * 1e9))}/scopes`;
/** A report by pull request number: one of the seeded open pull requests, so each one updates. */
export const byNumber = (t: Target) => `/v1/repos/${t.owner}/${t.repo}/pulls/${1 + Math.floor(Math.random() * PULLS_PER_REPO)}/scopes`;
