// Scope reports (spec §4.2). Until issue #4 lands they authenticate, validate and answer 501.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { CommitParams, PullParams } from '../../domain/identifiers.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { errorResponses, NoContent } from './schemas.ts';

export const scopeRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps }> = async (app, { auth }) => {
  const ci = guard(auth, 'ci');
  const common = { tags: ['scopes'], security: security('CIApplicationKey', 'ServiceTokenBearerAuth'), response: { 204: NoContent, ...errorResponses } };
  const notImplemented = async () => {
    throw new ApiError('not_implemented');
  };
  app.put('/v1/repos/:owner/:repository/commits/:sha/scopes', { ...ci, schema: { ...common, summary: 'Report the scopes of a commit', params: CommitParams } }, notImplemented);
  app.put('/v1/repos/:owner/:repository/pulls/:number/scopes', { ...ci, schema: { ...common, summary: 'Report the scopes of a pull request', params: PullParams } }, notImplemented);
  app.post('/v1/repos/:owner/:repository/pulls/:number/scopes', {
    ...ci,
    schema: { ...common, summary: 'Report the scopes of a pull request (deprecated)', deprecated: true, params: PullParams },
  }, notImplemented);
};
