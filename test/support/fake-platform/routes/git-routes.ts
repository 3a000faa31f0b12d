// Branches and commits: read, create, move (fast-forward only unless forced), delete refs; read
// commits and branches; compare two commits; merge a head into a branch (POST /merges).
import { moveBranch } from '../branch-moves.ts';
import { json, message, notFound, type RouteContext, type RouteResult, type Router } from '../http-router.ts';
import { webFlow } from '../pull-merging.ts';
import { actorOf, isResult, requireRepo, stringField } from '../route-access.ts';
import { diffFiles } from '../git-diff.ts';
import { fullName, type RepositoryRecord } from '../platform-model.ts';

const BRANCH_REF = /^(?:refs\/)?heads\/(.+)$/;

/** Roughly git's check-ref-format: what GitHub refuses as a branch name. */
export function validBranchName(name: string): boolean {
  return !/(^[/.]|\/\.|\.\.|[/.]$|\.lock$|@\{|[\x00-\x20~^:?*[\\\x7f]|\/\/)/.test(name) && name !== '@';
}

function branchOf(ref: string): string | undefined {
  return BRANCH_REF.exec(ref)?.[1];
}

async function getRef(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const branch = branchOf(context.params[2]!);
  const sha = branch && (await repo.git.refSha(`refs/heads/${branch}`));
  return sha ? json(200, context.core.json.ref(repo, branch, sha)) : notFound();
}

async function createRef(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const ref = stringField(context.body, 'ref');
  const sha = stringField(context.body, 'sha');
  if (!ref || !sha) return message(422, 'Invalid request.\n\n"ref" and "sha" are required.');
  const branch = ref.startsWith('refs/') ? branchOf(ref) : undefined;
  if (!branch || !validBranchName(branch)) return message(422, 'Reference name is invalid');
  return repo.lock(async () => {
    const commit = await repo.git.resolve(sha);
    if (!commit || commit !== sha.toLowerCase()) return message(422, 'Object does not exist');
    const moved = await moveBranch(context.core, repo, branch, commit, { expected: null, actor: actorOf(context) });
    return moved === 'moved' ? json(201, context.core.json.ref(repo, branch, commit)) : message(422, 'Reference already exists');
  });
}

async function updateRef(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const branch = branchOf(context.params[2]!);
  const sha = stringField(context.body, 'sha');
  if (!branch) return message(422, 'Reference does not exist');
  if (!sha) return message(422, 'Invalid request.\n\n"sha" wasn\'t supplied.');
  return repo.lock(async () => {
    const commit = await repo.git.resolve(sha);
    if (!commit || commit !== sha.toLowerCase()) return message(422, 'Object does not exist');
    if (!(await repo.git.refSha(`refs/heads/${branch}`))) return message(422, 'Reference does not exist');
    const moved = await moveBranch(context.core, repo, branch, commit, { force: context.body.force === true, actor: actorOf(context) });
    if (moved === 'not_fast_forward') return message(422, 'Update is not a fast forward');
    return moved === 'moved' ? json(200, context.core.json.ref(repo, branch, commit)) : message(422, 'Reference does not exist');
  });
}

async function deleteRef(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const branch = branchOf(context.params[2]!);
  if (!branch) return message(422, 'Reference does not exist');
  return repo.lock(async () => {
    const moved = await moveBranch(context.core, repo, branch, null, { actor: actorOf(context) });
    return moved === 'moved' ? json(204) : message(422, 'Reference does not exist');
  });
}

async function getBranch(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const name = context.params[2]!;
  const sha = await repo.git.refSha(`refs/heads/${name}`);
  if (!sha) return message(404, 'Branch not found');
  return json(200, { name, commit: context.core.json.commit(repo, await repo.git.commitInfo(sha)), protected: false });
}

async function getCommit(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const sha = await resolveRef(repo, context.params[2]!);
  if (!sha) return message(422, `No commit found for SHA: ${context.params[2]}`);
  return json(200, context.core.json.commit(repo, await repo.git.commitInfo(sha), await repo.git.changedFiles(sha)));
}

async function compare(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const [baseName, headName] = context.params[2]!.split('...') as [string, string | undefined];
  const base = await resolveRef(repo, baseName);
  const head = headName === undefined ? null : await resolveRef(repo, headName);
  if (!base || !head) return notFound();
  const mergeBase = await repo.git.mergeBase(base, head);
  if (!mergeBase) return notFound();
  const { ahead, behind } = await repo.git.aheadBehind(base, head);
  const status = ahead === 0 && behind === 0 ? 'identical' : behind === 0 ? 'ahead' : ahead === 0 ? 'behind' : 'diverged';
  const commits = await repo.git.log([head, `^${base}`, '--reverse', '-250']);
  const files = (await diffFiles(repo.git, base, head)).slice(0, 300);
  const render = (sha: string) => repo.git.commitInfo(sha).then((info) => context.core.json.commit(repo, info));
  const web = `${context.core.json.apiUrl()}/${fullName(repo)}/compare/${context.params[2]}`;
  return json(200, {
    url: `${context.core.json.apiUrl()}/repos/${fullName(repo)}/compare/${context.params[2]}`,
    html_url: web,
    permalink_url: `${context.core.json.apiUrl()}/${fullName(repo)}/compare/${base}...${head}`,
    diff_url: `${web}.diff`,
    patch_url: `${web}.patch`,
    base_commit: await render(base),
    merge_base_commit: await render(mergeBase),
    status,
    ahead_by: ahead,
    behind_by: behind,
    total_commits: ahead,
    commits: commits.map((c) => context.core.json.commit(repo, c)),
    files: files.map((file) => context.core.json.diffFile(repo, head, file)),
  });
}

async function merge(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const baseName = stringField(context.body, 'base');
  const headName = stringField(context.body, 'head');
  if (!baseName || !headName) return message(422, 'Invalid request.\n\n"base" and "head" are required.');
  const actor = actorOf(context);
  return repo.lock(async () => {
    const base = await repo.git.refSha(`refs/heads/${baseName}`);
    if (!base) return message(404, 'Base does not exist');
    const head = await resolveRef(repo, headName);
    if (!head) return message(404, 'Head does not exist');
    if (await repo.git.isAncestor(head, base)) return json(204);
    const merged = await repo.git.mergeTrees(base, head);
    if (!merged.clean) return message(409, 'Merge conflict');
    const text = stringField(context.body, 'commit_message') ?? `Merge ${headName} into ${baseName}`;
    const sha = await repo.git.commitTree(merged.tree, [base, head], text, context.core.signature(actor), webFlow(context.core));
    const moved = await moveBranch(context.core, repo, baseName, sha, { expected: base, actor });
    if (moved !== 'moved') return message(409, 'Merge conflict');
    return json(201, context.core.json.commit(repo, await repo.git.commitInfo(sha)));
  });
}

/** A full or abbreviated sha, or a branch name. */
export async function resolveRef(repo: RepositoryRecord, ref: string): Promise<string | null> {
  if (/^[0-9a-f]{7,40}$/i.test(ref)) return repo.git.resolve(ref.toLowerCase());
  return repo.git.refSha(`refs/heads/${ref}`);
}

export function gitRoutes(router: Router): void {
  router
    .add('GET', '/repos/:owner/:repo/git/ref/*ref', getRef)
    .add('GET', '/repos/:owner/:repo/git/refs/*ref', getRef)
    .add('POST', '/repos/:owner/:repo/git/refs', createRef)
    .add('PATCH', '/repos/:owner/:repo/git/refs/*ref', updateRef)
    .add('DELETE', '/repos/:owner/:repo/git/refs/*ref', deleteRef)
    .add('GET', '/repos/:owner/:repo/branches/*branch', getBranch)
    .add('GET', '/repos/:owner/:repo/compare/*spec', compare)
    .add('POST', '/repos/:owner/:repo/merges', merge)
    .add('GET', '/repos/:owner/:repo/commits/*ref', getCommit);
}
