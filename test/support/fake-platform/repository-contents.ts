// What GET /repos/{o}/{r}/contents/{path} reads from a commit's tree: a file with its blob and
// content (base64, wrapped at 60 characters as GitHub wraps it; "" with encoding "none" above
// 1 MiB, as GitHub answers without the raw media type), or a directory's entries.
import type { GitRepository } from './git-repository.ts';
import type { Json } from './github-json.ts';
import { runGit } from './run-git.ts';

export const CONTENT_LIMIT = 1024 * 1024;

interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  size: number;
  path: string;
}

const KIND: Record<string, string> = { blob: 'file', tree: 'dir', commit: 'submodule' };

async function lsTree(git: GitRepository, commit: string, pathspec: string[]): Promise<TreeEntry[]> {
  const out = (await runGit(git.dir, ['--literal-pathspecs', 'ls-tree', '-l', '-z', commit, '--', ...pathspec])).stdout;
  return out.split('\0').filter(Boolean).map((line) => {
    const tab = line.indexOf('\t');
    const [mode, type, sha, size] = line.slice(0, tab).split(/ +/) as [string, TreeEntry['type'], string, string];
    return { mode, type, sha, size: size === '-' ? 0 : Number(size), path: line.slice(tab + 1) };
  });
}

export interface ContentUrls {
  api: string;
  web: string;
  ref: string;
}

function entryJson(entry: TreeEntry, urls: ContentUrls): Json {
  const kind = entry.mode === '120000' ? 'symlink' : KIND[entry.type]!;
  const self = `${urls.api}/contents/${entry.path}?ref=${urls.ref}`;
  const git = `${urls.api}/git/${entry.type === 'tree' ? 'trees' : 'blobs'}/${entry.sha}`;
  const html = `${urls.web}/${entry.type === 'tree' ? 'tree' : 'blob'}/${urls.ref}/${entry.path}`;
  return {
    type: kind,
    size: entry.size,
    name: entry.path.slice(entry.path.lastIndexOf('/') + 1),
    path: entry.path,
    sha: entry.sha,
    url: self,
    git_url: git,
    html_url: html,
    download_url: kind === 'file' ? `${urls.web}/raw/${urls.ref}/${entry.path}` : null,
    _links: { self, git, html },
  };
}

/** The file or directory at `path` of `commit` in GitHub's shape, or undefined when there is none. */
export async function readContents(git: GitRepository, commit: string, path: string, urls: ContentUrls): Promise<Json | Json[] | undefined> {
  const clean = path.replace(/^\/+|\/+$/g, '');
  if (clean === '') return (await lsTree(git, commit, [])).map((e) => entryJson(e, urls));
  const [entry] = await lsTree(git, commit, [clean]);
  if (!entry || entry.path !== clean) return undefined;
  if (entry.type === 'tree') return (await lsTree(git, commit, [`${clean}/`])).map((e) => entryJson(e, urls));
  const json = entryJson(entry, urls);
  if (entry.type !== 'blob') return json;
  if (entry.size > CONTENT_LIMIT) return { ...json, content: '', encoding: 'none' };
  const bytes = Buffer.from((await runGit(git.dir, ['cat-file', 'blob', entry.sha])).stdout, 'utf8');
  const content = bytes.toString('base64').replace(/.{60}/g, '$&\n');
  return { ...json, content: content.endsWith('\n') || content === '' ? content : `${content}\n`, encoding: 'base64' };
}
