// The merge queue's public read API, dequeue, and Switchyard's enter endpoint (DESIGN.md §9),
// answered in the public shapes (src/http/merge-queue/). Reads need read rights on the
// repository; entering and dequeuing need write rights (DESIGN.md §3).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, validationError } from '../../errors.ts';
import { Owner, PullNumber, RepoParams, RepositoryName } from '../../domain/identifiers.ts';
import { DateTime } from '../../domain/schema-primitives.ts';
import type { MergeQueueService, QueueRequest } from '../../services/merge-queue/merge-queue-service.ts';
import type { RepositoryIdentity } from '../../storage/queries/repositories.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { BaseRefsResponse, EnterQueueBody, MergeQueueBranches, MergeQueueDequeueImpact, MergeQueuePullRequest, Queues } from '../merge-queue/pull-shapes.ts';
import { renderQueuedPull, renderQueues } from '../merge-queue/render-pull.ts';
import { renderStatus } from '../merge-queue/render-status.ts';
import { MergeQueueStatus } from '../merge-queue/status-shapes.ts';
import { emptyResponse, errorResponse, errorResponses, jsonResponse } from './schemas.ts';

const QueuedPullParams = Type.Object({ owner: Owner, repository: RepositoryName, pr_number: PullNumber });
const StatusQuery = Type.Object(
  { branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "The base branch; default: the repository's only branch with pull requests queued, else `main`" })) },
  { additionalProperties: false },
);
const WindowQuery = Type.Object(
  {
    start_at: Type.Optional(DateTime({ description: 'Start of the window (date-time with a timezone); default: one day before end_at' })),
    end_at: Type.Optional(DateTime({ description: 'End of the window (date-time with a timezone); default: now' })),
  },
  { additionalProperties: false },
);

const API_REQUEST: QueueRequest = { trigger: 'merge queue API' };
const UNKNOWN_OR_NOT_QUEUED = errorResponse('The repository is not registered (`Repository not found`), or the pull request is not in its merge queue.', 'pull_request_not_queued');
const DAY_MS = 86_400_000;

/** The public API deprecates its older queue endpoints; so do their answers here. */
async function markDeprecated(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('deprecation', 'true');
}

/** An unknown `queue_rule` is a bad body value: a 422 listing it by location, as every 422 does (DESIGN.md §2). */
function asBodyIssue(error: unknown): never {
  if (error instanceof ApiError && error.code === 'queue_rule_unknown') throw validationError(['body', 'queue_rule'], error.detail, 'queue_rule_unknown');
  throw error;
}

export const mergeQueueRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; mergeQueue: MergeQueueService; hostingWebUrl: string }> = async (app, { auth, mergeQueue, hostingWebUrl }) => {
  const tags = ['merge queue'];
  const credentials = security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth');
  const read = guard(auth, 'repo_read');
  const write = guard(auth, 'repo_write');
  const repositoryOf = (params: { owner: string; repository: string }) => mergeQueue.repository(params.owner, params.repository);

  /** The view of the queue holding a pull request; 404 when it is not queued. */
  const queuedPull = async (repository: RepositoryIdentity, number: bigint) => {
    const found = await mergeQueue.viewOfPull(repository, number);
    if (!found) throw new ApiError('pull_request_not_queued');
    return found;
  };

  app.get('/v1/repos/:owner/:repository/merge-queue/status', {
    ...read,
    schema: {
      operationId: 'get_merge_queue_status_endpoint_repos__owner___repository__merge_queue_status_get',
      tags,
      summary: 'Read the merge queue of a base branch',
      description:
        "Its plan: batches in plan order with their parents, statuses, scopes, pull requests and estimates (from the median of the queue's recent check durations; before any, the rule's `checks_timeout`), the pull requests waiting for scopes, the mode, the scope queues and the pause. Without `branch`: the repository's only base branch with pull requests queued, else `main`. A branch never used answers an empty queue.",
      security: credentials,
      params: RepoParams,
      querystring: StatusQuery,
      response: { 200: jsonResponse('The queue, batch by batch.', MergeQueueStatus), ...errorResponses },
    },
  }, async (request) => {
    const repository = await repositoryOf(request.params);
    let branch = request.query.branch;
    if (branch === undefined) {
      const active = await mergeQueue.branches(repository);
      branch = active.length === 1 ? active[0]! : 'main';
    }
    return renderStatus(await mergeQueue.view(repository, branch), hostingWebUrl);
  });

  app.get('/v1/repos/:owner/:repository/merge-queue/branches', {
    ...read,
    schema: {
      operationId: 'get_merge_queue_branches_repos__owner___repository__merge_queue_branches_get',
      tags,
      summary: 'List the base branches with pull requests queued',
      security: credentials,
      params: RepoParams,
      response: { 200: jsonResponse('The base branches whose queue holds at least one pull request, by name.', MergeQueueBranches, { example: { branches: ['main'] } }), ...errorResponses },
    },
  }, async (request) => ({ branches: await mergeQueue.branches(await repositoryOf(request.params)) }));

  app.get('/v1/repos/:owner/:repository/queues', {
    ...read,
    onRequest: [markDeprecated, read.onRequest],
    schema: {
      operationId: 'repository_queues_repos__owner___repository__queues_get',
      tags,
      summary: 'List the queued pull requests, per base branch (deprecated)',
      description: 'Deprecated in the public API in favour of `…/merge-queue/status`; answers with `Deprecation: true`. One queue per base branch with pull requests queued, each in queue order.',
      deprecated: true,
      security: credentials,
      params: RepoParams,
      response: { 200: jsonResponse('The queues of the repository.', Queues), ...errorResponses },
    },
  }, async (request) => {
    const repository = await repositoryOf(request.params);
    const branches = await mergeQueue.branches(repository);
    const views = [];
    for (const branch of branches) views.push(await mergeQueue.view(repository, branch));
    return renderQueues(views.filter((view) => view.state.entries.length > 0));
  });

  app.get('/v1/repos/:owner/:repository/queues/branches', {
    ...read,
    onRequest: [markDeprecated, read.onRequest],
    schema: {
      operationId: 'get_queue_base_refs_repos__owner___repository__queues_branches_get',
      tags,
      summary: 'List the base branches with queue activity in a window (deprecated)',
      description: 'Deprecated in the public API; answers with `Deprecation: true`. The base branches whose queue held a pull request at some time in [start_at, end_at); none when start_at is not before end_at.',
      deprecated: true,
      security: credentials,
      params: RepoParams,
      querystring: WindowQuery,
      response: { 200: jsonResponse('The base branches, by name.', BaseRefsResponse, { example: { base_refs: ['main'] } }), ...errorResponses },
    },
  }, async (request) => {
    const repository = await repositoryOf(request.params);
    const to = request.query.end_at ? new Date(request.query.end_at) : new Date();
    const from = request.query.start_at ? new Date(request.query.start_at) : new Date(to.getTime() - DAY_MS);
    // start_at not before end_at: an empty window, in which no queue held anything.
    return { base_refs: from < to ? await mergeQueue.branchesActiveBetween(repository, from, to) : [] };
  });

  app.get('/v1/repos/:owner/:repository/merge-queue/pull/:pr_number', {
    ...read,
    schema: {
      operationId: 'get_merge_queue_pull_request_repos__owner___repository__merge_queue_pull__pr_number__get',
      tags,
      summary: 'Read a queued pull request',
      description: 'Its position (from 0), queue rule, estimated merge and, once its batch runs, the state of its checks.',
      security: credentials,
      params: QueuedPullParams,
      response: { 200: jsonResponse('The pull request in the queue.', MergeQueuePullRequest), ...errorResponses, 404: UNKNOWN_OR_NOT_QUEUED },
    },
  }, async (request) => {
    const repository = await repositoryOf(request.params);
    const { view, entry } = await queuedPull(repository, request.params.pr_number);
    return renderQueuedPull(view, entry);
  });

  app.get('/v1/repos/:owner/:repository/merge-queue/pull/:pr_number/dequeue-impact', {
    ...read,
    schema: {
      operationId: 'get_merge_queue_dequeue_impact_repos__owner___repository__merge_queue_pull__pr_number__dequeue_impact_get',
      tags,
      summary: 'Preview what dequeuing a pull request would stop',
      description: 'Computed by the same rule a dequeue applies: the batches whose checks would stop and restart, and the other pull requests that would be checked again.',
      security: credentials,
      params: QueuedPullParams,
      response: { 200: jsonResponse('What a dequeue now would interrupt.', MergeQueueDequeueImpact, { example: { interrupted_batches: 1, rechecked_pull_requests: 2, cascaded_pull_requests: 0 } }), ...errorResponses, 404: UNKNOWN_OR_NOT_QUEUED },
    },
  }, async (request) => {
    const repository = await repositoryOf(request.params);
    const impact = await mergeQueue.dequeueImpact(repository, request.params.pr_number);
    if (!impact) throw new ApiError('pull_request_not_queued');
    return impact;
  });

  app.post('/v1/repos/:owner/:repository/merge-queue/pull/:pr_number/dequeue', {
    ...write,
    schema: {
      operationId: 'dequeue_merge_queue_pull_request_repos__owner___repository__merge_queue_pull__pr_number__dequeue_post',
      tags,
      summary: 'Take a pull request out of the merge queue',
      description: 'Recorded as `action.queue.leave` with `dequeue_code` `PR_MANUALLY_DEQUEUED`; batches checking it stop and the other pull requests in them are planned again. Hosting-platform tokens need push rights.',
      security: credentials,
      params: QueuedPullParams,
      response: {
        204: emptyResponse('The pull request left the queue.'),
        ...errorResponses,
        404: UNKNOWN_OR_NOT_QUEUED,
        409: errorResponse('The merge queue has begun merging the pull request on the hosting platform: it can no longer leave (type `pull_request_merging`).', 'pull_request_merging'),
      },
    },
  }, async (request, reply) => {
    const repository = await repositoryOf(request.params);
    const number = request.params.pr_number;
    if (!(await mergeQueue.dequeue(repository, number, 'PR_MANUALLY_DEQUEUED', API_REQUEST))) throw new ApiError('pull_request_not_queued');
    return reply.code(204).send(null);
  });

  app.put('/v1/repos/:owner/:repository/merge-queue/pull/:pr_number', {
    ...write,
    schema: {
      operationId: 'enter_merge_queue',
      tags,
      summary: 'Put a pull request in the merge queue',
      description:
        'The pull request must be known open (from webhooks or the admin API), not a draft, with a base branch a queue rule covers. Recorded as `action.queue.enter` and `action.queue.change`. Hosting-platform tokens need push rights.',
      security: credentials,
      params: QueuedPullParams,
      body: EnterQueueBody,
      response: {
        202: jsonResponse('Queued: the pull request as the queue now holds it. Its batch starts when the plan says.', MergeQueuePullRequest),
        ...errorResponses,
        409: errorResponse('The pull request cannot be queued: unknown, closed or merged, a draft, already queued, or no queue rule covers its base branch. `detail` says which.', 'pull_request_not_open'),
        422: jsonResponse(errorResponses[422].description + ' Also: a `queue_rule` the configuration does not have.', errorResponses[422].content['application/json'].schema, {
          example: errorResponses[422].content['application/json'].example,
        }),
      },
    },
  }, async (request, reply) => {
    const repository = await repositoryOf(request.params);
    const number = request.params.pr_number;
    await mergeQueue.enter(repository, number, { queueRule: request.body.queue_rule, priority: request.body.priority }, API_REQUEST).catch(asBodyIssue);
    const { view, entry } = await queuedPull(repository, number);
    return reply.code(202).send(renderQueuedPull(view, entry));
  });
};
