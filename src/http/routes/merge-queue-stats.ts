// The merge queue's statistics (issue 26): the public API's 18 `/repos/{o}/{r}/stats/*` reads,
// with its operation ids, parameters and answer shapes, computed from the activity log
// (src/services/merge-queue-stats.ts). Read rights on the repository, as the activity log's
// (DESIGN.md §3). Each read is one row of STATS_ROUTES (merge-queue-stats-routes.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { RepoParams } from '../../domain/identifiers.ts';
import { instantParameter, statsWindow } from '../../domain/merge-queue-stats/stats-window.ts';
import type { MergeQueueStats } from '../../services/merge-queue-stats.ts';
import type { Store } from '../../storage/store.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { compileParameterValidator } from '../../validation/validators.ts';
import { STATS_QUERIES, type StatsParams } from '../merge-queue-stats/stats-queries.ts';
import { STATS_ROUTES, type StatsRead } from './merge-queue-stats-routes.ts';
import { errorResponses, jsonResponse } from './schemas.ts';

/** The public API deprecates two of the reads; their answers say so. */
async function markDeprecated(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('deprecation', 'true');
}

export const mergeQueueStatsRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; store: Store; stats: MergeQueueStats }> = async (app, { auth, store, stats }) => {
  const rights = guard(auth, 'repo_read');
  const repositoryId = async (owner: string, name: string) => {
    const repository = await store.repositories.identify(owner, name);
    if (!repository) throw new ApiError('repository_not_found');
    return repository.id;
  };
  const answer = async (read: StatsRead, owner: string, name: string, params: StatsParams): Promise<unknown> => {
    // The bounds first: a bad one is a 422 whether or not the repository exists.
    if (read === 'time_to_merge') {
      const at = instantParameter(params.at, 'at');
      return stats.timeToMerge(await repositoryId(owner, name), at, params.branch);
    }
    const window = statsWindow(params, new Date());
    const repository = await repositoryId(owner, name);
    if (read === 'branches') return stats.branches(repository, window);
    if (read === 'queues') return stats.queues(repository, window);
    return stats.series(read, repository, window, { baseRefs: params.base_ref, queueNames: params.queue_name, priorityRuleNames: params.priority_rule_name });
  };

  for (const [read, route] of Object.entries(STATS_ROUTES) as [StatsRead, (typeof STATS_ROUTES)[StatsRead]][]) {
    const query = STATS_QUERIES[route.query];
    app.get(`/v1/repos/:owner/:repository/stats/${read}`, {
      ...rights,
      ...(route.deprecated ? { onRequest: [markDeprecated, rights.onRequest] } : {}),
      // One owner's scans queue behind its own (src/http/limits/owner-share.ts).
      config: { ownerShare: true },
      validatorCompiler: ({ schema, httpPart }) => compileParameterValidator(httpPart === 'querystring' ? query.input : schema),
      schema: {
        operationId: route.operationId,
        tags: ['statistics'],
        summary: route.summary,
        description: `${route.description} See [the merge queue guide](/docs/guides/merge-queue).`,
        ...(route.deprecated ? { deprecated: true } : {}),
        security: security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth'),
        params: RepoParams,
        querystring: query.doc,
        response: { 200: jsonResponse(route.answer, route.response), ...errorResponses },
      },
    }, async (request) => answer(read, request.params.owner, request.params.repository, request.query as StatsParams));
  }
};
