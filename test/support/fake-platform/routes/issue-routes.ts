// The issue side of pull requests (the platform has no plain issues: an issue number that is
// not a pull request's is a 404): the issue, its labels, assignees, lock, and comments, which
// are listed, written, edited and deleted.
import { addComment, deleteComment, editComment } from '../comments.ts';
import { json, message, notFound, type RouteContext, type RouteResult, type Router } from '../http-router.ts';
import { paginate } from '../pagination.ts';
import { fullName } from '../platform-model.ts';
import { addLabels, removeLabel, setLocked, validLabelNames } from '../pull-labels.ts';
import { addAssignees, removeAssignees } from '../pull-people.ts';
import { actorOf, answerWith, isResult, parseNumber, requirePull, requireRepo } from '../route-access.ts';

function getIssue(context: RouteContext): RouteResult {
  const at = requirePull(context, 'read');
  return isResult(at) ? at : json(200, context.core.pullJsons.issue(at.repo, at.pr));
}

/** `{labels: [...]}`, a bare array, or `{labels: [{name}]}`: every form GitHub takes. */
function labelNames(body: unknown): string[] | undefined {
  const list = Array.isArray(body) ? body : (body as { labels?: unknown }).labels;
  const names = Array.isArray(list) ? list.map((item) => (typeof item === 'object' && item !== null ? (item as { name?: unknown }).name : item)) : undefined;
  return validLabelNames(names) ? names : undefined;
}

async function putLabels(context: RouteContext, replace: boolean): Promise<RouteResult> {
  const at = requirePull(context, 'triage');
  if (isResult(at)) return at;
  const names = labelNames(context.body);
  if (!names) return message(422, 'Invalid request.\n\n"labels" must be a list of label names.');
  return answerWith(addLabels(context.core, at.repo, at.pr, names, actorOf(context), replace), 200, (labels) => labels.map((l) => context.core.pullJsons.label(at.repo, l)));
}

async function deleteLabel(context: RouteContext): Promise<RouteResult> {
  const at = requirePull(context, 'triage');
  if (isResult(at)) return at;
  return answerWith(removeLabel(context.core, at.repo, at.pr, context.params[3]!, actorOf(context)), 200, (labels) => labels.map((l) => context.core.pullJsons.label(at.repo, l)));
}

async function deleteAllLabels(context: RouteContext): Promise<RouteResult> {
  const at = requirePull(context, 'triage');
  if (isResult(at)) return at;
  await addLabels(context.core, at.repo, at.pr, [], actorOf(context), true);
  return json(204);
}

function listLabels(context: RouteContext): RouteResult {
  const at = requirePull(context, 'read');
  if (isResult(at)) return at;
  const { page, headers } = paginate(at.pr.labels, context.query, `${context.core.json.apiUrl()}/repos/${fullName(at.repo)}/issues/${at.pr.number}/labels`);
  return json(200, page.map((l) => context.core.pullJsons.label(at.repo, l)), headers);
}

function logins(body: Record<string, unknown>): string[] | undefined {
  const list = body.assignees;
  return Array.isArray(list) && list.every((l) => typeof l === 'string') ? list : undefined;
}

async function assignees(context: RouteContext, add: boolean): Promise<RouteResult> {
  const at = requirePull(context, 'triage');
  if (isResult(at)) return at;
  const names = logins(context.body);
  if (!names) return message(422, 'Invalid request.\n\n"assignees" must be a list of logins.');
  const change = add ? addAssignees : removeAssignees;
  const pr = await change(context.core, at.repo, at.pr, names, actorOf(context));
  return json(add ? 201 : 200, context.core.pullJsons.issue(at.repo, pr));
}

async function lock(context: RouteContext, locked: boolean): Promise<RouteResult> {
  const at = requirePull(context, 'triage');
  if (isResult(at)) return at;
  return answerWith(setLocked(context.core, at.repo, at.pr, locked, actorOf(context)), 204, () => undefined);
}

function comment(context: RouteContext): RouteResult {
  const at = requirePull(context, 'read');
  if (isResult(at)) return at;
  const answer = addComment(context.core, at.repo, at.pr.number, context.body.body as string, actorOf(context));
  return answer.ok ? json(201, context.core.pullJsons.comment(at.repo, answer.value)) : message(answer.status, answer.message, answer.errors);
}

function listComments(context: RouteContext): RouteResult {
  const at = requirePull(context, 'read');
  if (isResult(at)) return at;
  const comments = at.repo.comments.filter((c) => c.issueNumber === at.pr.number);
  const { page, headers } = paginate(comments, context.query, `${context.core.json.apiUrl()}/repos/${fullName(at.repo)}/issues/${at.pr.number}/comments`);
  return json(200, page.map((c) => context.core.pullJsons.comment(at.repo, c)), headers);
}

function changeComment(context: RouteContext, remove: boolean): RouteResult {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const id = parseNumber(context.params[2]!);
  if (id === undefined) return notFound();
  const answer = remove ? deleteComment(context.core, repo, id, context.caller!) : editComment(context.core, repo, id, context.body.body, context.caller!);
  if (!answer.ok) return message(answer.status, answer.message, answer.errors);
  return answer.value ? json(200, context.core.pullJsons.comment(repo, answer.value)) : json(204);
}

function getComment(context: RouteContext): RouteResult {
  const repo = requireRepo(context, 'read');
  if (isResult(repo)) return repo;
  const id = parseNumber(context.params[2]!);
  const found = repo.comments.find((c) => c.id === id);
  return found ? json(200, context.core.pullJsons.comment(repo, found)) : notFound();
}

export function issueRoutes(router: Router): void {
  router
    .add('GET', '/repos/:owner/:repo/issues/comments/:id', getComment)
    .add('PATCH', '/repos/:owner/:repo/issues/comments/:id', (c) => changeComment(c, false))
    .add('DELETE', '/repos/:owner/:repo/issues/comments/:id', (c) => changeComment(c, true))
    .add('GET', '/repos/:owner/:repo/issues/:number', getIssue)
    .add('GET', '/repos/:owner/:repo/issues/:number/labels', listLabels)
    .add('POST', '/repos/:owner/:repo/issues/:number/labels', (c) => putLabels(c, false))
    .add('PUT', '/repos/:owner/:repo/issues/:number/labels', (c) => putLabels(c, true))
    .add('DELETE', '/repos/:owner/:repo/issues/:number/labels', deleteAllLabels)
    .add('DELETE', '/repos/:owner/:repo/issues/:number/labels/:name', deleteLabel)
    .add('POST', '/repos/:owner/:repo/issues/:number/assignees', (c) => assignees(c, true))
    .add('DELETE', '/repos/:owner/:repo/issues/:number/assignees', (c) => assignees(c, false))
    .add('PUT', '/repos/:owner/:repo/issues/:number/lock', (c) => lock(c, true))
    .add('DELETE', '/repos/:owner/:repo/issues/:number/lock', (c) => lock(c, false))
    .add('POST', '/repos/:owner/:repo/issues/:number/comments', comment)
    .add('GET', '/repos/:owner/:repo/issues/:number/comments', listComments);
}
