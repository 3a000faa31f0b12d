// Pull requests: read (with mergeability), list, open (drafts too), edit (close, reopen, base),
// merge pinned to a head sha, update the branch; the files and commits they change.
import { diffFiles } from '../git-diff.ts';
import { json, message, notFound, type RouteContext, type RouteResult, type Router } from '../http-router.ts';
import { MERGE_METHODS, type MergeMethod } from '../merge-methods.ts';
import { paginate } from '../pagination.ts';
import { fullName, type PullRecord, type RepositoryRecord } from '../platform-model.ts';
import { editPull, openPull } from '../pull-lifecycle.ts';
import { mergeability, mergePull, updatePullBranch } from '../pull-merging.ts';
import { actorOf, answerWith, invalidField, isResult, parseNumber, requireRepo, stringField } from '../route-access.ts';

const MAX_FILES = 3000;
const MAX_COMMITS = 250;

function findPull(repo: RepositoryRecord, text: string): PullRecord | undefined {
  const number = parseNumber(text);
  return number === undefined ? undefined : repo.pulls.get(number);
}

async function getPull(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const pr = findPull(repo, context.params[2]!);
  if (!pr) return notFound();
  return json(200, await context.core.pullJson(repo, pr, await mergeability(repo, pr)));
}

async function listPulls(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const state = context.query.get('state') ?? 'open';
  const head = context.query.get('head');
  const base = context.query.get('base');
  const pulls = [...repo.pulls.values()]
    .filter((pr) => state === 'all' || pr.state === state)
    .filter((pr) => !head || `${pr.headRepo.owner.login}:${pr.headRef}`.toLowerCase() === head.toLowerCase())
    .filter((pr) => !base || pr.baseRef === base)
    .reverse();
  const { page, headers } = paginate(pulls, context.query, `${context.core.json.apiUrl()}/repos/${repo.owner.login}/${repo.name}/pulls`);
  return json(200, await Promise.all(page.map((pr) => context.core.pullJson(repo, pr))), headers);
}

async function createPull(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const [title, head, base] = ['title', 'head', 'base'].map((f) => stringField(context.body, f));
  if (!head) return invalidField('PullRequest', 'head');
  if (!base) return invalidField('PullRequest', 'base');
  const spec = { title: title ?? head, body: stringField(context.body, 'body'), head, base, draft: context.body.draft === true, user: actorOf(context) };
  return answerWith(openPull(context.core, repo, spec), 201, (pr) => context.core.pullJson(repo, pr));
}

async function patchPull(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const pr = findPull(repo, context.params[2]!);
  if (!pr) return notFound();
  const state = stringField(context.body, 'state');
  if (state !== undefined && state !== 'open' && state !== 'closed') return message(422, 'Validation Failed', [{ resource: 'PullRequest', field: 'state', code: 'invalid' }]);
  const edit = { title: stringField(context.body, 'title'), body: stringField(context.body, 'body'), base: stringField(context.body, 'base'), state: state as 'open' | 'closed' | undefined };
  return answerWith(editPull(context.core, repo, pr, edit, actorOf(context)), 200, (updated) => context.core.pullJson(repo, updated));
}

async function merge(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const pr = findPull(repo, context.params[2]!);
  if (!pr) return notFound();
  const method = (stringField(context.body, 'merge_method') ?? 'merge') as MergeMethod;
  if (!MERGE_METHODS.includes(method)) return message(422, 'Validation Failed', [{ resource: 'PullRequest', field: 'merge_method', code: 'invalid' }]);
  const request = { method, sha: stringField(context.body, 'sha'), title: stringField(context.body, 'commit_title'), message: stringField(context.body, 'commit_message') };
  return answerWith(mergePull(context.core, repo, pr, request, actorOf(context)), 200, ({ sha }) => ({ sha, merged: true, message: 'Pull Request successfully merged' }));
}

async function updateBranch(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const pr = findPull(repo, context.params[2]!);
  if (!pr) return notFound();
  const url = `${context.core.json.apiUrl()}/${repo.owner.login}/${repo.name}/pull/${pr.number}`;
  return answerWith(updatePullBranch(context.core, repo, pr, stringField(context.body, 'expected_head_sha'), actorOf(context)), 202, () => ({ message: 'Updating pull request branch.', url }));
}

/** The files a pull request changes, from the real diff of its merge base and head (GitHub lists at most 3000). */
async function files(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const pr = findPull(repo, context.params[2]!);
  if (!pr) return notFound();
  const changed = (await diffFiles(repo.git, await context.core.diffBase(repo, pr), pr.headSha)).slice(0, MAX_FILES);
  const { page, headers } = paginate(changed, context.query, `${context.core.json.apiUrl()}/repos/${fullName(repo)}/pulls/${pr.number}/files`);
  return json(200, page.map((file) => context.core.json.diffFile(repo, pr.headSha, file)), headers);
}

/** The commits of a pull request, oldest first (GitHub lists at most 250). */
async function commits(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const pr = findPull(repo, context.params[2]!);
  if (!pr) return notFound();
  const log = (await repo.git.log([pr.headSha, `^${await context.core.diffBase(repo, pr)}`])).slice(0, MAX_COMMITS).reverse();
  const { page, headers } = paginate(log, context.query, `${context.core.json.apiUrl()}/repos/${fullName(repo)}/pulls/${pr.number}/commits`);
  return json(200, page.map((commit) => context.core.json.commit(repo, commit)), headers);
}

export function pullRoutes(router: Router): void {
  router
    .add('GET', '/repos/:owner/:repo/pulls', listPulls)
    .add('POST', '/repos/:owner/:repo/pulls', createPull)
    .add('GET', '/repos/:owner/:repo/pulls/:number', getPull)
    .add('PATCH', '/repos/:owner/:repo/pulls/:number', patchPull)
    .add('PUT', '/repos/:owner/:repo/pulls/:number/merge', merge)
    .add('PUT', '/repos/:owner/:repo/pulls/:number/update-branch', updateBranch)
    .add('GET', '/repos/:owner/:repo/pulls/:number/files', files)
    .add('GET', '/repos/:owner/:repo/pulls/:number/commits', commits);
}
