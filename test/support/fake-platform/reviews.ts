// Reviews of pull requests: submitted (approve, request changes, comment) or left pending, and
// dismissed, with GitHub's refusals (no approving or requesting changes on one's own pull
// request, a body for changes and comments, one pending review per user) and the
// `pull_request_review` webhook. A review from someone asked for one answers the request.
import { ok, refuse, type Answer } from './platform-answer.ts';
import type { PlatformCore } from './platform-core.ts';
import type { Account, PullRecord, RepositoryRecord, ReviewRecord, ReviewState } from './platform-model.ts';

export type ReviewEvent = 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT';

const STATE_OF: Record<ReviewEvent, ReviewState> = { APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED' };

export interface NewReview {
  /** absent: a pending review, not yet submitted */
  event?: string;
  body?: string;
  commitId?: string;
}

function unprocessable(error: string): Answer<never> {
  return refuse(422, 'Unprocessable Entity', [error]);
}

async function emit(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, review: ReviewRecord, actor: Account, action: string): Promise<void> {
  const fields = { action, review: core.pullJsons.review(repo, pr, review), pull_request: await core.pullJson(repo, pr) };
  core.emit('pull_request_review', repo, actor, fields);
}

function refusal(pr: PullRecord, spec: NewReview, user: Account): Answer<never> | undefined {
  if (spec.event !== undefined && !(spec.event in STATE_OF)) return refuse(422, `Invalid request.\n\n"${spec.event}" is not a valid review event: APPROVE, REQUEST_CHANGES or COMMENT.`);
  const own = pr.user === user;
  if (own && spec.event === 'APPROVE') return unprocessable('Can not approve your own pull request');
  if (own && spec.event === 'REQUEST_CHANGES') return unprocessable('Can not request changes on your own pull request');
  if ((spec.event === 'REQUEST_CHANGES' || spec.event === 'COMMENT') && !spec.body) return unprocessable(`Body is required when the review event is ${spec.event}`);
  if (pr.reviews.some((r) => r.user === user && r.state === 'PENDING')) return unprocessable('User can only have one pending review per pull request');
  return undefined;
}

export function submitReview(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, spec: NewReview, user: Account): Promise<Answer<ReviewRecord>> {
  return repo.lock(async () => {
    const refused = refusal(pr, spec, user);
    if (refused) return refused;
    const commitId = spec.commitId === undefined ? pr.headSha : await repo.git.resolve(spec.commitId);
    if (!commitId || (spec.commitId !== undefined && commitId !== spec.commitId.toLowerCase())) return unprocessable('Commit not found');
    const event = spec.event as ReviewEvent | undefined;
    const review: ReviewRecord = { id: core.ids.next(), user, body: spec.body ?? '', state: event ? STATE_OF[event] : 'PENDING', commitId, submittedAt: event ? core.now() : null };
    pr.reviews.push(review);
    if (!event) return ok(review);
    const requested = pr.requestedReviewers.indexOf(user);
    if (requested >= 0) pr.requestedReviewers.splice(requested, 1);
    pr.updatedAt = core.now();
    await emit(core, repo, pr, review, user, 'submitted');
    return ok(review);
  });
}

export function dismissReview(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, id: bigint, message: unknown, actor: Account): Promise<Answer<ReviewRecord>> {
  return repo.lock(async () => {
    const review = pr.reviews.find((r) => r.id === id);
    if (!review) return refuse(404, 'Not Found');
    if (typeof message !== 'string' || message === '') return refuse(422, 'Invalid request.\n\n"message" wasn\'t supplied.');
    if (review.state !== 'APPROVED' && review.state !== 'CHANGES_REQUESTED') return unprocessable(`Can not dismiss a ${review.state.toLowerCase()} pull request review`);
    review.state = 'DISMISSED';
    pr.updatedAt = core.now();
    await emit(core, repo, pr, review, actor, 'dismissed');
    return ok(review);
  });
}

/** The reviews `viewer` sees, oldest first: pending ones only to their author. */
export function reviewsSeenBy(pr: PullRecord, viewer: Account | undefined): ReviewRecord[] {
  return pr.reviews.filter((r) => r.state !== 'PENDING' || r.user === viewer);
}
