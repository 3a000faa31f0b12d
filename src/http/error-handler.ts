// The one renderer of errors (DESIGN.md §2): catalogued ApiErrors as they are, Fastify's own
// validation and body errors mapped onto the catalogue, storage outages as 503, anything else
// as a logged 500 that says nothing of its cause.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, RETRY_AFTER_SECONDS, ValidationError } from '../errors.ts';
import { JsonSyntaxError } from '../json/exact-json.ts';
import { toStorageError } from '../storage/storage-errors.ts';
import { toValidationIssues } from './validators.ts';

const LOCATIONS: Record<string, string> = { body: 'body', params: 'path', querystring: 'query', headers: 'header' };

const FASTIFY_CODES: Record<string, () => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError('payload_too_large'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new ApiError('unsupported_media_type'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ValidationError([{ loc: ['header', 'content-length'], msg: 'does not match the body', type: 'content_length' }]),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ValidationError([{ loc: ['body'], msg: 'Field required', type: 'missing' }]),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new ValidationError([{ loc: ['body'], msg: 'is not valid JSON', type: 'json_invalid' }]),
};

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof JsonSyntaxError) return new ValidationError([{ loc: ['body', error.position], msg: error.message, type: 'json_invalid' }]);
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
  if (apiError.status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  const detail = apiError instanceof ValidationError ? apiError.issues : apiError.detail;
  return reply.code(apiError.status).type('application/json').send({ detail });
}
