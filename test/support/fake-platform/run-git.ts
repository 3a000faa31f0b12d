// Runs the `git` binary on a bare repository of the fake platform. Isolated from the machine's
// own git configuration, so a developer's hooks, signing or aliases never change what lands.
import { spawn } from 'node:child_process';

export class GitFailure extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} exited ${exitCode}: ${stderr.trim()}`);
  }
}

export interface GitRun {
  stdout: string;
  exitCode: number;
}

export interface GitOptions {
  input?: string;
  env?: Record<string, string>;
  /** Exit codes other than 0 that are answers, not failures (merge-tree's 1 = conflicts). */
  accept?: readonly number[];
  /** Run in this directory instead of the repository (a temporary worktree). */
  cwd?: string;
}

const ISOLATED_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
};

/** How many git processes were started (benchmarks count them: a machine-independent cost). */
export const gitProcesses = { started: 0 };

export function runGit(gitDir: string, args: readonly string[], options: GitOptions = {}): Promise<GitRun> {
  gitProcesses.started += 1;
  return new Promise((resolve, reject) => {
    const child = spawn('git', options.cwd ? args : ['--git-dir', gitDir, ...args], {
      cwd: options.cwd ?? gitDir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: gitDir, ...ISOLATED_ENV, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0 || (code !== null && options.accept?.includes(code))) resolve({ stdout, exitCode: code });
      else reject(new GitFailure(args, code, Buffer.concat(err).toString('utf8')));
    });
    child.stdin.on('error', () => undefined); // git may exit before reading all of its input
    child.stdin.end(options.input ?? '');
  });
}
