// Assembles the snapshot a pull request's conditions read (src/domain/rules/pull-snapshot.ts):
// what webhooks brought (SnapshotCache), what Switchyard knows itself (scopes, the queue), and
// the platform reads the configuration needs, within a budget per evaluation.
import type { HostingPlatform } from '../../hosting/hosting-platform.ts';
import type { PullRequest, RepositoryRef } from '../../hosting/hosting-types.ts';
import { bodyWithoutComments, dependsOnReferences, referenceText } from '../../domain/rules/pull-body.ts';
import type { CheckSnapshot, PullRequestSnapshot, QueueSnapshot } from '../../domain/rules/pull-snapshot.ts';
import { checkSnapshots, coAuthorsOf, fileSnapshots, reviewSnapshots } from './platform-parts.ts';
import type { SnapshotCache } from './snapshot-cache.ts';
import type { SnapshotPart } from './snapshot-needs.ts';

export interface SnapshotFacts {
  scopes: readonly string[] | null;
  queue: QueueSnapshot | null;
  /** Configuration file paths, to tell whether the pull request changes one. */
  configurationPaths: readonly string[];
  /** Members of the teams the configuration names, by `org/team`. */
  teamMembers: ReadonlyMap<string, readonly string[] | null>;
}

/** Counts what one evaluation asked of the platform (benchmarks print it). */
export interface ReadCounter {
  reads: number;
}

export class PullSnapshotReader {
  constructor(
    private readonly platform: HostingPlatform,
    private readonly cache: SnapshotCache,
  ) {}

  /** null when the platform does not know the pull request. */
  async read(repositoryId: string, repo: RepositoryRef, number: bigint, parts: ReadonlySet<SnapshotPart>, facts: SnapshotFacts, counter: ReadCounter): Promise<PullRequestSnapshot | null> {
    const cached = this.cache.parts(repositoryId, number);
    let pull = this.cache.fresh(cached, 'pull');
    if (!pull || (parts.has('conflict') && pull.mergeable === null && pull.state === 'open')) {
      counter.reads++;
      const read = await this.platform.pullRequest(repo, number);
      if (!read) return null;
      this.cache.keepPull(cached, read);
      pull = read;
    }
    const sha = pull.head.sha;
    const known = pull;
    // The parts do not depend on each other: read at once, an evaluation with nothing cached waits
    // for one round trip to the platform instead of five.
    const [runs, statuses, reviews, files, commits, behind] = await Promise.all([
      parts.has('checks') ? this.part(cached, 'runs', (v) => v.sha === sha, counter, 1, async () => ({ sha, checks: checkSnapshots(await this.platform.checkRuns(repo, sha), []) })) : null,
      parts.has('checks') ? this.part(cached, 'statuses', (v) => v.sha === sha, counter, 1, async () => ({ sha, checks: checkSnapshots([], (await this.platform.combinedStatus(repo, sha)).statuses) })) : null,
      parts.has('reviews') ? this.part(cached, 'reviews', () => true, counter, 1, async () => reviewSnapshots(await this.platform.reviews(repo, number))) : [],
      parts.has('files') ? this.part(cached, 'files', (v) => v.sha === sha, counter, 1, async () => ({ sha, ...fileSnapshots(await this.platform.pullRequestFiles(repo, number)) })) : null,
      parts.has('commits') ? this.part(cached, 'commits', (v) => v.sha === sha, counter, 1, async () => ({ sha, ...coAuthorsOf(await this.platform.pullRequestCommits(repo, number), known.author) })) : null,
      parts.has('behind') ? this.part(cached, 'behind', (v) => v.head === sha && v.base === known.base.sha, counter, 1, async () => ({ head: sha, base: known.base.sha, behind: (await this.platform.compare(repo, known.head.sha, known.base.ref)).aheadBy })) : null,
    ]);
    return snapshotOf(repo, pull, { checks: withRunsFirst(statuses?.checks ?? [], runs?.checks ?? []), reviews, files, commits, behind: behind?.behind ?? null }, facts);
  }

  private async part<K extends 'runs' | 'statuses' | 'reviews' | 'files' | 'commits' | 'behind'>(cached: ReturnType<SnapshotCache['parts']>, part: K, matches: (value: any) => boolean, counter: ReadCounter, cost: number, read: () => Promise<any>): Promise<any> {
    const known = this.cache.fresh(cached, part, matches);
    if (known !== undefined) return known;
    counter.reads += cost;
    const since = this.cache.version(cached);
    const value = await read();
    this.cache.set(cached, part, value, since);
    return value;
  }
}

/** One state per name; a check run and a status of the same name: the check run (as checkSnapshots). */
function withRunsFirst(statuses: readonly CheckSnapshot[], runs: readonly CheckSnapshot[]): CheckSnapshot[] {
  const byName = new Map<string, CheckSnapshot>();
  for (const check of [...statuses, ...runs]) byName.set(check.name, check);
  return [...byName.values()];
}

interface ReadParts {
  checks: CheckSnapshot[];
  reviews: PullRequestSnapshot['reviews'];
  files: { files: PullRequestSnapshot['files']; added: number | null; deleted: number | null } | null;
  commits: { coAuthors: string[]; linear: boolean } | null;
  behind: number | null;
}

function snapshotOf(repo: RepositoryRef, pull: PullRequest, parts: ReadParts, facts: SnapshotFacts): PullRequestSnapshot {
  const fullName = `${repo.owner}/${repo.repo}`;
  const body = pull.body ?? '';
  const files = parts.files?.files ?? null;
  return {
    number: pull.number,
    title: pull.title,
    body: bodyWithoutComments(body),
    bodyRaw: body,
    base: pull.base.ref,
    head: pull.head.ref,
    headRepoFullName: pull.headRepoFullName ?? fullName,
    fromFork: pull.headRepoFullName !== undefined && pull.headRepoFullName !== null && pull.headRepoFullName.toLowerCase() !== (pull.baseRepoFullName ?? fullName).toLowerCase(),
    author: pull.author,
    mergedBy: pull.mergedBy ?? null,
    milestone: pull.milestone ?? null,
    assignees: pull.assignees ?? [],
    labels: pull.labels ?? [],
    draft: pull.draft,
    closed: pull.state === 'closed',
    merged: pull.merged,
    locked: pull.locked ?? false,
    conflict: pull.mergeable === null ? null : !pull.mergeable,
    linearHistory: parts.commits?.linear ?? null,
    repositoryName: repo.repo,
    repositoryFullName: fullName,
    reviewRequested: pull.requestedReviewers ?? [],
    reviews: parts.reviews,
    checks: parts.checks,
    files,
    addedLines: parts.files?.added ?? null,
    deletedLines: parts.files?.deleted ?? null,
    commitsBehind: parts.behind,
    coAuthors: parts.commits?.coAuthors ?? [],
    dependsOn: dependsOnReferences(body, fullName).map(referenceText),
    scopes: facts.scopes,
    queue: facts.queue,
    createdAt: new Date(pull.createdAt ?? pull.updatedAt),
    updatedAt: new Date(pull.updatedAt),
    closedAt: pull.closedAt ? new Date(pull.closedAt) : null,
    mergedAt: pull.mergedAt ? new Date(pull.mergedAt) : null,
    configurationChanged: files !== null && files.some((file) => facts.configurationPaths.includes(file.path) || (file.previousPath !== undefined && facts.configurationPaths.includes(file.previousPath))),
    teamMembers: facts.teamMembers,
  };
}
