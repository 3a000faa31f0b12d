// Applies a hosting-platform webhook (DESIGN.md §4) once per delivery id: pull request state
// with its delivery in one transaction, repository registrations before their delivery.
import type { HostingEvent, PullRequestChange, RepositoryName } from '../domain/webhooks/hosting-event.ts';
import type { Store } from '../storage/store.ts';
import { registerRepository } from './register-repository.ts';
import type { QueueSignals } from './merge-queue/queue-signals.ts';

/** `stale`: a pull_request delivery older than the state already recorded (it changed nothing). */
export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'stale';

export async function applyHostingEvent(store: Store, deliveryId: string, event: HostingEvent, signals?: QueueSignals): Promise<WebhookOutcome> {
  switch (event.kind) {
    case 'ignored':
      return 'ignored';
    case 'register':
      return registerAll(store, deliveryId, event.repositories);
    case 'pull_request':
      return recordPullRequest(store, deliveryId, event, signals);
    case 'comment':
      if (!signals) return 'ignored';
      // Claimed first: a command redelivered must not queue (or reply) twice.
      if (!(await store.webhookDeliveries.claim(store.db, deliveryId))) return 'duplicate';
      await signals.comment(event);
      return 'applied';
    case 'checks':
    case 'push':
      if (!signals) return 'ignored';
      await signals.wake(event.repository);
      return 'applied';
  }
}

/**
 * Registration runs in transactions of its own and is idempotent, so the delivery is claimed
 * after it: a failure in between only means a redelivery registers again, which changes nothing.
 */
async function registerAll(store: Store, deliveryId: string, repositories: RepositoryName[]): Promise<WebhookOutcome> {
  if (await store.webhookDeliveries.seen(deliveryId)) return 'duplicate';
  for (const { owner, name } of repositories) await registerRepository(store, owner, name);
  return (await store.webhookDeliveries.claim(store.db, deliveryId)) ? 'applied' : 'duplicate';
}

/**
 * A signed pull_request webhook proves the platform sends this repository's events here, so an
 * unregistered repository is registered (its installation event may predate this service).
 */
async function recordPullRequest(store: Store, deliveryId: string, change: PullRequestChange, signals: QueueSignals | undefined): Promise<WebhookOutcome> {
  const { repository } = await registerRepository(store, change.repository.owner, change.repository.name);
  return store.db.transaction().execute(async (trx) => {
    if (!(await store.webhookDeliveries.claim(trx, deliveryId))) return 'duplicate';
    const pull = { number: change.number, state: change.state, headSha: change.headSha, baseRef: change.baseRef, ...(change.details ? { details: change.details } : {}) };
    if (!(await store.pullRequests.upsert(trx, repository.id, pull, change.updatedAt))) return 'stale';
    // A queued pull request closed, merged, rebased on another base or pushed to leaves the queue.
    await signals?.pullRequestChanged(trx, repository, change);
    return 'applied';
  });
}
