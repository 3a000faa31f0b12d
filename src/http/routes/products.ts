// Products (spec §4.3). Until issue #5 lands they authenticate, validate and answer 501.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { OwnerParams, RepoParams } from '../../domain/identifiers.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { errorResponses } from './schemas.ts';

export const productRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps }> = async (app, { auth }) => {
  const repoAdmin = guard(auth, 'repo_admin');
  const ownerAdmin = guard(auth, 'owner_admin');
  const common = { tags: ['products'], security: security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth'), response: errorResponses };
  const notImplemented = async () => {
    throw new ApiError('not_implemented');
  };
  app.put('/v1/products/:owner/:repository', { ...repoAdmin, schema: { ...common, summary: 'Set the products of a repository', params: RepoParams } }, notImplemented);
  app.get('/v1/default_products/:owner', { ...ownerAdmin, schema: { ...common, summary: "Get an owner's default products", params: OwnerParams } }, notImplemented);
  app.put('/v1/default_products/:owner', { ...ownerAdmin, schema: { ...common, summary: "Set an owner's default products", params: OwnerParams } }, notImplemented);
};
