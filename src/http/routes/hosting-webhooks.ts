// POST /v1/hooks/hosting (DESIGN.md §4): hosting-platform webhooks, signed rather than
// bearer-authenticated. The signature covers the raw bytes, so this plugin keeps the body raw
// (its own content-type parser, encapsulated here) and parses it only once it is verified.
// A delivery without a well-formed signature, or announcing a body over the limit, is refused
// from its headers, before its body is read; the HMAC, and the SHA-256 that recognises a body
// sent again under a new delivery id, are computed as the body streams in.
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { Transform } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { parseJson } from '../../json/exact-json.ts';
import { decodeUtf8 } from '../../json/strict-utf8.ts';
import { parseHostingEvent } from '../../domain/webhooks/parse-hosting-event.ts';
import { claimedSignature, digestMatches } from '../../domain/webhooks/signature.ts';
import { refuseTooOld } from '../../domain/webhooks/delivery-age.ts';
import type { Store } from '../../storage/store.ts';
import { applyHostingEvent } from '../../services/hosting-webhook.ts';
import type { QueueSignals } from '../../services/merge-queue/queue-signals.ts';
import type { RulesSignals } from '../../services/automation/rules-signals.ts';
import { parseRulesSignal } from '../../domain/webhooks/rules-signal-event.ts';
import { compileParameterValidator } from '../../validation/validators.ts';
import { emptyResponse, errorResponse, errorResponses, jsonResponse, ValidationErrorBody } from './schemas.ts';

/** Platform payloads can be large (GitHub allows 25 MB); ours need a few fields of them. */
export const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;

const Headers = Type.Object({
  'x-github-event': Type.String({ minLength: 1, maxLength: 100, description: 'Event name, e.g. pull_request' }),
  'x-github-delivery': Type.String({ minLength: 1, maxLength: 255, description: 'Delivery id; a repeated one, or a body already applied under another, is applied once' }),
  'x-hub-signature-256': Type.String({ description: '"sha256=" and the hex HMAC-SHA256 of the raw body under SWITCHYARD_WEBHOOK_SECRET' }),
});

const Payload = Type.Object({}, { additionalProperties: true, description: 'The platform\'s payload, as JSON or as the `payload` field of a form' });

const digests = new WeakMap<FastifyRequest, { claimed: Buffer; hmac: Hmac; body: Hash }>();

/** Refuses from the headers alone what no body could make acceptable. */
function refuseFromHeaders(secret: string | undefined, request: FastifyRequest): void {
  const claimed = claimedSignature(secret, request.headers['x-hub-signature-256'] as string | undefined);
  if (!claimed) throw new ApiError('bad_signature');
  if (Number(request.headers['content-length']) > WEBHOOK_BODY_LIMIT) throw new ApiError('payload_too_large');
  digests.set(request, { claimed, hmac: createHmac('sha256', secret!), body: createHash('sha256') });
}

/** The body, passed on unchanged, into the request's HMAC and digest as it arrives. */
function hashAsItStreams(request: FastifyRequest, payload: NodeJS.ReadableStream): NodeJS.ReadableStream {
  const { hmac, body } = digests.get(request)!;
  const hashed = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hmac.update(chunk);
      body.update(chunk);
      callback(null, chunk);
    },
  });
  payload.pipe(hashed);
  payload.on('error', (error) => hashed.destroy(error));
  return hashed;
}

function signatureVerified(request: FastifyRequest): boolean {
  const entry = digests.get(request);
  return entry !== undefined && digestMatches(entry.claimed, entry.hmac.digest());
}

function rawBody(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

/** JSON, or GitHub's form encoding (`payload=<json>`) for webhooks configured that way. */
function decodePayload(request: FastifyRequest): unknown {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const text = decodeUtf8(rawBody(request));
  if (type === 'application/json') return parseJson(text);
  if (type === 'application/x-www-form-urlencoded') return parseJson(new URLSearchParams(text).get('payload') ?? '');
  throw new ApiError('unsupported_media_type');
}

export interface HostingWebhookOptions {
  store: Store;
  secret: string | undefined;
  signals?: QueueSignals;
  /** The rules engine's reading of the same webhooks (which pull requests to evaluate again). */
  rules?: RulesSignals;
  /** how old a payload's own time may be (SWITCHYARD_WEBHOOK_MAX_AGE_SECONDS) */
  maxAgeSeconds: number;
  now?: () => Date;
}

export const hostingWebhookRoutes: FastifyPluginAsyncTypebox<HostingWebhookOptions> = async (app, { store, secret, signals, rules, maxAgeSeconds, now = () => new Date() }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post('/v1/hooks/hosting', {
    bodyLimit: WEBHOOK_BODY_LIMIT,
    // Deliveries come from the platform's few addresses, signed; what they may hold at once is
    // bounded by the bodies-in-flight budget, not by a count per minute.
    config: { rateLimit: false },
    // Before header validation: an unsigned request learns nothing but 403.
    onRequest: async (request) => refuseFromHeaders(secret, request),
    preParsing: async (request, _reply, payload) => hashAsItStreams(request, payload),
    preValidation: async (request) => {
      if (!signatureVerified(request)) throw new ApiError('bad_signature');
    },
    // The body stays raw for the signature; it is parsed and checked in the handler.
    validatorCompiler: ({ schema, httpPart }) => (httpPart === 'body' ? () => true : compileParameterValidator(schema)),
    schema: {
      operationId: 'receive_hosting_webhook',
      tags: ['webhooks'],
      summary: 'Receive a hosting-platform webhook',
      description: `Signed with X-Hub-Signature-256, not bearer-authenticated; refused (403) when SWITCHYARD_WEBHOOK_SECRET is not set. Handles pull_request (opened, reopened, synchronize, edited, closed, converted_to_draft, ready_for_review, labeled, unlabeled), issue_comment (created: merge-queue commands), check_run, check_suite, status and push (the merge queue looks again), installation (created), installation_repositories (added) and repository (created). The rules engine reads pull_request (every action), pull_request_review, issue_comment, check_run, check_suite, status and push to know which pull requests to evaluate again, and a push to the default branch that touches the configuration file to read it again. Other events and actions answer 204 and change nothing. A body already applied, come again under another delivery id (a replay), is acknowledged and not applied; pull request state is ordered by the payload's pull_request.updated_at, never by arrival alone: an older one, or one without it once a time is recorded, changes nothing. Bodies up to ${WEBHOOK_BODY_LIMIT / 1024 / 1024} MiB.`,
      security: [],
      headers: Headers,
      body: Payload,
      response: {
        204: emptyResponse('Applied, or ignored: an event or action not handled, a delivery id or a body already applied, or a pull request state older than the one recorded (or without a time, when the recorded one has one).'),
        403: errorResponse('The signature is missing or does not match, or no secret is configured.', 'bad_signature'),
        413: errorResponse(`The body is larger than ${WEBHOOK_BODY_LIMIT / 1024 / 1024} MiB.`, 'payload_too_large'),
        415: errorResponse('The body is neither JSON nor a form with a `payload` field.', 'unsupported_media_type'),
        422: jsonResponse('A header is missing or invalid, the payload of a handled event lacks a field Switchyard reads, or its own time (pull_request.updated_at, comment.created_at) is further back than SWITCHYARD_WEBHOOK_MAX_AGE_SECONDS when that bound is set (type `webhook_too_old`).', ValidationErrorBody),
        503: errorResponses[503],
      },
    },
  }, async (request, reply) => {
    const { 'x-github-event': event, 'x-github-delivery': delivery } = request.headers;
    const payload = decodePayload(request);
    const parsed = parseHostingEvent(event, payload);
    // Read before anything is applied; a payload it cannot read only loses the engine a hint.
    const rulesSignal = rules ? parseRulesSignal(event, payload) : null;
    refuseTooOld(parsed, now(), maxAgeSeconds);
    const digest = digests.get(request)!.body.digest('hex');
    const outcome = await applyHostingEvent(store, { id: delivery, digest }, parsed, signals);
    // A redelivery or a replay asks for nothing more: what it would ask for was asked already.
    if (rulesSignal && (outcome === 'applied' || outcome === 'ignored' || outcome === 'stale')) await rules!.apply(rulesSignal);
    request.log.info({ event, delivery, outcome }, 'hosting webhook');
    return reply.code(204).send(null);
  });
};
