// The repositories of the fake platform: one bare git repository each under a temporary root,
// and who may do what in it (owner, organisation admins and members, collaborators, apps).
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Accounts } from './accounts.ts';
import { covers } from './app-registry.ts';
import { GitRepository, type FileChanges } from './git-repository.ts';
import type { IdSequence } from './id-sequence.ts';
import { serialiser, type Account, type Caller, type Permission, type RepositoryRecord } from './platform-model.ts';

export interface NewRepository {
  owner: Account;
  name: string;
  files?: FileChanges;
  defaultBranch?: string;
  private?: boolean;
  /** Number of the first pull request (bigint, to test numbers above 2^53). */
  firstNumber?: bigint;
}

export class Repositories {
  private readonly byName = new Map<string, RepositoryRecord>();
  private root: Promise<string> | undefined;

  constructor(
    private readonly accounts: Accounts,
    private readonly ids: IdSequence,
    private readonly now: () => Date,
  ) {}

  async create(spec: NewRepository): Promise<RepositoryRecord> {
    const repo = await this.record(spec.owner, spec.name, spec.defaultBranch ?? 'main', spec.private ?? true, null, spec.firstNumber ?? 1n);
    const author = { name: spec.owner.login, email: `${spec.owner.login}@users.noreply.example`, date: this.now() };
    const sha = await repo.git.writeCommit({ parent: null, changes: spec.files ?? { 'README.md': `# ${spec.name}\n` }, message: 'Initial commit', author });
    await repo.git.compareAndSwapRef(`refs/heads/${repo.defaultBranch}`, sha, null);
    return repo;
  }

  /**
   * A fork of `parent` owned by `owner`, with the parent's default branch. Like GitHub's fork
   * network, the two repositories share their objects (each lists the other's object directory
   * as an alternate), so a fork's commits can be merged into the parent without copying them.
   */
  async fork(parent: RepositoryRecord, owner: Account, name = parent.name): Promise<RepositoryRecord> {
    const fork = await this.record(owner, name, parent.defaultBranch, parent.private, parent, 1n);
    await appendFile(join(fork.git.dir, 'objects', 'info', 'alternates'), `${join(parent.git.dir, 'objects')}\n`);
    await appendFile(join(parent.git.dir, 'objects', 'info', 'alternates'), `${join(fork.git.dir, 'objects')}\n`);
    const tip = await parent.git.refSha(`refs/heads/${parent.defaultBranch}`);
    if (tip) await fork.git.compareAndSwapRef(`refs/heads/${fork.defaultBranch}`, tip, null);
    return fork;
  }

  private async record(owner: Account, name: string, defaultBranch: string, isPrivate: boolean, parent: RepositoryRecord | null, firstNumber: bigint): Promise<RepositoryRecord> {
    const key = `${owner.login}/${name}`.toLowerCase();
    if (this.byName.has(key)) throw new Error(`repository ${key} exists`);
    this.root ??= mkdtemp(join(tmpdir(), 'fake-platform-'));
    const git = await GitRepository.create(join(await this.root, `${key.replace('/', '__')}.git`), defaultBranch);
    const repo: RepositoryRecord = {
      id: this.ids.next(),
      owner,
      name,
      defaultBranch,
      private: isPrivate,
      parent,
      createdAt: this.now(),
      git,
      collaborators: new Map(),
      pulls: new Map(),
      nextNumber: firstNumber,
      checkRuns: new Map(),
      checkSuites: new Map(),
      statuses: [],
      comments: [],
      labels: new Map(),
      milestones: new Map(),
      lock: serialiser(),
    };
    this.byName.set(key, repo);
    return repo;
  }

  find(owner: string, name: string): RepositoryRecord | undefined {
    return this.byName.get(`${owner}/${name}`.toLowerCase());
  }

  all(): RepositoryRecord[] {
    return [...this.byName.values()];
  }

  /** The forks of `repo` (direct ones). */
  forksOf(repo: RepositoryRecord): RepositoryRecord[] {
    return this.all().filter((r) => r.parent === repo);
  }

  /** What `caller` may do in `repo`: an app installed on it writes; others by role. */
  permission(repo: RepositoryRecord, caller: Caller | undefined): Permission | 'none' {
    if (!caller || caller.kind === 'app') return 'none';
    if (caller.kind === 'installation') return covers(caller.installation, repo) ? 'write' : 'none';
    return this.permissionOf(repo, caller.account);
  }

  permissionOf(repo: RepositoryRecord, account: Account): Permission | 'none' {
    if (repo.owner === account) return 'admin';
    const given = repo.collaborators.get(account.login.toLowerCase());
    if (given) return given;
    const membership = repo.owner.type === 'Organization' ? this.accounts.membership(repo.owner.login, account.login) : undefined;
    if (membership?.state === 'active') return membership.role === 'admin' ? 'admin' : 'read';
    // A private fork inherits who may do what from the repository it forks.
    if (repo.private && repo.parent) return this.permissionOf(repo.parent, account);
    return repo.private ? 'none' : 'read';
  }

  async dispose(): Promise<void> {
    if (this.root) await rm(await this.root, { recursive: true, force: true });
  }
}
