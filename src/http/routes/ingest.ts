// Event ingestion (DESIGN.md §7): the service token posts batches of 1 to 1000 events, checked
// in full before anything is written; one 422 names every invalid event by index and field.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, ValidationError } from '../../errors.ts';
import { RepoParams } from '../../domain/identifiers.ts';
import { Int64 } from '../../domain/int64.ts';
import { IngestRequest, validateIngestEvents } from '../../domain/events/index.ts';
import type { Store } from '../../storage/store.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { compileBodyValidator, compileParameterValidator, toValidationIssues } from '../../validation/validators.ts';
import { errorResponses, jsonResponse } from './schemas.ts';

export const INGESTION_BODY_LIMIT = 10 * 1024 * 1024;

// The body's outer shape only; each event is checked by validateIngestEvents, which reports
// envelope and metadata defects together, by index.
const outerShape = compileBodyValidator(Type.Object({ events: Type.Array(Type.Unknown()) }, { additionalProperties: false }));

function eventsOf(body: unknown): unknown[] {
  if (!outerShape(body)) throw new ValidationError(toValidationIssues(outerShape.errors ?? [], ['body']));
  return (body as { events: unknown[] }).events;
}

export const ingestRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; store: Store }> = async (app, { auth, store }) => {
  app.post('/v1/repos/:owner/:repository/logs', {
    ...guard(auth, 'service'),
    bodyLimit: INGESTION_BODY_LIMIT,
    // The documented body schema is checked by hand above, so Fastify only validates the path.
    validatorCompiler: ({ schema, httpPart }) => (httpPart === 'body' ? () => true : compileParameterValidator(schema)),
    schema: {
      operationId: 'record_repository_events',
      tags: ['activity log'],
      summary: 'Record events in the activity log',
      description: 'Service token only. 1 to 1000 events, all or nothing; `outcome` is derived from type and metadata. See [events](/docs/guides/events).',
      security: security('ServiceTokenBearerAuth'),
      params: RepoParams,
      body: IngestRequest,
      response: {
        201: jsonResponse(
          'Every event is stored (or was already, under its idempotency key).',
          Type.Object({ ids: Type.Array(Int64({ examples: [1234] }), { description: 'Event ids, in input order; the first id given for a repeated idempotency key' }) }, { title: 'RecordedEvents' }),
        ),
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    const validation = validateIngestEvents(eventsOf(request.body), new Date());
    if (!validation.ok) throw new ValidationError(validation.issues);
    const repository = await store.repositories.identify(request.params.owner, request.params.repository);
    if (!repository) throw new ApiError('repository_not_found');
    const ids = await store.events.insertBatch(repository.id, validation.events);
    return reply.code(201).send({ ids });
  });
};
