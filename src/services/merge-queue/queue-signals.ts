// What hosting-platform webhooks mean to the merge queue (DESIGN.md §9–10): a queued pull request
// that was closed, merged outside the queue, moved to another base or pushed to leaves the queue;
// a comment may hold a command; check results and pushes wake the executor. A head move the
// queue itself asked for (checks in place) is the executor's to judge, not a push.
import type { Transaction } from 'kysely';
import { ApiError } from '../../errors.ts';
import type { PullRequestChange, PullRequestComment, RepositoryName } from '../../domain/webhooks/hosting-event.ts';
import type { HostingPlatform } from '../../hosting/hosting-platform.ts';
import type { Database } from '../../storage/database.ts';
import type { RepositoryIdentity } from '../../storage/queries/repositories.ts';
import type { Store } from '../../storage/store.ts';
import { readHeadUpdate } from './head-update.ts';
import type { MergeQueueService, QueueRequest } from './merge-queue-service.ts';

/** Whether a comment's body holds a merge-queue command. */
export function holdsCommand(body: string): boolean {
  return COMMAND.test(body);
}

const COMMAND = /^[ \t]*@switchyard[ \t]+(queue|dequeue)\b[ \t]*([\w.\-]+)?[ \t]*$/im;
const PERMISSION_TTL_MS = 60_000;

export const TRIGGERS = { api: 'merge-queue API', comment: 'comment command', webhook: 'hosting webhook', executor: 'merge-queue executor' } as const;

export interface QueueSignalDeps {
  store: Store;
  service: MergeQueueService;
  /** Acts on the platform for commands (permission checks, replies); null without credentials. */
  platform: HostingPlatform | null;
  /** Wakes whoever drives the repository's queues. */
  wake: (repositoryId: string) => void;
  clock?: () => number;
}

export class QueueSignals {
  private readonly permissions = new Map<string, { writes: boolean; until: number }>();

  constructor(private readonly deps: QueueSignalDeps) {}

  /** In the transaction that recorded the pull request's new state: dequeue it if that state says so. */
  async pullRequestChanged(trx: Transaction<Database>, repository: RepositoryIdentity, change: PullRequestChange): Promise<void> {
    const { store } = this.deps;
    const active = await store.mergeQueues.activeEntryOf(repository.id, change.number, trx);
    if (!active) return;
    const queue = await store.mergeQueues.findById(active.queueId, trx);
    const entry = (await store.mergeQueues.activeEntries(active.queueId, trx)).find((e) => e.id === active.entryId);
    if (!queue || !entry) return;
    const code = await this.leaveCode(trx, active.queueId, active.entryId, entry.headSha, queue.baseRef, change);
    if (code === 'PULL_REQUEST_UPDATED' && (await this.movedByQueue(trx, active.entryId, entry.headSha))) {
      // The queue's own update of the head (checks in place): the executor reads the new head
      // and takes it, or dequeues the pull request if it is not that update's merge.
      this.deps.wake(repository.id);
      return;
    }
    if (code) await this.deps.service.dequeue(repository, change.number, code, { trigger: TRIGGERS.webhook }, trx);
  }

  /** Whether the merge queue has an update of this head of its own in progress (head-update.ts). */
  private async movedByQueue(trx: Transaction<Database>, entryId: string, headSha: string): Promise<boolean> {
    const update = readHeadUpdate(await this.deps.store.mergeQueues.headUpdateOf(entryId, trx));
    return update?.from === headSha;
  }

  private async leaveCode(trx: Transaction<Database>, queueId: string, entryId: string, headSha: string, baseRef: string, change: PullRequestChange): Promise<string | null> {
    if (change.state === 'closed') return 'PR_DEQUEUED';
    if (change.state === 'merged') {
      // The queue's own merges close pull requests too: those of a passed batch are its doing.
      const batches = await this.deps.store.mergeQueues.batches(queueId, trx);
      const merging = batches.some((batch) => batch.phase === 'passed' && batch.entryIds.includes(entryId));
      return merging ? null : 'PR_MANUALLY_MERGED';
    }
    if (change.baseRef !== baseRef) return 'BASE_BRANCH_CHANGED';
    if (change.headSha !== headSha) return 'PULL_REQUEST_UPDATED';
    return null;
  }

  /** `@switchyard queue [rule]` and `@switchyard dequeue`, from someone with write permission. */
  async comment(event: PullRequestComment): Promise<void> {
    const match = COMMAND.exec(event.body);
    if (!match) return;
    const repository = await this.deps.store.repositories.identify(event.repository.owner, event.repository.name);
    if (!repository) return;
    const verb = match[1]!.toLowerCase();
    if (!(await this.canWrite(event.repository, event.author.login))) {
      await this.reply(event, `@${event.author.login} only people with write permission on this repository can use \`@switchyard ${verb}\`.`);
      return;
    }
    const request: QueueRequest = { trigger: TRIGGERS.comment, command: { author: event.author, commentId: event.commentId, url: event.url } };
    try {
      if (verb === 'queue') await this.deps.service.enter(repository, event.number, match[2] ? { queueRule: match[2] } : {}, request);
      else if (!(await this.deps.service.dequeue(repository, event.number, 'PR_MANUALLY_DEQUEUED', request))) throw new ApiError('pull_request_not_queued');
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      await this.reply(event, `@${event.author.login} \`@switchyard ${verb}\` was refused: ${error.detail}`);
    }
  }

  /** A check or status changed on a commit, or a branch moved: whoever drives the queues looks again. */
  async wake(name: RepositoryName): Promise<void> {
    const repository = await this.deps.store.repositories.identify(name.owner, name.name);
    if (repository) this.deps.wake(repository.id);
  }

  private async canWrite(repository: RepositoryName, login: string): Promise<boolean> {
    const { platform } = this.deps;
    if (!platform) return false;
    const now = (this.deps.clock ?? Date.now)();
    const key = `${repository.owner}/${repository.name}/${login}`.toLowerCase();
    const cached = this.permissions.get(key);
    if (cached && cached.until > now) return cached.writes;
    const permission = await platform.collaboratorPermission({ owner: repository.owner, repo: repository.name }, login);
    const writes = permission === 'admin' || permission === 'write';
    if (this.permissions.size > 10_000) this.permissions.clear();
    this.permissions.set(key, { writes, until: now + PERMISSION_TTL_MS });
    return writes;
  }

  private async reply(event: PullRequestComment, body: string): Promise<void> {
    await this.deps.platform?.comment({ owner: event.repository.owner, repo: event.repository.name }, event.number, body).catch(() => undefined);
  }
}
