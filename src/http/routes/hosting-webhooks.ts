// POST /v1/hooks/hosting (DESIGN.md §4): hosting-platform webhooks, signed rather than
// bearer-authenticated. The signature covers the raw bytes, so this plugin keeps the body raw
// (its own content-type parser, encapsulated here) and parses it only once it is verified.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { parseJson } from '../../json/exact-json.ts';
import { parseHostingEvent } from '../../domain/webhooks/parse-hosting-event.ts';
import { signatureMatches } from '../../domain/webhooks/signature.ts';
import type { Store } from '../../storage/store.ts';
import { applyHostingEvent } from '../../services/hosting-webhook.ts';
import type { QueueSignals } from '../../services/merge-queue/queue-signals.ts';
import { compileParameterValidator } from '../../validation/validators.ts';
import { emptyResponse, errorResponse, errorResponses, jsonResponse, ValidationErrorBody } from './schemas.ts';

/** Platform payloads can be large (GitHub allows 25 MB); ours need a few fields of them. */
export const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;

const Headers = Type.Object({
  'x-github-event': Type.String({ minLength: 1, maxLength: 100, description: 'Event name, e.g. pull_request' }),
  'x-github-delivery': Type.String({ minLength: 1, maxLength: 255, description: 'Delivery id; a repeated one is applied once' }),
  'x-hub-signature-256': Type.String({ description: '"sha256=" and the hex HMAC-SHA256 of the raw body under SWITCHYARD_WEBHOOK_SECRET' }),
});

const Payload = Type.Object({}, { additionalProperties: true, description: 'The platform\'s payload, as JSON or as the `payload` field of a form' });

function rawBody(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

/** JSON, or GitHub's form encoding (`payload=<json>`) for webhooks configured that way. */
function decodePayload(request: FastifyRequest): unknown {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const text = rawBody(request).toString('utf8');
  if (type === 'application/json') return parseJson(text);
  if (type === 'application/x-www-form-urlencoded') return parseJson(new URLSearchParams(text).get('payload') ?? '');
  throw new ApiError('unsupported_media_type');
}

export const hostingWebhookRoutes: FastifyPluginAsyncTypebox<{ store: Store; secret: string | undefined; signals?: QueueSignals }> = async (app, { store, secret, signals }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post('/v1/hooks/hosting', {
    bodyLimit: WEBHOOK_BODY_LIMIT,
    // Before header validation: an unsigned request learns nothing but 403.
    preValidation: async (request) => {
      if (!signatureMatches(secret, rawBody(request), request.headers['x-hub-signature-256'] as string | undefined)) throw new ApiError('bad_signature');
    },
    // The body stays raw for the signature; it is parsed and checked in the handler.
    validatorCompiler: ({ schema, httpPart }) => (httpPart === 'body' ? () => true : compileParameterValidator(schema)),
    schema: {
      operationId: 'receive_hosting_webhook',
      tags: ['webhooks'],
      summary: 'Receive a hosting-platform webhook',
      description: `Signed with X-Hub-Signature-256, not bearer-authenticated; refused (403) when SWITCHYARD_WEBHOOK_SECRET is not set. Handles pull_request (opened, reopened, synchronize, edited, closed, converted_to_draft, ready_for_review, labeled, unlabeled), issue_comment (created: merge-queue commands), check_run, check_suite, status and push (the merge queue looks again), installation (created), installation_repositories (added) and repository (created); other events and actions answer 204 and change nothing. Bodies up to ${WEBHOOK_BODY_LIMIT / 1024 / 1024} MiB.`,
      security: [],
      headers: Headers,
      body: Payload,
      response: {
        204: emptyResponse('Applied, or ignored: an event or action not handled, or a delivery already applied.'),
        403: errorResponse('The signature is missing or does not match, or no secret is configured.', 'bad_signature'),
        413: errorResponse(`The body is larger than ${WEBHOOK_BODY_LIMIT / 1024 / 1024} MiB.`, 'payload_too_large'),
        415: errorResponse('The body is neither JSON nor a form with a `payload` field.', 'unsupported_media_type'),
        422: jsonResponse('A header is missing or invalid, or the payload of a handled event lacks a field Switchyard reads.', ValidationErrorBody),
        503: errorResponses[503],
      },
    },
  }, async (request, reply) => {
    const { 'x-github-event': event, 'x-github-delivery': delivery } = request.headers;
    const outcome = await applyHostingEvent(store, delivery, parseHostingEvent(event, decodePayload(request)), signals);
    request.log.info({ event, delivery, outcome }, 'hosting webhook');
    return reply.code(204).send(null);
  });
};
