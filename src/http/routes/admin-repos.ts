// Admin API for repositories and pull request state (DESIGN.md §4), for platforms whose
// webhooks do not reach Switchyard.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { PullParams, RepoParams, Sha } from '../../domain/identifiers.ts';
import { StringEnum } from '../../domain/schema-primitives.ts';
import type { Store } from '../../storage/store.ts';
import { registerRepository } from '../../services/register-repository.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { productActorOf } from '../auth/product-actor.ts';
import { security } from '../openapi.ts';
import { emptyResponse, errorResponses, jsonResponse } from './schemas.ts';

const RepositoryBody = Type.Object(
  {
    owner: Type.String({ examples: ['acme'] }),
    repository: Type.String({ examples: ['widgets'] }),
    full_name: Type.String({ examples: ['acme/widgets'] }),
    products: Type.Array(Type.String(), { description: "The owner's default products, which the repository starts with" }),
  },
  { title: 'RegisteredRepository' },
);

export const adminRepoRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; store: Store }> = async (app, { auth, store }) => {
  const onlyService = guard(auth, 'service');
  const tags = ['admin'];

  app.put('/v1/admin/repos/:owner/:repository', {
    ...onlyService,
    schema: {
      operationId: 'register_repository',
      tags,
      summary: "Register a repository (it starts with its owner's default products)",
      security: security('ServiceTokenBearerAuth'),
      params: RepoParams,
      response: {
        201: jsonResponse('The repository is registered, with its products.', RepositoryBody),
        204: emptyResponse('The repository was registered already; nothing changed.'),
        ...errorResponses,
      },
    },
  }, async (request, reply) => {
    const { repository, created } = await registerRepository(store, request.params.owner, request.params.repository, productActorOf(request.principal));
    if (!created) return reply.code(204).send(null);
    return reply.code(201).send({
      owner: repository.owner,
      repository: repository.name,
      full_name: `${repository.owner}/${repository.name}`,
      products: repository.products,
    });
  });

  app.put('/v1/admin/repos/:owner/:repository/pulls/:number', {
    ...onlyService,
    schema: {
      operationId: 'record_pull_request_state',
      tags,
      summary: "Record a pull request's state",
      description: 'For hosting platforms whose webhooks do not reach Switchyard.',
      security: security('ServiceTokenBearerAuth'),
      params: PullParams,
      body: Type.Object(
        {
          state: StringEnum(['open', 'closed', 'merged'] as const),
          head_sha: Type.Optional(Sha),
          base_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
        },
        { additionalProperties: false, title: 'PullRequestState' },
      ),
      response: { 204: emptyResponse('The state is recorded.'), ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner, repository, number } = request.params;
    const repo = await store.repositories.identify(owner, repository);
    if (!repo) throw new ApiError('repository_not_found');
    const { state, head_sha, base_ref } = request.body;
    await store.pullRequests.upsert(store.db, repo.id, { number, state, headSha: head_sha?.toLowerCase() ?? null, baseRef: base_ref ?? null });
    return reply.code(204).send(null);
  });
};
