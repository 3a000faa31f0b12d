// Activity log aggregation (spec §4.4, §2.6; DESIGN.md §8): the same filters and window as the
// list, answered with a total, a histogram and five facets computed in one pass over the window.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { RepoParams } from '../../domain/identifiers.ts';
import * as log from '../../domain/activity-log/index.ts';
import { aggregateResult } from '../../domain/activity-log/aggregate-result.ts';
import { intervalSizeSeconds } from '../../domain/activity-log/histogram.ts';
import type { Store } from '../../storage/store.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { compileParameterValidator } from '../../validation/validators.ts';
import { errorResponses, jsonResponse } from './schemas.ts';

const FacetCounts = (description: string) =>
  Type.Array(Type.Object({ value: Type.String(), count: Type.Integer({ minimum: 1 }) }, { title: 'FacetCount' }), { description });

const AggregationResult = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'Events matching the filters: what the list endpoint returns for them' }),
    interval_size_seconds: Type.Integer({ description: 'Histogram step: 15, 30, 120, 600, 1200, 3600, 14400, 28800 or 86400' }),
    histogram: Type.Array(
      Type.Object({ start: Type.String({ format: 'date-time' }), end: Type.String({ format: 'date-time' }), count: Type.Integer({ minimum: 0 }) }, { title: 'HistogramBucket' }),
      { description: 'Epoch-aligned buckets [start, end) covering the window, zero-filled' },
    ),
    by_event_type: FacetCounts('Every filter applied'),
    by_outcome: FacetCounts('Every filter applied'),
    by_trigger: FacetCounts('Ignores trigger / not_trigger; top 200'),
    by_pull_request: FacetCounts('Ignores pull_request / not_pull_request; top 200; events without a pull request skipped'),
    by_batch_pull_request: FacetCounts('checks_start and checks_end by batch pull request; ignores batch_pull / not_batch_pull; top 200'),
  },
  { title: 'AggregationResult' },
);

const facet = (value: string, count: number) => [{ value, count }];

const AGGREGATE_EXAMPLE = {
  total: 3,
  interval_size_seconds: 600,
  histogram: [
    { start: '2024-05-01T12:00:00Z', end: '2024-05-01T12:10:00Z', count: 2 },
    { start: '2024-05-01T12:10:00Z', end: '2024-05-01T12:20:00Z', count: 1 },
  ],
  by_event_type: [...facet('action.queue.checks_start', 2), ...facet('action.queue.checks_end', 1)],
  by_outcome: [...facet('pending', 2), ...facet('success', 1)],
  by_trigger: facet('merge queue', 3),
  by_pull_request: facet('42', 3),
  by_batch_pull_request: facet('1001', 3),
};

export const logAggregateRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; store: Store }> = async (app, { auth, store }) => {
  app.get('/v1/repos/:owner/:repository/logs/aggregate', {
    ...guard(auth, 'repo_read'),
    // One owner's scans queue behind its own (src/http/limits/owner-share.ts).
    config: { ownerShare: true },
    // As for the list: the window bounds are read (and their errors explained) by parseFilterQuery.
    validatorCompiler: ({ schema, httpPart }) => compileParameterValidator(httpPart === 'querystring' ? log.ActivityLogFilterQueryInput : schema),
    schema: {
      operationId: 'get_repository_events_aggregate_repos__owner___repository__logs_aggregate_get',
      tags: ['activity log'],
      summary: 'Aggregate the activity log',
      description: 'Counts over the same filters and window as the list: a histogram and facets. See [the activity log guide](/docs/guides/activity-log).',
      security: security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth'),
      params: RepoParams,
      querystring: log.ActivityLogFilterQuery,
      response: { 200: jsonResponse('The counts of the events the list would return for the same filters.', AggregationResult, { example: AGGREGATE_EXAMPLE }), ...errorResponses },
    },
  }, async (request) => {
    const query = log.parseFilterQuery(request.query as log.ActivityLogFilterParams);
    const window = log.resolveWindow(query.bounds, new Date());
    const repository = await store.repositories.identify(request.params.owner, request.params.repository);
    if (!repository) throw new ApiError('repository_not_found');
    const step = intervalSizeSeconds(window);
    const rows = await store.eventAggregates.aggregate({ repositoryId: repository.id, window }, query.filters, step);
    return aggregateResult(rows, window, step);
  });
};
