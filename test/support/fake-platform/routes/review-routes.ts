// Reviews of a pull request (listed, submitted, dismissed) and review requests to users and
// teams (listed, made, withdrawn).
import { json, message, notFound, type RouteContext, type RouteResult, type Router } from '../http-router.ts';
import { paginate } from '../pagination.ts';
import { fullName } from '../platform-model.ts';
import { removeReviewRequests, requestReviews, type ReviewRequest } from '../pull-people.ts';
import { dismissReview, reviewsSeenBy, submitReview } from '../reviews.ts';
import { actorOf, answerWith, isResult, parseNumber, requirePull, stringField } from '../route-access.ts';

function viewer(context: RouteContext) {
  return context.caller && context.caller.kind !== 'app' ? context.caller.account : undefined;
}

function listReviews(context: RouteContext): RouteResult {
  const at = requirePull(context, 'read');
  if (isResult(at)) return at;
  const reviews = reviewsSeenBy(at.pr, viewer(context));
  const { page, headers } = paginate(reviews, context.query, `${context.core.json.apiUrl()}/repos/${fullName(at.repo)}/pulls/${at.pr.number}/reviews`);
  return json(200, page.map((r) => context.core.pullJsons.review(at.repo, at.pr, r)), headers);
}

function getReview(context: RouteContext): RouteResult {
  const at = requirePull(context, 'read');
  if (isResult(at)) return at;
  const review = reviewsSeenBy(at.pr, viewer(context)).find((r) => r.id === parseNumber(context.params[3]!));
  return review ? json(200, context.core.pullJsons.review(at.repo, at.pr, review)) : notFound();
}

async function createReview(context: RouteContext): Promise<RouteResult> {
  const at = requirePull(context, 'read');
  if (isResult(at)) return at;
  const spec = { event: stringField(context.body, 'event'), body: stringField(context.body, 'body'), commitId: stringField(context.body, 'commit_id') };
  return answerWith(submitReview(context.core, at.repo, at.pr, spec, actorOf(context)), 200, (r) => context.core.pullJsons.review(at.repo, at.pr, r));
}

async function dismiss(context: RouteContext): Promise<RouteResult> {
  const at = requirePull(context, 'write');
  if (isResult(at)) return at;
  const id = parseNumber(context.params[3]!);
  if (id === undefined) return notFound();
  return answerWith(dismissReview(context.core, at.repo, at.pr, id, context.body.message, actorOf(context)), 200, (r) => context.core.pullJsons.review(at.repo, at.pr, r));
}

function requestOf(body: Record<string, unknown>): ReviewRequest | undefined {
  const list = (value: unknown) => (value === undefined ? [] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined);
  const reviewers = list(body.reviewers);
  const teams = list(body.team_reviewers);
  return reviewers && teams ? { reviewers, teams } : undefined;
}

function listRequests(context: RouteContext): RouteResult {
  const at = requirePull(context, 'read');
  if (isResult(at)) return at;
  return json(200, { users: at.pr.requestedReviewers.map((u) => context.core.json.user(u)), teams: at.pr.requestedTeams.map((t) => context.core.pullJsons.team(t)) });
}

async function changeRequests(context: RouteContext, add: boolean): Promise<RouteResult> {
  const at = requirePull(context, 'triage');
  if (isResult(at)) return at;
  const request = requestOf(context.body);
  if (!request) return message(422, 'Invalid request.\n\n"reviewers" and "team_reviewers" must be lists of names.');
  if (add && request.reviewers.length + request.teams.length === 0) return message(422, 'Invalid request.\n\nNo subschema in "anyOf" matched: "reviewers" or "team_reviewers" is required.');
  if (!add) {
    const pr = await removeReviewRequests(context.core, at.repo, at.pr, request, actorOf(context));
    return json(200, await context.core.pullJson(at.repo, pr));
  }
  return answerWith(requestReviews(context.core, at.repo, at.pr, request, actorOf(context)), 201, (pr) => context.core.pullJson(at.repo, pr));
}

export function reviewRoutes(router: Router): void {
  router
    .add('GET', '/repos/:owner/:repo/pulls/:number/reviews', listReviews)
    .add('POST', '/repos/:owner/:repo/pulls/:number/reviews', createReview)
    .add('GET', '/repos/:owner/:repo/pulls/:number/reviews/:id', getReview)
    .add('PUT', '/repos/:owner/:repo/pulls/:number/reviews/:id/dismissals', dismiss)
    .add('GET', '/repos/:owner/:repo/pulls/:number/requested_reviewers', listRequests)
    .add('POST', '/repos/:owner/:repo/pulls/:number/requested_reviewers', (c) => changeRequests(c, true))
    .add('DELETE', '/repos/:owner/:repo/pulls/:number/requested_reviewers', (c) => changeRequests(c, false));
}
