// Which scopes a set of changed files touches, by the rules of a scopes file: a file belongs to a
// scope when it matches one of its include globs (or the scope has none) and none of its exclude
// globs; a file matching barrier_files makes the change a barrier (all_scopes). Globs are
// picomatch's: `*` and `?` stop at `/`, `**` crosses directories, braces expand; dot files match.
import picomatch from 'picomatch';
import type { BarrierFileRules, FileFilterRules } from './scopes-file.ts';

export interface FileScopeRules {
  files: Record<string, FileFilterRules>;
  barrierFiles?: BarrierFileRules | null | undefined;
}

export interface ComputedScopes {
  /** Scope names, sorted. */
  scopes: string[];
  all_scopes: boolean;
  /** The changed files that matched barrier_files (why all_scopes is true). */
  barrier_files: string[];
}

type Matcher = (path: string) => boolean;

const OPTIONS = { dot: true } as const;
const never: Matcher = () => false;
const matcher = (globs: readonly string[] | undefined): Matcher => (globs && globs.length > 0 ? picomatch([...globs], OPTIONS) : never);

function filterOf(rules: { include?: readonly string[] | undefined; exclude?: readonly string[] | undefined }): Matcher {
  const include: Matcher = rules.include && rules.include.length > 0 ? matcher(rules.include) : () => true;
  const exclude = matcher(rules.exclude);
  return (path) => include(path) && !exclude(path);
}

export function scopesOfFiles(rules: FileScopeRules, changedFiles: readonly string[]): ComputedScopes {
  const scopes = Object.entries(rules.files)
    .filter(([, filters]) => {
      const matches = filterOf(filters);
      return changedFiles.some(matches);
    })
    .map(([name]) => name)
    .sort();
  const barrier = rules.barrierFiles ? filterOf(rules.barrierFiles) : never;
  const barrierFiles = changedFiles.filter(barrier);
  return { scopes, all_scopes: barrierFiles.length > 0, barrier_files: barrierFiles };
}
