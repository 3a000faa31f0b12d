// Activity log (spec §4.4). Until issues #6 and #7 land they authenticate, validate and answer 501.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { RepoParams } from '../../domain/identifiers.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { errorResponses } from './schemas.ts';

export const logRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps }> = async (app, { auth }) => {
  const read = guard(auth, 'repo_read');
  const common = { tags: ['activity log'], security: security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth'), params: RepoParams, response: errorResponses };
  const notImplemented = async () => {
    throw new ApiError('not_implemented');
  };
  app.get('/v1/repos/:owner/:repository/logs', { ...read, schema: { ...common, summary: 'List the activity log' } }, notImplemented);
  app.get('/v1/repos/:owner/:repository/logs/aggregate', { ...read, schema: { ...common, summary: 'Aggregate the activity log' } }, notImplemented);
};
