// Scope reports (DESIGN.md §5): writes by commit and by pull request number, and their reads.
// A report by number orders itself against head moves under the pull request's lock.
import { ApiError } from '../errors.ts';
import { effectiveScopes, type EffectiveScopes, type StoredScopeReport } from '../domain/scopes/effective-scopes.ts';
import type { ScopeReport } from '../domain/scopes/scope-report.ts';
import type { RepositoryIdentity } from '../storage/queries/repositories.ts';
import type { Store } from '../storage/store.ts';

export interface PullScopes extends EffectiveScopes {
  headSha: string | null;
}

async function requireRepository(store: Store, owner: string, name: string): Promise<RepositoryIdentity> {
  const repository = await store.repositories.identify(owner, name);
  if (!repository) throw new ApiError('repository_not_found');
  return repository;
}

export async function reportCommitScopes(store: Store, owner: string, name: string, sha: string, report: ScopeReport): Promise<void> {
  const repository = await requireRepository(store, owner, name);
  await store.scopeReports.putCommit(repository.id, sha.toLowerCase(), report);
}

/** Refused (409) once the pull request is known closed or merged; accepted for one never heard of. */
export async function reportPullScopes(store: Store, owner: string, name: string, number: bigint, report: ScopeReport): Promise<void> {
  const repository = await requireRepository(store, owner, name);
  if (!(await store.scopeReports.putPull(repository.id, number, report))) throw new ApiError('pull_request_closed');
}

export async function readPullScopes(store: Store, owner: string, name: string, number: bigint): Promise<PullScopes> {
  const repository = await requireRepository(store, owner, name);
  const inputs = await store.scopeReports.findPullInputs(repository.id, number);
  if (!inputs) throw new ApiError('pull_request_not_found');
  return { headSha: inputs.headSha, ...effectiveScopes(inputs) };
}

export async function readCommitScopes(store: Store, owner: string, name: string, sha: string): Promise<StoredScopeReport> {
  const repository = await requireRepository(store, owner, name);
  const report = await store.scopeReports.findCommit(repository.id, sha.toLowerCase());
  if (!report) throw new ApiError('scope_report_not_found');
  return report;
}
