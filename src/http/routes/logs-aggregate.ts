// Activity log aggregation (spec §4.4, §2.6). Until issue #7 lands it authenticates, validates and answers 501.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { RepoParams } from '../../domain/identifiers.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { errorResponses } from './schemas.ts';

export const logAggregateRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps }> = async (app, { auth }) => {
  app.get('/v1/repos/:owner/:repository/logs/aggregate', {
    ...guard(auth, 'repo_read'),
    schema: {
      tags: ['activity log'],
      summary: 'Aggregate the activity log',
      security: security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth'),
      params: RepoParams,
      response: errorResponses,
    },
  }, async () => {
    throw new ApiError('not_implemented');
  });
};
