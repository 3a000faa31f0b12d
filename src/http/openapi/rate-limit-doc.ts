// The rate limit of the /v1 API (@fastify/rate-limit), declared once for the whole document:
// a rate-limited operation may answer 429, and every answer of it carries its budget in the
// RateLimit-* headers. A route opts out the way the plugin reads it: `config: { rateLimit: false }`.
import { Type } from '@sinclair/typebox';
import { ErrorBody, RetryAfter } from './error-bodies.ts';
import { header, jsonResponse, type ResponseHeaders } from './responses.ts';
import type { RegisteredRoute } from './route-registry.ts';

const Count = Type.Integer({ minimum: 0 });

export const RATE_LIMIT_HEADERS: ResponseHeaders = {
  'RateLimit-Limit': header('Requests this client may make in the current window', Count),
  'RateLimit-Remaining': header('Requests left to this client in the current window', Count),
  'RateLimit-Reset': header('Seconds until the current window ends', Count),
};

export const TooManyRequests = jsonResponse('This client made too many requests in the current window; retry after `Retry-After` seconds.', ErrorBody, {
  headers: { 'Retry-After': RetryAfter, ...RATE_LIMIT_HEADERS },
  example: { detail: 'Too many requests; retry after the seconds in Retry-After.' },
});

export function isRateLimited(route: RegisteredRoute): boolean {
  return route.url.startsWith('/v1/') && route.config.rateLimit !== false;
}
