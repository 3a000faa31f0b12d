// Applies a hosting-platform webhook (DESIGN.md §4) once per delivery id, and once per body: the
// delivery id is not signed, so a body already applied, come again under a new id, is a replay
// and is not applied (issue 20, item 8). Pull request state with its delivery in one
// transaction, repository registrations before their delivery.
import type { HostingEvent, PullRequestChange, RepositoryName } from '../domain/webhooks/hosting-event.ts';
import type { Store } from '../storage/store.ts';
import { registerRepository } from './register-repository.ts';
import { holdsCommand, type QueueSignals } from './merge-queue/queue-signals.ts';

/**
 * `duplicate`: a delivery id applied before; `replay`: a body applied before under another id;
 * `stale`: a pull_request state older than the one recorded; `unordered`: a pull_request state
 * without the platform's time, when the one recorded has one (it cannot be placed after it).
 * None of these changed anything.
 */
export type WebhookOutcome = 'applied' | 'duplicate' | 'replay' | 'ignored' | 'stale' | 'unordered';

/** A delivery: its X-GitHub-Delivery id and the SHA-256 (hex) of its raw body. */
export interface Delivery {
  id: string;
  digest: string;
}

export async function applyHostingEvent(store: Store, delivery: Delivery, event: HostingEvent, signals?: QueueSignals): Promise<WebhookOutcome> {
  switch (event.kind) {
    case 'ignored':
      return 'ignored';
    case 'register':
      return registerAll(store, delivery, event.repositories);
    case 'pull_request':
      return recordPullRequest(store, delivery, event, signals);
    case 'comment': {
      if (!signals) return 'ignored';
      // Claimed first: a command redelivered or replayed must not queue (or reply) twice; past
      // the week its body is remembered, by the comment's id.
      const claim = await store.db.transaction().execute(async (trx) => {
        const byDelivery = await store.webhookDeliveries.claimDelivery(trx, delivery);
        if (byDelivery !== 'new' || !holdsCommand(event.body)) return byDelivery;
        return (await store.webhookDeliveries.claimCommentCommand(trx, event.commentId)) ? 'new' : 'replay';
      });
      if (claim !== 'new') return claim;
      await signals.comment(event);
      return 'applied';
    }
    case 'checks':
    case 'push':
      // Only wake the merge queue to look again at the platform: a replay costs a look, no more.
      if (!signals) return 'ignored';
      await signals.wake(event.repository);
      return 'applied';
  }
}

/**
 * Registration runs in transactions of its own and is idempotent, so the delivery is claimed
 * after it: a failure in between only means a redelivery registers again, which changes nothing.
 */
async function registerAll(store: Store, delivery: Delivery, repositories: RepositoryName[]): Promise<WebhookOutcome> {
  const seen = await store.webhookDeliveries.seen(delivery);
  if (seen !== 'new') return seen;
  for (const { owner, name } of repositories) await registerRepository(store, owner, name);
  const claim = await store.db.transaction().execute((trx) => store.webhookDeliveries.claimDelivery(trx, delivery));
  return claim === 'new' ? 'applied' : claim;
}

/**
 * A signed pull_request webhook proves the platform sends this repository's events here, so an
 * unregistered repository is registered (its installation event may predate this service).
 */
async function recordPullRequest(store: Store, delivery: Delivery, change: PullRequestChange, signals: QueueSignals | undefined): Promise<WebhookOutcome> {
  const { repository } = await registerRepository(store, change.repository.owner, change.repository.name);
  return store.db.transaction().execute(async (trx) => {
    const claim = await store.webhookDeliveries.claimDelivery(trx, delivery);
    if (claim !== 'new') return claim;
    const pull = { number: change.number, state: change.state, headSha: change.headSha, baseRef: change.baseRef, ...(change.details ? { details: change.details } : {}) };
    if (!(await store.pullRequests.upsert(trx, repository.id, pull, { platformUpdatedAt: change.updatedAt ?? null }))) return change.updatedAt ? 'stale' : 'unordered';
    // A queued pull request closed, merged, rebased on another base or pushed to leaves the queue.
    await signals?.pullRequestChanged(trx, repository, change);
    return 'applied';
  });
}
