// Activity log listing (spec §4.4, §2.7; DESIGN.md §8): filters, a time window, and keyset pages
// linked by signed cursors. The query language lives in src/domain/activity-log and the SQL in
// src/storage/queries/event-filters.ts, both shared with the aggregate endpoint.
import type { Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { RepoParams } from '../../domain/identifiers.ts';
import * as log from '../../domain/activity-log/index.ts';
import { ActivityLogPage } from '../../domain/activity-log/page-schema.ts';
import type { Store } from '../../storage/store.ts';
import { absoluteUrl, requestBaseUrl } from '../public-base-url.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { compileParameterValidator } from '../../validation/validators.ts';
import { errorResponses, header, jsonResponse } from './schemas.ts';

interface LogRouteOptions {
  auth: CredentialDeps;
  store: Store;
  /** SWITCHYARD_PUBLIC_URL: base of the links; else the request's own scheme and host. */
  publicUrl: string | undefined;
}

/** Where a page stands in its walk: the walk's window and snapshot, and where the page starts. */
interface Walk {
  window: log.TimeWindow;
  snapshot?: bigint | undefined;
  seek?: log.Seek | undefined;
}

const positionOf = (event: log.StoredEvent): log.KeysetPosition => ({ receivedAt: event.received_at.getTime(), id: BigInt(event.id) });

/** A first page resolves its window now; a later one keeps its cursor's window, so the clock never moves a page. */
function walkOf(cursor: log.PageCursor | undefined, window: log.TimeWindow | undefined): Walk {
  if (!cursor) return { window: window! };
  return { window: cursor.window, snapshot: cursor.snapshot, seek: { direction: cursor.direction, position: cursor.position } };
}

const LINK = header(
  'RFC 8288 pagination links: `<url>; rel="next"` and `<url>; rel="prev"`, each present only when that page exists (no header on a single page). Each URL is absolute and repeats every filter with `per_page` and `cursor`.',
);

const PAGE_EXAMPLE = {
  size: 1,
  per_page: 10,
  events: [
    {
      id: 1234,
      received_at: '2024-05-01T12:00:00.123Z',
      trigger: 'Rule: label by path',
      repository: 'acme/widgets',
      pull_request: 42,
      base_ref: 'main',
      outcome: 'success',
      type: 'action.label',
      metadata: { added: ['docs'], removed: [] },
    },
  ],
};

export const logRoutes: FastifyPluginAsyncTypebox<LogRouteOptions> = async (app, { auth, store, publicUrl }) => {
  app.get('/v1/repos/:owner/:repository/logs', {
    ...guard(auth, 'repo_read'),
    // One owner's scans queue behind its own (src/http/limits/owner-share.ts).
    config: { ownerShare: true },
    // The window bounds are documented as date-times but read by parseFilterQuery, whose
    // messages say what is wrong (a `+` sent unencoded arrives as a space).
    validatorCompiler: ({ schema, httpPart }) => compileParameterValidator(httpPart === 'querystring' ? log.ActivityLogListQueryInput : schema),
    schema: {
      operationId: 'get_repository_events_repos__owner___repository__logs_get',
      tags: ['activity log'],
      summary: 'List the activity log',
      description: 'Events newest first, filtered, a page at a time; follow the `Link` header for the next and previous pages. See [the activity log guide](/docs/guides/activity-log).',
      security: security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth'),
      params: RepoParams,
      querystring: log.ActivityLogListQuery,
      response: { 200: jsonResponse('A page of events, newest first.', ActivityLogPage, { headers: { Link: LINK }, example: PAGE_EXAMPLE }), ...errorResponses },
    },
  }, async (request, reply) => {
    const params = request.query as log.ActivityLogListParams;
    const perPage = log.pageSize(params.per_page);
    const query = log.parseFilterQuery(params);
    const window = params.cursor === undefined ? log.resolveWindow(query.bounds, new Date()) : undefined;
    const repository = await store.repositories.identify(request.params.owner, request.params.repository);
    if (!repository) throw new ApiError('repository_not_found');
    const fingerprint = log.filterFingerprint(repository.id, query);
    const cursor = params.cursor === undefined ? undefined : log.decodeCursor(params.cursor, await store.eventLog.signingKey(), fingerprint);
    const walk = walkOf(cursor, window);
    const fetched = await store.eventLog.page({ repositoryId: repository.id, filters: query.filters, limit: perPage + 1, ...walk });
    const page = log.slicePage(fetched.rows, perPage, walk.seek, positionOf);
    if (fetched.snapshot !== undefined && (page.next || page.prev)) {
      const sign = await cursorSigner(store, { window: walk.window, snapshot: fetched.snapshot, fingerprint });
      const url = absoluteUrl(requestBaseUrl(request, publicUrl), ['v1', 'repos', request.params.owner, request.params.repository, 'logs']);
      reply.header('link', log.linkHeader(url, log.filterParams(query), perPage, { next: sign('next', page.next), prev: sign('prev', page.prev) }));
    }
    // Written by pageJson as text (page-json.ts), which Fastify sends as it is; typed as the page it holds.
    const json = log.pageJson(page.rows, perPage, `${repository.owner}/${repository.name}`);
    return reply.type('application/json').send(json as unknown as Static<typeof ActivityLogPage>);
  });
};

type Signer = (direction: log.PageDirection, position: log.KeysetPosition | undefined) => string | undefined;

/** Signs the cursors of the pages beside this one: same window, snapshot and filters. */
async function cursorSigner(store: Store, walk: Pick<log.PageCursor, 'window' | 'snapshot' | 'fingerprint'>): Promise<Signer> {
  const key = await store.eventLog.signingKey();
  return (direction, position) => position && log.encodeCursor({ ...walk, direction, position }, key);
}
