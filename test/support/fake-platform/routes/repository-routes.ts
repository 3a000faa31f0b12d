// A repository's own settings and files: its contents at a ref, its default branch (changed by
// an admin, with the `repository` edited webhook), and its labels.
import { json, message, notFound, type RouteContext, type RouteResult, type Router } from '../http-router.ts';
import { paginate } from '../pagination.ts';
import { fullName } from '../platform-model.ts';
import { readContents } from '../repository-contents.ts';
import { setDefaultBranch } from '../repository-settings.ts';
import { actorOf, answerWith, isResult, requireRepo, stringField } from '../route-access.ts';
import { resolveRef } from './git-routes.ts';

async function contents(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const ref = context.query.get('ref') || repo.defaultBranch;
  const commit = await resolveRef(repo, ref);
  if (!commit) return message(404, `No commit found for the ref ${ref}`);
  const api = `${context.core.json.apiUrl()}/repos/${fullName(repo)}`;
  const found = await readContents(repo.git, commit, context.params[2] ?? '', { api, web: `${context.core.json.apiUrl()}/${fullName(repo)}`, ref });
  return found ? json(200, found) : notFound();
}

async function edit(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'admin');
  if (isResult(repo)) return repo;
  const branch = stringField(context.body, 'default_branch') ?? repo.defaultBranch;
  return answerWith(setDefaultBranch(context.core, repo, branch, actorOf(context)), 200, () => context.core.json.fullRepository(repo, context.core.repos.permission(repo, context.caller)));
}

function labels(context: RouteContext): RouteResult {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const all = [...repo.labels.values()];
  const { page, headers } = paginate(all, context.query, `${context.core.json.apiUrl()}/repos/${fullName(repo)}/labels`);
  return json(200, page.map((label) => context.core.pullJsons.label(repo, label)), headers);
}

export function repositoryRoutes(router: Router): void {
  router
    .add('GET', '/repos/:owner/:repo/contents', contents)
    .add('GET', '/repos/:owner/:repo/contents/*path', contents)
    .add('PATCH', '/repos/:owner/:repo', edit)
    .add('GET', '/repos/:owner/:repo/labels', labels);
}
