// Requests per minute (issue 20, item 4), with @fastify/rate-limit's counters: per client
// address first, before the credential is even looked at (so guessing keys is limited too);
// then, once it is identified, per credential (an application key, a hosting-platform user) and
// per owner named in the path, whatever the credential, so that neither one key nor one owner's
// many keys can take the service from the others. The service token, the operator's own, is
// held to the address limit only. Every /v1 route is limited unless its config says
// `rateLimit: false` (as the API document, src/http/openapi/rate-limit-doc.ts, declares).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { Principal } from '../auth/principal.ts';

export interface RateLimits {
  /** requests per minute from one client address, whatever they carry */
  perAddress: number;
  /** requests per minute of one credential */
  perCredential: number;
  /** requests per minute on the resources of one owner */
  perOwner: number;
}

type Outcome = { max: number; remaining: number; ttlInSeconds: number; isExceeded: boolean; isAllowed: boolean };
type Limiter = (request: FastifyRequest) => Promise<Outcome>;

declare module 'fastify' {
  interface FastifyInstance {
    createRateLimit(options: object): Limiter;
  }
}

/** The credential's own budget; none for the service token (or before identification). */
function credentialKey(principal: Principal | null): string | undefined {
  if (principal?.kind === 'admin_key' || principal?.kind === 'ci_key') return `key:${principal.key.id}`;
  if (principal?.kind === 'hosting') return `user:${principal.user.id}`;
  return undefined;
}

function ownerOf(request: FastifyRequest): string | undefined {
  const owner = (request.params as { owner?: unknown } | undefined)?.owner;
  return typeof owner === 'string' ? owner.toLowerCase() : undefined;
}

function setBudgetHeaders(reply: FastifyReply, outcome: Outcome): void {
  reply.header('ratelimit-limit', outcome.max);
  reply.header('ratelimit-remaining', outcome.remaining);
  reply.header('ratelimit-reset', outcome.ttlInSeconds);
}

export async function registerRateLimits(app: FastifyInstance, limits: RateLimits): Promise<void> {
  // Counters only: the hook below decides, after the credential is identified (guard.ts).
  await app.register(rateLimit, { global: false, timeWindow: 60_000, cache: 50_000 });
  const byAddress = app.createRateLimit({ max: limits.perAddress });
  const byCredential = app.createRateLimit({ max: limits.perCredential, keyGenerator: (request: FastifyRequest) => credentialKey(request.principal) });
  const byOwner = app.createRateLimit({ max: limits.perOwner, keyGenerator: (request: FastifyRequest) => `owner:${ownerOf(request)}` });
  const outcomes = new WeakMap<FastifyRequest, Outcome[]>();

  const check = (request: FastifyRequest, reply: FastifyReply, found: Outcome[]) => {
    outcomes.set(request, found);
    // The headers tell of the budget nearest to running out.
    setBudgetHeaders(reply, found.reduce((a, b) => (b.isExceeded && !a.isExceeded) || b.remaining < a.remaining ? b : a));
    const exceeded = found.find((outcome) => outcome.isExceeded);
    if (exceeded) throw new ApiError('rate_limited', undefined, Math.max(1, exceeded.ttlInSeconds));
  };
  const byClient = async (request: FastifyRequest, reply: FastifyReply) => check(request, reply, [await byAddress(request)]);
  const byIdentity = async (request: FastifyRequest, reply: FastifyReply) => {
    const found = [...(outcomes.get(request) ?? [])];
    if (credentialKey(request.principal) === undefined) return;
    found.push(await byCredential(request));
    if (ownerOf(request) !== undefined) found.push(await byOwner(request));
    check(request, reply, found);
  };

  // The address first of each route's onRequest hooks, the credential and owner last: after
  // guard() has identified the credential.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/v1/') || (route.config as { rateLimit?: unknown } | undefined)?.rateLimit === false) return;
    const hooks = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [byClient, ...hooks, byIdentity];
  });
}
