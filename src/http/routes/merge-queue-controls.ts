// The merge queue's controls (DESIGN.md §9): its configuration, its pause (on the current path
// and the older /queue/pause) and its scheduled freezes. After a change commits, `onQueueChanged`
// tells the executor to plan the repository's queues again.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { RepoParams } from '../../domain/identifiers.ts';
import { MergeQueueConfiguration } from '../../domain/merge-queue/config-schema.ts';
import type { Store } from '../../storage/store.ts';
import { createFreeze, deleteFreeze, listFreezes, pauseQueue, readMergeQueueConfig, readPause, setMergeQueueConfig, unpauseQueue, updateFreeze } from '../../services/merge-queue/controls.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { productActorOf } from '../auth/product-actor.ts';
import { security } from '../openapi.ts';
import {
  configAnswer,
  CreateScheduledQueueFreezePayload,
  DeleteScheduledFreezePayload,
  FreezeParams,
  freezeAnswer,
  GetScheduledFreezesResponse,
  MergeQueuePausePayload,
  MergeQueuePauseResponse,
  mergeQueuePauseAnswer,
  QueuePausePayload,
  QueuePauseResponse,
  queuePauseAnswer,
  QueuesConfig,
  queuesConfigAnswer,
  ScheduledFreezeObjectResponse,
  UpdateScheduledFreezePayload,
} from './merge-queue-control-bodies.ts';
import { Nullable } from '../../domain/schema-primitives.ts';
import { emptyResponse, errorResponse, errorResponses, jsonResponse } from './schemas.ts';

export interface MergeQueueControlOptions {
  auth: CredentialDeps;
  store: Store;
  /** Called after a commit that changed the configuration, the pause or the freezes of a repository. */
  onQueueChanged?: (repositoryId: string) => void;
}

type RepoPath = { owner: string; repository: string };

const tags = ['merge queue'];
const credentials = security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth');
const NOT_PAUSED = errorResponse('The repository is not registered, or its merge queue is not paused.', 'queue_not_paused');
const FREEZE_NOT_FOUND = errorResponse('The repository is not registered, or has no scheduled freeze with this id.', 'scheduled_freeze_not_found');
const UNPAUSED = emptyResponse('The queue is unpaused (recorded as `queue.pause.delete`); batches start and merge again.');
const FREEZE_DELETED = emptyResponse('The freeze is deleted (recorded as `scheduled_freeze.delete` with the reason given).');
const PAUSE_RULES = 'A paused queue starts and merges nothing; checks already running go on. Pausing records `queue.pause.create`; a new reason on a paused queue records `queue.pause.update` and keeps the pause time; the same reason again records nothing. Hosting-platform tokens need push rights.';
const OLDER_PATH = 'Deprecated: answers with `Deprecation: true`; use `/merge-queue/pause`.';

async function markDeprecated(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('deprecation', 'true');
}

/** A guard whose answers all carry `Deprecation: true`. */
function deprecatedGuard(hooks: ReturnType<typeof guard>) {
  return { ...hooks, onRequest: [markDeprecated, hooks.onRequest] };
}

async function repositoryId(store: Store, owner: string, name: string): Promise<string> {
  const repository = await store.repositories.identify(owner, name);
  if (!repository) throw new ApiError('repository_not_found');
  return repository.id;
}

export const mergeQueueControlRoutes: FastifyPluginAsyncTypebox<MergeQueueControlOptions> = async (app, { auth, store, onQueueChanged }) => {
  const reader = guard(auth, 'repo_read');
  const writer = guard(auth, 'repo_write');
  const admin = guard(auth, 'repo_admin');

  // The change is committed: a failing listener must not turn it into an error answer.
  const changed = (id: string, log: FastifyBaseLogger) => {
    try {
      onQueueChanged?.(id);
    } catch (error) {
      log.error({ err: error }, 'onQueueChanged failed');
    }
  };

  app.put('/v1/repos/:owner/:repository/merge-queue/configuration', {
    ...admin,
    schema: {
      operationId: 'put_merge_queue_configuration',
      tags,
      summary: 'Configure the merge queue of a repository',
      description: 'Replaces the configuration in full: options left out take their defaults. Invalid options are a 422 naming each one. Queues are planned again at once. Hosting-platform tokens need admin rights on the repository.',
      security: credentials,
      params: RepoParams,
      body: MergeQueueConfiguration,
      response: { 200: jsonResponse('The configuration stored, every default filled in.', MergeQueueConfiguration), ...errorResponses },
    },
  }, async (request) => {
    const { owner, repository } = request.params;
    const result = await setMergeQueueConfig(store, owner, repository, request.body);
    changed(result.repositoryId, request.log);
    return configAnswer(result.config);
  });

  app.get('/v1/repos/:owner/:repository/merge-queue/configuration', {
    ...reader,
    schema: {
      operationId: 'get_merge_queue_configuration',
      tags,
      summary: 'Read the merge-queue configuration of a repository',
      description: 'Every option with its value or default. A repository never configured has a serial queue with one rule, `default`.',
      security: credentials,
      params: RepoParams,
      response: { 200: jsonResponse('The configuration, every default filled in.', MergeQueueConfiguration), ...errorResponses },
    },
  }, async (request) => configAnswer(await readMergeQueueConfig(store, await repositoryId(store, request.params.owner, request.params.repository))));

  app.get('/v1/repos/:owner/:repository/queues/configuration', {
    ...deprecatedGuard(reader),
    schema: {
      operationId: 'repository_queues_configuration_repos__owner___repository__queues_configuration_get',
      tags,
      summary: 'Get merge queues configuration',
      description: 'The queue rules in processing order, each with its options (the public shape). Deprecated in the public API: answers with `Deprecation: true`; `/merge-queue/configuration` reads the whole configuration.',
      deprecated: true,
      security: credentials,
      params: RepoParams,
      response: { 200: jsonResponse('One entry per queue rule.', QueuesConfig), ...errorResponses },
    },
  }, async (request) => queuesConfigAnswer(await readMergeQueueConfig(store, await repositoryId(store, request.params.owner, request.params.repository))));

  const pause = async (path: RepoPath, reason: string, request: FastifyRequest) => {
    const result = await pauseQueue(store, path.owner, path.repository, reason, productActorOf(request.principal));
    if (result.changed) changed(result.repositoryId, request.log);
    return result.pause;
  };
  const unpause = async (path: RepoPath, request: FastifyRequest, reply: FastifyReply) => {
    const result = await unpauseQueue(store, path.owner, path.repository, productActorOf(request.principal));
    changed(result.repositoryId, request.log);
    return reply.code(204).send(null);
  };
  const currentPause = async (path: RepoPath) => readPause(store, await repositoryId(store, path.owner, path.repository));

  app.put('/v1/repos/:owner/:repository/merge-queue/pause', {
    ...writer,
    schema: {
      operationId: 'create_merge_queue_pause_repos__owner___repository__merge_queue_pause_put',
      tags,
      summary: 'Pause the merge queue',
      description: PAUSE_RULES,
      security: credentials,
      params: RepoParams,
      body: MergeQueuePausePayload,
      response: { 200: jsonResponse('The queue is paused, with this reason, since paused_at.', MergeQueuePauseResponse), ...errorResponses },
    },
  }, async (request) => mergeQueuePauseAnswer(await pause(request.params, request.body.reason, request)));

  app.delete('/v1/repos/:owner/:repository/merge-queue/pause', {
    ...writer,
    schema: {
      operationId: 'delete_merge_queue_pause_repos__owner___repository__merge_queue_pause_delete',
      tags,
      summary: 'Unpause the merge queue',
      description: 'Hosting-platform tokens need push rights. A queue that is not paused: 404.',
      security: credentials,
      params: RepoParams,
      response: { 204: UNPAUSED, ...errorResponses, 404: NOT_PAUSED },
    },
  }, async (request, reply) => unpause(request.params, request, reply));

  app.get('/v1/repos/:owner/:repository/merge-queue/pause', {
    ...reader,
    schema: {
      operationId: 'get_merge_queue_pause_repos__owner___repository__merge_queue_pause_get',
      tags,
      summary: 'Get merge queue pause data',
      description: 'Whether the queue is paused, why and since when.',
      security: credentials,
      params: RepoParams,
      response: { 200: jsonResponse('The pause, or `paused: false` with null reason and time.', MergeQueuePauseResponse), ...errorResponses },
    },
  }, async (request) => mergeQueuePauseAnswer(await currentPause(request.params)));

  app.put('/v1/repos/:owner/:repository/queue/pause', {
    ...deprecatedGuard(writer),
    schema: {
      operationId: 'create_queue_pause_repos__owner___repository__queue_pause_put',
      tags,
      summary: 'Pause the merge queue (older path)',
      description: `${OLDER_PATH} ${PAUSE_RULES}`,
      deprecated: true,
      security: credentials,
      params: RepoParams,
      body: QueuePausePayload,
      response: { 200: jsonResponse('The queue is paused: its one pause.', QueuePauseResponse), ...errorResponses },
    },
  }, async (request) => queuePauseAnswer(await pause(request.params, request.body.reason, request)));

  const olderUnpause = {
    ...deprecatedGuard(writer),
    schema: {
      tags,
      summary: 'Unpause the merge queue (older path)',
      description: `${OLDER_PATH} A queue that is not paused: 404.`,
      deprecated: true,
      security: credentials,
      params: RepoParams,
      response: { 204: UNPAUSED, ...errorResponses, 404: NOT_PAUSED },
    },
  } as const;
  app.delete('/v1/repos/:owner/:repository/queue/pause', { ...olderUnpause, schema: { ...olderUnpause.schema, operationId: 'delete_queue_pause_repos__owner___repository__queue_pause_delete' } }, async (request, reply) => unpause(request.params, request, reply));
  app.post('/v1/repos/:owner/:repository/queue/pause/delete', { ...olderUnpause, schema: { ...olderUnpause.schema, operationId: 'delete_queue_pause_repos__owner___repository__queue_pause_delete_post' } }, async (request, reply) => unpause(request.params, request, reply));

  app.get('/v1/repos/:owner/:repository/queue/pause', {
    ...deprecatedGuard(reader),
    schema: {
      operationId: 'get_queue_pause_repos__owner___repository__queue_pause_get',
      tags,
      summary: 'Get queue pause data (older path)',
      description: OLDER_PATH,
      deprecated: true,
      security: credentials,
      params: RepoParams,
      response: { 200: jsonResponse('The pause as a list: one item when paused, none otherwise.', QueuePauseResponse), ...errorResponses },
    },
  }, async (request) => queuePauseAnswer(await currentPause(request.params)));

  app.get('/v1/repos/:owner/:repository/scheduled_freeze', {
    ...reader,
    schema: {
      operationId: 'get_scheduled_freezes_repos__owner___repository__scheduled_freeze_get',
      tags,
      summary: 'Get scheduled freezes',
      description: 'The freezes ongoing or still to come; those ended are not listed.',
      security: credentials,
      params: RepoParams,
      response: { 200: jsonResponse('The freezes, by start.', GetScheduledFreezesResponse), ...errorResponses },
    },
  }, async (request) => ({ scheduled_freezes: (await listFreezes(store, request.params.owner, request.params.repository, new Date())).map(freezeAnswer) }));

  app.post('/v1/repos/:owner/:repository/scheduled_freeze', {
    ...writer,
    schema: {
      operationId: 'create_scheduled_freeze_repos__owner___repository__scheduled_freeze_post',
      tags,
      summary: 'Create a scheduled freeze',
      description: 'From `start` to `end` (local times of `timezone`), passed batches to a matching base branch wait instead of merging. Conditions: `base=NAME` and `base!=NAME` only, others 422. Recorded as `scheduled_freeze.create`. Hosting-platform tokens need push rights.',
      security: credentials,
      params: RepoParams,
      body: CreateScheduledQueueFreezePayload,
      response: { 201: jsonResponse('The freeze, as stored.', ScheduledFreezeObjectResponse), ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner, repository } = request.params;
    const result = await createFreeze(store, owner, repository, request.body, productActorOf(request.principal));
    changed(result.repositoryId, request.log);
    return reply.code(201).send(freezeAnswer(result.freeze));
  });

  app.patch('/v1/repos/:owner/:repository/scheduled_freeze/:freeze_id', {
    ...writer,
    schema: {
      operationId: 'update_scheduled_freeze_repos__owner___repository__scheduled_freeze__freeze_id__patch',
      tags,
      summary: 'Update a scheduled freeze',
      description: 'Changes the fields given. `start` only until the freeze has begun. Recorded as `scheduled_freeze.update` with the freeze before and after. Hosting-platform tokens need push rights.',
      security: credentials,
      params: FreezeParams,
      body: UpdateScheduledFreezePayload,
      response: {
        200: jsonResponse('The freeze, as now stored.', ScheduledFreezeObjectResponse),
        400: errorResponse('The freeze has already begun: its `start` cannot change.', 'scheduled_freeze_started'),
        ...errorResponses,
        404: FREEZE_NOT_FOUND,
      },
    },
  }, async (request) => {
    const { owner, repository, freeze_id } = request.params;
    const result = await updateFreeze(store, owner, repository, freeze_id, request.body, productActorOf(request.principal));
    changed(result.repositoryId, request.log);
    return freezeAnswer(result.freeze);
  });

  const deleteOptions = {
    ...writer,
    schema: {
      tags,
      summary: 'Delete a scheduled freeze',
      description: 'The body, optional, gives the reason recorded on `scheduled_freeze.delete` (empty without one). Hosting-platform tokens need push rights.',
      security: credentials,
      params: FreezeParams,
      body: Nullable(DeleteScheduledFreezePayload),
      response: { 204: FREEZE_DELETED, ...errorResponses, 404: FREEZE_NOT_FOUND },
    },
  } as const;
  const removeFreeze = async (path: RepoPath & { freeze_id: string }, body: { delete_reason: string } | null, request: FastifyRequest, reply: FastifyReply) => {
    const result = await deleteFreeze(store, path.owner, path.repository, path.freeze_id, body?.delete_reason ?? '', productActorOf(request.principal));
    changed(result.repositoryId, request.log);
    return reply.code(204).send(null);
  };
  app.delete('/v1/repos/:owner/:repository/scheduled_freeze/:freeze_id', {
    ...deleteOptions,
    onRequest: [markDeprecated, writer.onRequest],
    schema: {
      ...deleteOptions.schema,
      operationId: 'delete_scheduled_freeze_repos__owner___repository__scheduled_freeze__freeze_id__delete',
      description: `Deprecated in the public API: answers with \`Deprecation: true\`; use \`POST …/delete\`. ${deleteOptions.schema.description}`,
      deprecated: true,
    },
  }, async (request, reply) => removeFreeze(request.params, request.body, request, reply));
  app.post('/v1/repos/:owner/:repository/scheduled_freeze/:freeze_id/delete', { ...deleteOptions, schema: { ...deleteOptions.schema, operationId: 'delete_scheduled_freeze_repos__owner___repository__scheduled_freeze__freeze_id__delete_post' } }, async (request, reply) => removeFreeze(request.params, request.body, request, reply));
};
