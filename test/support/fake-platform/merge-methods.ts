// The commits GitHub's merge methods make, built in the real repository: a merge commit with two
// parents, one squashed commit, or the head's commits replayed one by one onto the base.
import type { GitRepository, Signature } from './git-repository.ts';

export type MergeMethod = 'merge' | 'squash' | 'rebase';
export const MERGE_METHODS: readonly MergeMethod[] = ['merge', 'squash', 'rebase'];

/** The new tip of the base, or null when the head does not apply cleanly. */
export type Landing = string | null;

export interface LandingSpec {
  base: string;
  head: string;
  message: string;
  author: Signature;
  committer: Signature;
}

export async function mergeCommit(git: GitRepository, spec: LandingSpec): Promise<Landing> {
  const merged = await git.mergeTrees(spec.base, spec.head);
  if (!merged.clean) return null;
  return git.commitTree(merged.tree, [spec.base, spec.head], spec.message, spec.author, spec.committer);
}

export async function squashCommit(git: GitRepository, spec: LandingSpec): Promise<Landing> {
  const merged = await git.mergeTrees(spec.base, spec.head);
  if (!merged.clean) return null;
  return git.commitTree(merged.tree, [spec.base], spec.message, spec.author, spec.committer);
}

/** The head's own commits (merge commits left out) replayed onto the base; authors kept. */
export async function rebaseCommits(git: GitRepository, spec: Omit<LandingSpec, 'message' | 'author'>): Promise<Landing> {
  const commits = await git.log([spec.head, `^${spec.base}`, '--no-merges', '--reverse']);
  let onto = spec.base;
  for (const commit of commits) {
    const replayed = await git.replayTree(commit, onto);
    if (!replayed.clean) return null;
    onto = await git.commitTree(replayed.tree, [onto], commit.message, commit.author, spec.committer);
  }
  return onto;
}

export function land(git: GitRepository, method: MergeMethod, spec: LandingSpec): Promise<Landing> {
  if (method === 'merge') return mergeCommit(git, spec);
  if (method === 'squash') return squashCommit(git, spec);
  return rebaseCommits(git, spec);
}
