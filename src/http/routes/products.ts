// Products of a repository and default products of an owner (spec §4.3, DESIGN.md §6).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { OwnerParams, RepoParams } from '../../domain/identifiers.ts';
import { Product } from '../../domain/events/shapes/product.ts';
import { productSet } from '../../domain/product-changes.ts';
import { setProducts } from '../../services/set-products.ts';
import type { Store } from '../../storage/store.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { productActorOf } from '../auth/product-actor.ts';
import { security } from '../openapi.ts';
import { errorResponses, NoContent } from './schemas.ts';

const ProductList = Type.Object(
  { products: Type.Array(Product, { maxItems: 100, description: 'A set: repeats collapse' }) },
  { additionalProperties: false, title: 'ProductList' },
);

export const productRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; store: Store }> = async (app, { auth, store }) => {
  const tags = ['products'];
  const credentials = security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth');

  app.put('/v1/products/:owner/:repository', {
    ...guard(auth, 'repo_admin'),
    schema: { tags, summary: 'Set the products of a repository', security: credentials, params: RepoParams, body: ProductList, response: { 204: NoContent, ...errorResponses } },
  }, async (request, reply) => {
    const { owner, repository } = request.params;
    await setProducts(store, owner, repository, request.body.products, productActorOf(request.principal));
    return reply.code(204).send(null);
  });

  app.get('/v1/products/:owner/:repository', {
    ...guard(auth, 'repo_read'),
    schema: { tags, summary: 'Get the products of a repository', security: credentials, params: RepoParams, response: { 200: ProductList, ...errorResponses } },
  }, async (request) => {
    const repository = await store.repositories.find(request.params.owner, request.params.repository);
    if (!repository) throw new ApiError('repository_not_found');
    return { products: productSet(repository.products) };
  });

  app.get('/v1/default_products/:owner', {
    ...guard(auth, 'owner_admin'),
    schema: { tags, summary: "Get an owner's default products", security: credentials, params: OwnerParams, response: { 200: ProductList, ...errorResponses } },
  }, async (request) => ({ products: productSet(await store.defaultProducts.get(request.params.owner)) }));

  app.put('/v1/default_products/:owner', {
    ...guard(auth, 'owner_admin'),
    schema: { tags, summary: "Set an owner's default products", security: credentials, params: OwnerParams, body: ProductList, response: { 204: NoContent, ...errorResponses } },
  }, async (request, reply) => {
    await store.defaultProducts.set(request.params.owner, productSet(request.body.products));
    return reply.code(204).send(null);
  });
};
