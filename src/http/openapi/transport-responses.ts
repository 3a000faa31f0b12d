// Answers and headers an operation gives because of how it is reached rather than what it does:
// a body too large or not JSON, the rate limit, the deprecation notice. Added to every operation
// they apply to, so no route can forget them; a route that declares one of these statuses itself
// keeps its own.
import { Type } from '@sinclair/typebox';
import { errorResponse } from './error-bodies.ts';
import { isRateLimited, RATE_LIMIT_HEADERS, TooManyRequests } from './rate-limit-doc.ts';
import { header, type ResponseHeaders } from './responses.ts';
import type { RegisteredRoute } from './route-registry.ts';

const MIB = 1024 * 1024;

/** Sent on every answer of an operation marked `deprecated` (the fuzzer checks it is). */
export const DEPRECATION_HEADER = header('`true`: this operation is deprecated; its description says what replaces it.', Type.Literal('true'));

function size(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

export function transportResponses(route: RegisteredRoute, serverBodyLimit: number): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  if (route.schema?.body !== undefined) {
    responses[413] = errorResponse(`The body is larger than ${size(route.bodyLimit ?? serverBodyLimit)}.`, 'payload_too_large');
    responses[415] = errorResponse('The body is not sent as JSON (`Content-Type: application/json`).', 'unsupported_media_type');
  }
  if (isRateLimited(route)) responses[429] = TooManyRequests;
  return responses;
}

/** Headers every answer of the operation carries. */
export function transportHeaders(route: RegisteredRoute): ResponseHeaders {
  return {
    ...(isRateLimited(route) && RATE_LIMIT_HEADERS),
    ...(route.schema?.deprecated === true && { Deprecation: DEPRECATION_HEADER }),
  };
}
