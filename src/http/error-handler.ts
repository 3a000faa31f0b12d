// The one renderer of errors (DESIGN.md §2): catalogued ApiErrors as they are, Fastify's own
// validation and body errors mapped onto the catalogue, storage outages as 503, anything else
// as a logged 500 that says nothing of its cause.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorCatalogue, RETRY_AFTER_SECONDS, ValidationError, type ErrorCode } from '../errors.ts';
import { JsonBoundError, JsonSyntaxError } from '../json/exact-json.ts';
import { toStorageError } from '../storage/storage-errors.ts';
import { toValidationIssues } from '../validation/validators.ts';

const LOCATIONS: Record<string, string> = { body: 'body', params: 'path', querystring: 'query', headers: 'header' };

/** A value the body parser met past its route schema's bounds: the type the validator would give it. */
const BOUND_TYPES: Record<JsonBoundError['bound'], string> = { maxItems: 'too_long', maxProperties: 'too_many_properties', depth: 'type_error' };

const FASTIFY_CODES: Record<string, () => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError('payload_too_large'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new ApiError('unsupported_media_type'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ValidationError([{ loc: ['header', 'content-length'], msg: 'does not match the body', type: 'content_length' }]),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ValidationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ValidationError([{ loc: ['body'], msg: 'is not valid JSON', type: 'json_invalid' }]),
  // Raised by the router before any route runs (app.ts passes them here as frameworkErrors);
  // Fastify's own answers to these had no `detail`.
  FST_ERR_BAD_URL: () => new ValidationError([{ loc: ['path'], msg: 'is not valid percent-encoded UTF-8', type: 'url_invalid' }]),
  FST_ERR_MAX_PARAM_LENGTH: () => new ValidationError([{ loc: ['path'], msg: 'has a segment longer than 512 characters', type: 'url_invalid' }]),
};

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof JsonSyntaxError) return new ValidationError([{ loc: ['body', error.position], msg: error.message, type: 'json_invalid' }]);
  if (error instanceof JsonBoundError) return new ValidationError([{ loc: ['body', ...error.path], msg: error.message, type: BOUND_TYPES[error.bound] }]);
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation) {
    return new ValidationError(toValidationIssues(fastifyError.validation, [LOCATIONS[fastifyError.validationContext ?? 'body'] ?? 'body']));
  }
  const mapped = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped) return mapped();
  const storage = toStorageError(error);
  if (storage instanceof ApiError) return storage;
  if (fastifyError.statusCode === 413) return new ApiError('payload_too_large');
  return new ApiError('internal_error');
}

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(error);
  if (apiError.code === 'internal_error') request.log.error({ err: error }, 'unhandled error');
  else if (apiError.status >= 500) request.log.warn({ code: apiError.code, cause: (error as Error).message }, 'dependency unavailable');
  if (apiError.retryAfterSeconds !== undefined || apiError.status === 503) reply.header('retry-after', String(apiError.retryAfterSeconds ?? RETRY_AFTER_SECONDS));
  const detail = apiError instanceof ValidationError ? apiError.issues : apiError.detail;
  return reply.code(apiError.status).type('application/json').send({ detail });
}

const CLIENT_ERRORS: Record<string, ErrorCode> = { HPE_HEADER_OVERFLOW: 'headers_too_large', ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout' };

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers over 16 KiB, bytes
 * that are not HTTP, a request too slow to arrive). Fastify's default answer to those has no
 * `detail`; this one is catalogued like every other error, then the connection is closed.
 */
export function sendClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const code = CLIENT_ERRORS[error.code ?? ''] ?? 'malformed_request';
    const { status, detail } = errorCatalogue[code];
    const body = JSON.stringify({ detail });
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
