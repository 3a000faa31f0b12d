// Runs the `git` binary on a bare repository of the fake platform. Isolated from the machine's
// own git configuration, so a developer's hooks, signing or aliases never change what lands.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
  const request = {
    command: 'git',
    args: options.cwd ? [...args] : ['--git-dir', gitDir, ...args],
    cwd: options.cwd ?? gitDir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: gitDir, ...ISOLATED_ENV, ...options.env },
    input: options.input ?? '',
  };
  return spawner.run(request).then((answer) => {
    if (answer.code === 0 || (answer.code !== null && options.accept?.includes(answer.code))) return { stdout: answer.stdout, exitCode: answer.code };
    if (answer.error !== null) throw new Error(`git could not be started: ${answer.error}`);
    throw new GitFailure(args, answer.code, answer.stderr);
  });
}

interface SpawnRequest {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  input: string;
}

interface SpawnAnswer {
  id: number;
  code: number | null;
  error: string | null;
  stdout: string;
  stderr: string;
}

/**
 * git is started by a small child process (git-spawner.mjs), not by this one: forking a test
 * process that holds an embedded database copied the page tables of all its memory for every
 * git command, a third of the merge-queue tests' CPU. The child is started on first use, keeps
 * nothing alive while idle, and is started again if it dies.
 */
class GitSpawner {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, { resolve: (answer: SpawnAnswer) => void; reject: (error: Error) => void }>();
  private nextId = 1;

  run(request: SpawnRequest): Promise<SpawnAnswer> {
    const child = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) child.channel?.ref();
      child.send({ id, ...request });
    });
  }

  private started(): ChildProcess {
    if (this.child?.connected) return this.child;
    const child = fork(fileURLToPath(new URL('./git-spawner.mjs', import.meta.url)), [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'json' });
    child.on('message', (answer: SpawnAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) child.channel?.unref();
      waiting.resolve(answer);
    });
    child.on('exit', () => {
      if (this.child === child) this.child = undefined;
      for (const waiting of this.pending.values()) waiting.reject(new Error('the git spawner exited'));
      this.pending.clear();
    });
    child.unref();
    child.channel?.unref();
    this.child = child;
    return child;
  }
}

const spawner = new GitSpawner();
