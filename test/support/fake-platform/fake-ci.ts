// A CI service beside the fake platform: on every push to a branch it starts the configured
// checks on the new head (check runs as its own GitHub App, or commit statuses), then after a
// delay posts each verdict, computed by a rule over the commit's files. Everything goes through
// the platform's own operations, so webhooks and polling see it as they would see GitHub Actions.
import { createCheckRun, createStatus, updateCheckRun } from './checks.ts';
import { valueOf } from './platform-answer.ts';
import type { BranchMoved, PlatformCore } from './platform-core.ts';
import type { FakeApp, RepositoryRecord } from './platform-model.ts';

export type Verdict = 'success' | 'failure';

export interface CommitFiles {
  repository: string;
  branch: string;
  sha: string;
  paths: ReadonlySet<string>;
  read(path: string): Promise<string | undefined>;
}

export interface CiCheck {
  name: string;
  /** a check run of the CI app (default) or a commit status */
  kind?: 'check_run' | 'status';
  /** milliseconds from the push to the verdict (default: the CI's `delayMs`) */
  delayMs?: number;
  /** the verdict from the commit's files (default: success) */
  verdict?: (files: CommitFiles) => Verdict | Promise<Verdict>;
  /** 'pending': starts and never finishes; 'absent': never even shows up */
  hang?: 'pending' | 'absent';
}

export interface CiConfig {
  checks: CiCheck[];
  delayMs?: number;
  /** branches whose pushes run CI (default: every branch) */
  branches?: (branch: string) => boolean;
}

export interface CiRun {
  repository: string;
  branch: string;
  sha: string;
  check: string;
  verdict: Verdict | 'pending';
}

/** The example rule: fails when all the given files are present together. */
export function failWhenAllPresent(paths: string[]): (files: CommitFiles) => Verdict {
  return (files) => (paths.every((p) => files.paths.has(p)) ? 'failure' : 'success');
}

export class FakeCi {
  readonly runs: CiRun[] = [];
  private config: CiConfig | undefined;
  private readonly pending = new Set<Promise<void>>();
  /** waits for a verdict's delay, each with what ends it early when the CI stops */
  private readonly waits = new Map<NodeJS.Timeout, () => void>();

  private ciApp: FakeApp | undefined;

  constructor(
    private readonly core: PlatformCore,
    private readonly createApp: () => FakeApp,
  ) {
    core.branchListeners.push((move) => this.onBranchMoved(move));
  }

  /** The app whose check runs the CI posts (made on first use). */
  get app(): FakeApp {
    this.ciApp ??= this.createApp();
    return this.ciApp;
  }

  configure(config: CiConfig | undefined): void {
    this.config = config;
  }

  /** Resolves once every verdict due so far has been posted (checks that hang excepted). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  stop(): void {
    this.config = undefined;
    for (const [timer, end] of this.waits) {
      clearTimeout(timer);
      end();
    }
    this.waits.clear();
  }

  private onBranchMoved(move: BranchMoved): void {
    const config = this.config;
    if (!config || move.after === null || (config.branches && !config.branches(move.branch))) return;
    // A push to a fork runs the CI of the repository it forks, as pull requests from forks do.
    const repo = move.repo.parent ?? move.repo;
    const files = lazyFiles(repo, move.branch, move.after);
    for (const check of config.checks) {
      if (check.hang === 'absent') continue;
      const run: CiRun = { repository: `${repo.owner.login}/${repo.name}`, branch: move.branch, sha: move.after, check: check.name, verdict: 'pending' };
      this.runs.push(run);
      this.track(this.runCheck(repo, check, run, files, check.delayMs ?? config.delayMs ?? 0));
    }
  }

  private async runCheck(repo: RepositoryRecord, check: CiCheck, run: CiRun, files: () => Promise<CommitFiles>, delayMs: number): Promise<void> {
    const bot = this.app.bot;
    const started = check.kind === 'status'
      ? valueOf(await createStatus(this.core, repo, run.sha, { state: 'pending', context: check.name }, bot)).id
      : valueOf(await createCheckRun(this.core, repo, this.app, run.sha, { name: check.name, status: 'in_progress' })).id;
    if (check.hang === 'pending') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => (this.waits.delete(timer), resolve()), delayMs);
      this.waits.set(timer, resolve);
    });
    if (!this.config) return; // stopped meanwhile
    run.verdict = check.verdict ? await check.verdict(await files()) : 'success';
    if (check.kind === 'status') valueOf(await createStatus(this.core, repo, run.sha, { state: run.verdict, context: check.name }, bot));
    else valueOf(await updateCheckRun(this.core, repo, this.app, started, { conclusion: run.verdict }));
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch(() => undefined).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}

function lazyFiles(repo: RepositoryRecord, branch: string, sha: string): () => Promise<CommitFiles> {
  let files: Promise<CommitFiles> | undefined;
  return () => {
    files ??= repo.git.readFiles(sha).then((contents) => ({
      repository: `${repo.owner.login}/${repo.name}`,
      branch,
      sha,
      paths: new Set(contents.keys()),
      read: async (path: string) => contents.get(path),
    }));
    return files;
  };
}
