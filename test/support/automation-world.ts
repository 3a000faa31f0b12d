// Helpers of the rules engine's tests: a repository with a configuration file on the fake
// platform, registered with Switchyard with products enabled, and reads of the check runs the
// engine wrote, as a person would read them on the platform.
import assert from 'node:assert/strict';
import type { TestApp } from './test-app.ts';
import { until } from './merge-queue-e2e.ts';

export interface CheckRunRead {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  output: { title: string | null; summary: string | null };
}

/** A reader of the repository, for the platform's REST reads. */
export function readerToken(t: TestApp, repo: string): string {
  const login = `reader-${repo.replace(/\W/g, '-')}`;
  const { token } = t.hosting.createUser(login);
  t.hosting.grant(repo, login, 'read');
  return token;
}

export async function checkRuns(t: TestApp, token: string, repo: string, ref: string): Promise<CheckRunRead[]> {
  const answer = await fetch(`${t.hosting.url}/repos/${repo}/commits/${ref}/check-runs?per_page=100`, { headers: { authorization: `token ${token}` } });
  assert.equal(answer.status, 200, await answer.clone().text());
  return ((await answer.json()) as { check_runs: CheckRunRead[] }).check_runs;
}

/** The check run named `name` on `ref` once `accept` holds for it. */
export async function checkRunWhen(t: TestApp, token: string, repo: string, ref: string, name: string, accept: (run: CheckRunRead) => boolean, timeoutMs = 30_000): Promise<CheckRunRead> {
  return until(`check run ${name} on ${ref}`, async () => (await checkRuns(t, token, repo, ref)).find((run) => run.name === name && accept(run)), timeoutMs);
}

/** Registers the repository with these products, and waits until its configuration file was read. */
export async function registerWithProducts(t: TestApp, repo: string, products: string[]): Promise<void> {
  const [owner] = repo.split('/');
  assert.equal((await t.request('PUT', `/v1/default_products/${owner}`, { body: { products } })).status, 204);
  assert.equal((await t.request('PUT', `/v1/admin/repos/${repo}`)).status, 201);
  await until('the configuration read', async () => {
    const report = await t.request('GET', `/v1/repos/${repo}/configuration`);
    return report.status === 200 && (report.json.source !== null || report.json.valid === false) ? report : undefined;
  });
}
