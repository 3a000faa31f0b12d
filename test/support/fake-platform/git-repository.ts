// One bare git repository of the fake platform, driven through git's plumbing: commits written
// with fast-import (one process for any number of files), merges computed with
// `git merge-tree --write-tree` (git 2.38+), refs moved with compare-and-swap.
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from './run-git.ts';

export interface Signature {
  name: string;
  email: string;
  date: Date;
}

/** Path → new content, or null to delete the file. */
export type FileChanges = Record<string, string | null>;

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
  author: Signature;
  committer: Signature;
}

export type TreeMerge = { clean: true; tree: string } | { clean: false; conflicts: string[] };

export interface NewCommit {
  parent: string | null;
  changes: FileChanges;
  message: string;
  author: Signature;
  committer?: Signature;
}

const ZERO = '0'.repeat(40);

function signatureLine(who: Signature): string {
  return `${who.name} <${who.email}> ${Math.floor(who.date.getTime() / 1000)} +0000`;
}

function signatureEnv(prefix: 'AUTHOR' | 'COMMITTER', who: Signature): Record<string, string> {
  return {
    [`GIT_${prefix}_NAME`]: who.name,
    [`GIT_${prefix}_EMAIL`]: who.email,
    [`GIT_${prefix}_DATE`]: `${Math.floor(who.date.getTime() / 1000)} +0000`,
  };
}

function quotePath(path: string): string {
  return `"${path.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;
}

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

export class GitRepository {
  // The platform is the only writer of its repositories, so their refs and the commits it made
  // are also kept here: reading them costs no process (git stays the record, refs move by CAS).
  private readonly refs = new Map<string, string>();
  private readonly commits = new Set<string>();

  constructor(readonly dir: string) {}

  static async create(dir: string, defaultBranch: string): Promise<GitRepository> {
    // No template (no sample hooks to copy), and no automatic gc: objects stay loose.
    await runGit(dir, ['init', '--quiet', '--bare', '--template=', `--initial-branch=${defaultBranch}`, dir], { cwd: '/' });
    await appendFile(join(dir, 'config'), '[gc]\n\tauto = 0\n');
    return new GitRepository(dir);
  }

  private async git(args: string[], options: Parameters<typeof runGit>[2] = {}): Promise<string> {
    return (await runGit(this.dir, args, options)).stdout;
  }

  /** Writes a commit (no ref moves) and returns its sha. */
  async writeCommit(commit: NewCommit): Promise<string> {
    const committer = commit.committer ?? commit.author;
    let stream = `commit refs/fake-platform/scratch\nmark :1\nauthor ${signatureLine(commit.author)}\ncommitter ${signatureLine(committer)}\n${data(ensureNewline(commit.message))}`;
    if (commit.parent) stream += `from ${commit.parent}\n`;
    for (const [path, content] of Object.entries(commit.changes)) {
      stream += content === null ? `D ${quotePath(path)}\n` : `M 100644 inline ${quotePath(path)}\n${data(content)}`;
    }
    // Resetting the scratch ref to nothing means fast-import writes no ref at all: concurrent
    // writers never contend for a lock.
    stream += 'get-mark :1\nreset refs/fake-platform/scratch\n\n';
    return this.known((await this.git(['fast-import', '--quiet'], { input: stream })).trim());
  }

  async commitTree(tree: string, parents: string[], message: string, author: Signature, committer: Signature = author): Promise<string> {
    const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'];
    return this.known((await this.git(args, { input: ensureNewline(message), env: { ...signatureEnv('AUTHOR', author), ...signatureEnv('COMMITTER', committer) } })).trim());
  }

  private known(sha: string): string {
    this.commits.add(sha);
    return sha;
  }

  /** The commit a revision names, or null. */
  async resolve(revision: string): Promise<string | null> {
    if (this.commits.has(revision)) return revision;
    const branch = this.refs.get(`refs/heads/${revision}`);
    if (branch) return branch;
    if (revision.startsWith('-') || revision.includes('\0')) return null;
    const run = await runGit(this.dir, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], { accept: [1, 128] });
    return run.exitCode === 0 ? run.stdout.trim() : null;
  }

  async refSha(ref: string): Promise<string | null> {
    return this.refs.get(ref) ?? null;
  }

  /** Moves (or creates, with `expected` null) `ref` to `sha` only if it still points at `expected`. */
  async compareAndSwapRef(ref: string, sha: string, expected: string | null): Promise<boolean> {
    if ((this.refs.get(ref) ?? null) !== expected) return false;
    const run = await runGit(this.dir, ['update-ref', ref, sha, expected ?? ZERO], { accept: [128] });
    if (run.exitCode === 0) this.refs.set(ref, this.known(sha));
    return run.exitCode === 0;
  }

  async deleteRef(ref: string, expected: string): Promise<boolean> {
    if (this.refs.get(ref) !== expected) return false;
    const run = await runGit(this.dir, ['update-ref', '-d', ref, expected], { accept: [128] });
    if (run.exitCode === 0) this.refs.delete(ref);
    return run.exitCode === 0;
  }

  /** Branch name → tip. */
  async branches(): Promise<Map<string, string>> {
    const heads = [...this.refs].filter(([ref]) => ref.startsWith('refs/heads/'));
    return new Map(heads.map(([ref, sha]) => [ref.slice('refs/heads/'.length), sha]));
  }

  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    if (ancestor === descendant) return true;
    return (await runGit(this.dir, ['merge-base', '--is-ancestor', ancestor, descendant], { accept: [1] })).exitCode === 0;
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    const run = await runGit(this.dir, ['merge-base', a, b], { accept: [1] });
    return run.exitCode === 0 ? run.stdout.trim() : null;
  }

  /** The three-way merge of two commits' trees, from their merge base. */
  async mergeTrees(ours: string, theirs: string): Promise<TreeMerge> {
    const run = await runGit(this.dir, ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', ours, theirs], { accept: [1, 128] });
    const [tree, ...rest] = run.stdout.split('\0');
    if (run.exitCode === 0) return { clean: true, tree: tree! };
    // 128: unrelated histories, which cannot be merged either.
    return { clean: false, conflicts: [...new Set(rest.filter(Boolean))] };
  }

  /**
   * The tree of `commit`'s change replayed onto `onto` (a cherry-pick). merge-tree in git 2.39
   * has no --merge-base, so the merge base is forced: a throwaway commit with `onto`'s tree and
   * `commit`'s parent as its parent has exactly that parent as merge base with `commit`.
   */
  async replayTree(commit: CommitInfo, onto: string): Promise<TreeMerge> {
    const ontoTree = (await this.commitInfo(onto)).tree;
    const stand = await this.commitTree(ontoTree, commit.parents.slice(0, 1), 'replay', commit.author);
    return this.mergeTrees(stand, commit.sha);
  }

  async commitInfo(sha: string): Promise<CommitInfo> {
    const [info] = await this.log([sha, '-1']);
    if (!info) throw new Error(`no commit ${sha}`);
    return info;
  }

  /** Commits reachable from `args` (rev-list arguments), newest first. */
  async log(args: string[]): Promise<CommitInfo[]> {
    return (await this.sidedLog(args)).map(({ commit }) => commit);
  }

  /**
   * What moving a ref from `before` to `after` does, in one process: the commits it adds
   * (newest first), and whether it drops any (then it is not a fast-forward).
   */
  async move(before: string, after: string): Promise<{ added: CommitInfo[]; dropsCommits: boolean }> {
    const sided = await this.sidedLog(['--left-right', `${before}...${after}`]);
    return { added: sided.filter((c) => c.side === '>').map((c) => c.commit), dropsCommits: sided.some((c) => c.side === '<') };
  }

  private async sidedLog(args: string[]): Promise<{ side: string; commit: CommitInfo }[]> {
    const format = '%m%x00%H%x00%T%x00%P%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%B%x1e';
    const out = await this.git(['log', `--format=${format}`, ...args, '--']);
    return out.split('\x1e').map((record) => record.replace(/^\n/, '')).filter(Boolean).map((record) => {
      const [side, sha, tree, parents, an, ae, at, cn, ce, ct, message] = record.split('\0') as string[];
      const commit = {
        sha: sha!,
        tree: tree!,
        parents: parents ? parents.split(' ') : [],
        message: message!.replace(/\n$/, ''),
        author: { name: an!, email: ae!, date: new Date(Number(at) * 1000) },
        committer: { name: cn!, email: ce!, date: new Date(Number(ct) * 1000) },
      };
      return { side: side!, commit };
    });
  }

  /** How far `head` is ahead of and behind `base`. */
  async aheadBehind(base: string, head: string): Promise<{ ahead: number; behind: number }> {
    const [behind, ahead] = (await this.git(['rev-list', '--left-right', '--count', `${base}...${head}`])).trim().split(/\s+/).map(Number);
    return { ahead: ahead!, behind: behind! };
  }

  async listFiles(sha: string): Promise<string[]> {
    return (await this.git(['ls-tree', '-r', '-z', '--name-only', sha])).split('\0').filter(Boolean);
  }

  /** Every file of a commit with its content, in one cat-file process. */
  async readFiles(sha: string): Promise<Map<string, string>> {
    const entries = (await this.git(['ls-tree', '-r', '-z', sha])).split('\0').filter(Boolean).map((line) => {
      const tab = line.indexOf('\t');
      return { blob: line.slice(0, tab).split(' ')[2]!, path: line.slice(tab + 1) };
    });
    if (entries.length === 0) return new Map();
    const out = (await runGit(this.dir, ['cat-file', '--batch'], { input: entries.map((e) => e.blob).join('\n') + '\n' })).stdout;
    const bytes = Buffer.from(out, 'utf8');
    const files = new Map<string, string>();
    let at = 0;
    for (const entry of entries) {
      const headerEnd = bytes.indexOf(10, at);
      const size = Number(bytes.subarray(at, headerEnd).toString().split(' ')[2]);
      files.set(entry.path, bytes.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'));
      at = headerEnd + 1 + size + 1;
    }
    return files;
  }

  /** Files a commit changed against its first parent: [status letter, path]. */
  async changedFiles(sha: string): Promise<{ status: string; path: string }[]> {
    const out = await this.git(['diff-tree', '--root', '--no-commit-id', '-r', '-z', '--name-status', '--no-renames', sha]);
    const parts = out.split('\0').filter(Boolean);
    const files: { status: string; path: string }[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) files.push({ status: parts[i]!, path: parts[i + 1]! });
    return files;
  }
}

function ensureNewline(message: string): string {
  return message.endsWith('\n') ? message : `${message}\n`;
}
