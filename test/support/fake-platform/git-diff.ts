// What a comparison changes, read from the real git history: the files (with renames and line
// counts) between a merge base and a head, a pull request's totals, and the files each pushed
// commit touched. One git process per question; totals are kept per pair of commits, which
// never change.
import type { DiffFile } from './github-json.ts';
import type { GitRepository } from './git-repository.ts';
import { runGit } from './run-git.ts';

export interface DiffStats {
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
}

const STATUS: Record<string, DiffFile['status']> = { A: 'added', D: 'removed', M: 'modified', T: 'modified', R: 'renamed' };

const statsCache = new WeakMap<GitRepository, Map<string, DiffStats>>();

/** The files `head` changes since its merge base with `base` (GitHub's three-dot comparison). */
export async function diffFiles(git: GitRepository, base: string, head: string): Promise<DiffFile[]> {
  const run = await runGit(git.dir, ['diff', '--raw', '--numstat', '--no-abbrev', '-z', '-M', `${base}...${head}`, '--'], { accept: [128] });
  return run.exitCode === 0 ? parseRawNumstat(run.stdout) : [];
}

function parseRawNumstat(out: string): DiffFile[] {
  const tokens = out.split('\0');
  const files = new Map<string, DiffFile>();
  for (let i = 0; i < tokens.length; ) {
    const token = tokens[i]!;
    if (token === '') {
      i += 1;
    } else if (token.startsWith(':')) {
      const [, , oldBlob, newBlob, status = 'M'] = token.slice(1).split(' ');
      const renamed = status.startsWith('R') || status.startsWith('C');
      const path = tokens[renamed ? i + 2 : i + 1]!;
      const letter = status[0]!;
      files.set(path, { path, status: STATUS[letter] ?? 'modified', ...(renamed ? { previousPath: tokens[i + 1]! } : {}), blob: letter === 'D' ? oldBlob! : newBlob!, additions: 0, deletions: 0 });
      i += renamed ? 3 : 2;
    } else {
      const [added, deleted, inline] = token.split('\t');
      const path = inline === '' ? tokens[i + 2]! : inline!;
      const file = files.get(path);
      // Binary files count no lines ("-"), as on GitHub.
      if (file) Object.assign(file, { additions: Number(added) || 0, deletions: Number(deleted) || 0 });
      i += inline === '' ? 3 : 1;
    }
  }
  return [...files.values()];
}

/** A pull request's totals: commits, lines added and deleted, files changed. */
export async function diffStats(git: GitRepository, base: string, head: string): Promise<DiffStats> {
  let cache = statsCache.get(git);
  if (!cache) statsCache.set(git, (cache = new Map()));
  const key = `${base}:${head}`;
  const known = cache.get(key);
  if (known) return known;
  const [files, count] = await Promise.all([diffFiles(git, base, head), runGit(git.dir, ['rev-list', '--count', head, `^${base}`], { accept: [128] })]);
  const stats = {
    commits: Number(count.stdout.trim()) || 0,
    additions: files.reduce((sum, f) => sum + f.additions, 0),
    deletions: files.reduce((sum, f) => sum + f.deletions, 0),
    changedFiles: files.length,
  };
  cache.set(key, stats);
  return stats;
}

export interface CommitChanges {
  added: string[];
  removed: string[];
  modified: string[];
}

/** The paths each commit added, removed and modified against its first parent (a push's `commits`). */
export async function commitChanges(git: GitRepository, shas: string[]): Promise<Map<string, CommitChanges>> {
  const changes = new Map<string, CommitChanges>();
  if (shas.length === 0) return changes;
  const args = ['diff-tree', '--stdin', '-r', '--root', '--name-status', '--no-renames', '-z', '--diff-merges=first-parent'];
  const tokens = (await runGit(git.dir, args, { input: shas.join('\n') + '\n' })).stdout.split('\0');
  let current: CommitChanges | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (/^[ADMT]$/.test(token) && current) {
      const path = tokens[++i]!;
      (token === 'A' ? current.added : token === 'D' ? current.removed : current.modified).push(path);
    } else if (/^[0-9a-f]{40}$/.test(token)) {
      current = { added: [], removed: [], modified: [] };
      changes.set(token, current);
    }
  }
  return changes;
}
