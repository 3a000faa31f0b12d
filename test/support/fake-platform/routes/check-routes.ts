// Check runs (created and updated only by GitHub Apps, as on GitHub), commit statuses, and the
// per-commit reads a merge queue polls: a ref's check runs and its combined status.
import { checkRunsOf, combinedStatus, createCheckRun, createStatus, updateCheckRun, type CheckRunFields } from '../checks.ts';
import { json, message, notFound, type RouteContext, type RouteResult, type Router } from '../http-router.ts';
import { paginate } from '../pagination.ts';
import type { CheckConclusion, CheckStatus, StatusState } from '../platform-model.ts';
import { actorOf, answerWith, isResult, parseNumber, requireRepo, stringField } from '../route-access.ts';
import { resolveRef } from './git-routes.ts';

function fieldsOf(body: Record<string, unknown>): CheckRunFields {
  const output = body.output as CheckRunFields['output'];
  return {
    name: stringField(body, 'name'),
    status: stringField(body, 'status') as CheckStatus | undefined,
    conclusion: stringField(body, 'conclusion') as CheckConclusion | undefined,
    detailsUrl: stringField(body, 'details_url'),
    externalId: stringField(body, 'external_id'),
    output: typeof output === 'object' && output !== null ? output : undefined,
  };
}

function appOf(context: RouteContext) {
  return context.caller?.kind === 'installation' ? context.caller.installation.app : undefined;
}

async function create(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const app = appOf(context);
  if (!app) return message(403, 'You must authenticate via a GitHub App.');
  const headSha = stringField(context.body, 'head_sha') ?? '';
  const pulls = (sha: string) => context.core.pullsAt(repo, sha);
  return answerWith(createCheckRun(context.core, repo, app, headSha, fieldsOf(context.body)), 201, async (run) => context.core.json.checkRun(repo, run, await pulls(run.headSha)));
}

async function update(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const app = appOf(context);
  const id = parseNumber(context.params[2]!);
  if (!app) return message(403, 'You must authenticate via a GitHub App.');
  if (id === undefined) return notFound();
  return answerWith(updateCheckRun(context.core, repo, app, id, fieldsOf(context.body)), 200, async (run) => context.core.json.checkRun(repo, run, await context.core.pullsAt(repo, run.headSha)));
}

async function getRun(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const id = parseNumber(context.params[2]!);
  const run = id === undefined ? undefined : repo.checkRuns.get(id);
  return run ? json(200, context.core.json.checkRun(repo, run, await context.core.pullsAt(repo, run.headSha))) : notFound();
}

async function listForRef(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const sha = await resolveRef(repo, context.params[2]!);
  if (!sha) return message(422, `No commit found for SHA: ${context.params[2]}`);
  const appId = context.query.get('app_id');
  const filter = { name: context.query.get('check_name') ?? undefined, status: context.query.get('status') ?? undefined, appId: appId === null ? undefined : (parseNumber(appId) ?? -1n), latest: context.query.get('filter') !== 'all' };
  const runs = checkRunsOf(repo, sha, filter);
  const { page, headers } = paginate(runs, context.query, `${context.core.json.apiUrl()}/repos/${repo.owner.login}/${repo.name}/commits/${sha}/check-runs`);
  const pulls = await context.core.pullsAt(repo, sha);
  return json(200, { total_count: runs.length, check_runs: page.map((run) => context.core.json.checkRun(repo, run, pulls)) }, headers);
}

async function postStatus(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'write');
  if (isResult(repo)) return repo;
  const spec = { state: stringField(context.body, 'state') as StatusState, context: stringField(context.body, 'context'), description: stringField(context.body, 'description'), targetUrl: stringField(context.body, 'target_url') };
  return answerWith(createStatus(context.core, repo, context.params[2]!, spec, actorOf(context)), 201, (status) => context.core.json.status(repo, status));
}

async function combined(context: RouteContext): Promise<RouteResult> {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const sha = await resolveRef(repo, context.params[2]!);
  if (!sha) return message(422, `No commit found for SHA: ${context.params[2]}`);
  const { state, statuses } = combinedStatus(repo, sha);
  const url = `${context.core.json.apiUrl()}/repos/${repo.owner.login}/${repo.name}`;
  return json(200, { state, statuses: statuses.map((s) => context.core.json.status(repo, s)), sha, total_count: statuses.length, repository: context.core.json.repository(repo), commit_url: `${url}/commits/${sha}`, url: `${url}/commits/${sha}/status` });
}

export function checkRoutes(router: Router): void {
  router
    .add('POST', '/repos/:owner/:repo/check-runs', create)
    .add('PATCH', '/repos/:owner/:repo/check-runs/:id', update)
    .add('GET', '/repos/:owner/:repo/check-runs/:id', getRun)
    .add('GET', '/repos/:owner/:repo/commits/*ref/check-runs', listForRef)
    .add('GET', '/repos/:owner/:repo/commits/*ref/status', combined)
    .add('POST', '/repos/:owner/:repo/statuses/:sha', postStatus);
}
