// What the platform said of each pull request, kept between evaluations so an evaluation reads
// only what changed (issue 30: platform reads per evaluation at p50 ≤ 2). Each part is keyed by
// what makes it stale: files and commits by head (a commit never changes), check runs and
// statuses by head until a check_run/check_suite or a status webhook on that head, reviews until a review webhook, commits behind by head and base,
// the pull request itself until a pull_request webhook brings a newer one. Per process, bounded;
// a lost webhook costs a stale part until the part's age limit, never a wrong merge: the merge
// queue reads checks itself before it merges.
import type { PullRequest } from '../../hosting/hosting-types.ts';
import type { CheckSnapshot, FileSnapshot, ReviewSnapshot } from '../../domain/rules/pull-snapshot.ts';

interface Timed<T> {
  value: T;
  at: number;
}

export interface CachedParts {
  pull?: Timed<PullRequest>;
  /** Check runs and commit statuses apart: a check_run webhook makes only the runs stale. */
  runs?: Timed<{ sha: string; checks: CheckSnapshot[] }>;
  statuses?: Timed<{ sha: string; checks: CheckSnapshot[] }>;
  reviews?: Timed<ReviewSnapshot[]>;
  files?: Timed<{ sha: string; files: FileSnapshot[] | null; added: number | null; deleted: number | null }>;
  commits?: Timed<{ sha: string; coAuthors: string[]; linear: boolean }>;
  behind?: Timed<{ head: string; base: string; behind: number }>;
}

/** How long a part is believed without a webhook saying it changed. */
export const PART_MAX_AGE_MS = 10 * 60_000;
const MAX_ENTRIES = 20_000;

export class SnapshotCache {
  private readonly entries = new Map<string, CachedParts>();
  /** Per pull request, how many times a webhook said a part changed: a read that began before one is not kept. */
  private readonly forgets = new WeakMap<CachedParts, number>();

  constructor(private readonly clock: () => number = Date.now) {}

  parts(repositoryId: string, number: bigint): CachedParts {
    const key = `${repositoryId}#${number}`;
    let parts = this.entries.get(key);
    if (parts) {
      // Most recently used last, so the oldest is the first to go.
      this.entries.delete(key);
      this.entries.set(key, parts);
      return parts;
    }
    parts = {};
    this.entries.set(key, parts);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return parts;
  }

  /** A part still believed: present, for the same key when it has one, and not too old. */
  fresh<K extends keyof CachedParts>(parts: CachedParts, part: K, matches: (value: NonNullable<CachedParts[K]>['value']) => boolean = () => true): NonNullable<CachedParts[K]>['value'] | undefined {
    const timed = parts[part] as Timed<unknown> | undefined;
    if (!timed || this.clock() - timed.at > PART_MAX_AGE_MS) return undefined;
    const value = timed.value as NonNullable<CachedParts[K]>['value'];
    return matches(value) ? value : undefined;
  }

  /** What `set` is given as `readSince`: taken before a read of the platform begins. */
  version(parts: CachedParts): number {
    return this.forgets.get(parts) ?? 0;
  }

  /**
   * Keeps a part. A value read from the platform (`readSince` given) is dropped when a webhook said
   * something changed while it was being read: it may predate that change, and the evaluation the
   * webhook asked for must read again rather than find it.
   */
  set<K extends keyof CachedParts>(parts: CachedParts, part: K, value: NonNullable<CachedParts[K]>['value'], readSince?: number): void {
    if (readSince !== undefined && readSince !== this.version(parts)) return;
    (parts as Record<string, Timed<unknown>>)[part] = { value, at: this.clock() };
  }

  /** A pull request (from a webhook, or read): kept unless the one known was updated later. */
  keepPull(parts: CachedParts, pull: PullRequest): void {
    if (parts.pull && parts.pull.value.updatedAt > pull.updatedAt) return;
    this.set(parts, 'pull', pull);
  }

  pullFromWebhook(repositoryId: string, pull: PullRequest): void {
    this.keepPull(this.parts(repositoryId, pull.number), pull);
  }

  forget(repositoryId: string, number: bigint, part: keyof CachedParts): void {
    const parts = this.entries.get(`${repositoryId}#${number}`);
    if (!parts) return;
    delete parts[part];
    this.forgets.set(parts, this.version(parts) + 1);
  }
}
