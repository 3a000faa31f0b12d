// The rate limit of the /v1 API (@fastify/rate-limit), declared once for the whole document:
// a rate-limited operation may answer 429, and every answer of it carries its budget in the
// RateLimit-* headers. A route opts out the way the plugin reads it: `config: { rateLimit: false }`.
import { Type } from '@sinclair/typebox';
import { errorCatalogue } from '../../errors.ts';
import { ErrorBody, RetryAfter } from './error-bodies.ts';
import { header, jsonResponse, type ResponseHeaders } from './responses.ts';
import type { RegisteredRoute } from './route-registry.ts';

const Count = Type.Integer({ minimum: 0 });

export const RATE_LIMIT_HEADERS: ResponseHeaders = {
  'RateLimit-Limit': header('Requests allowed in the current window, of the budget nearest to running out (client address, credential, owner)', Count),
  'RateLimit-Remaining': header('Requests left in the current window of that budget', Count),
  'RateLimit-Reset': header('Seconds until the current window ends', Count),
};

export const TooManyRequests = jsonResponse('Too many requests in the current window from this client address, by this credential or on this owner; retry after `Retry-After` seconds.', ErrorBody, {
  headers: { 'Retry-After': RetryAfter, ...RATE_LIMIT_HEADERS },
  example: { detail: errorCatalogue.rate_limited.detail },
});

export function isRateLimited(route: RegisteredRoute): boolean {
  return route.url.startsWith('/v1/') && route.config.rateLimit !== false;
}
