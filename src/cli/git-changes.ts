// The files a change touches, as `git` sees them: everything that differs between the merge base
// of base and head, and head. Renames count at both paths (--no-renames lists the old path as
// deleted and the new one as added), so moving a file out of a scope touches that scope.
import { execFile } from 'node:child_process';
import { CliError, usageError } from './cli-error.ts';

export interface GitContext {
  /** The repository's working directory. */
  cwd: string;
  env: Record<string, string | undefined>;
}

function git(context: GitContext, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: context.cwd, env: context.env, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new CliError('git is not installed (or not on PATH): scopes compute needs it'));
      const reason = stderr.trim().split('\n')[0] || error.message;
      reject(new CliError(`git ${args[0]} failed: ${reason}`));
    });
  });
}

const SHALLOW_HINT = 'this clone is shallow: fetch the history first (with actions/checkout: fetch-depth: 0)';

async function isShallow(context: GitContext): Promise<boolean> {
  return (await git(context, ['rev-parse', '--is-shallow-repository']).catch(() => '')).trim() === 'true';
}

/** The commit a ref names, or a usage error naming the ref (and, in a shallow clone, why it may be missing). */
export async function resolveCommit(context: GitContext, ref: string): Promise<string> {
  try {
    return (await git(context, ['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`])).trim();
  } catch (error) {
    const hint = (await isShallow(context)) ? `; ${SHALLOW_HINT}` : '';
    throw usageError(`"${ref}" does not name a commit in ${context.cwd} (${(error as Error).message})${hint}`);
  }
}

export async function changedFiles(context: GitContext, base: string, head: string): Promise<string[]> {
  const [baseSha, headSha] = [await resolveCommit(context, base), await resolveCommit(context, head)];
  let mergeBase: string;
  try {
    mergeBase = (await git(context, ['merge-base', baseSha, headSha])).trim();
  } catch {
    throw new CliError(`${base} and ${head} have no merge base here${(await isShallow(context)) ? `; ${SHALLOW_HINT}` : ''}`);
  }
  const out = await git(context, ['diff', '--name-only', '--no-renames', '-z', mergeBase, headSha, '--']);
  return out.split('\0').filter((path) => path.length > 0);
}

/** The top of the working tree holding cwd. */
export async function repositoryRoot(context: GitContext): Promise<string> {
  return (await git(context, ['rev-parse', '--show-toplevel'])).trim();
}
