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
import { emptyResponse, errorResponses, jsonResponse } from './schemas.ts';

const ProductList = Type.Object(
  { products: Type.Array(Product, { maxItems: 100, description: 'A set: repeats collapse' }) },
  { additionalProperties: false, title: 'ProductList' },
);

const SET = emptyResponse('The set is stored; each product that changed is recorded in the activity log.');
const PRODUCTS_EXAMPLE = { products: ['merge_queue', 'ci_insights'] };

export const productRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; store: Store }> = async (app, { auth, store }) => {
  const tags = ['products'];
  const credentials = security('AdminApplicationKey', 'ServiceTokenBearerAuth', 'HostingTokenBearerAuth');

  app.put('/v1/products/:owner/:repository', {
    ...guard(auth, 'repo_admin'),
    schema: {
      operationId: 'manage_products_on_a_github_repository_products__owner___repository__put',
      tags,
      summary: 'Set the products of a repository',
      description: 'Replaces the set. Each product enabled or disabled by the change is recorded as a `product.enabled` or `product.disabled` event, with the caller as actor. Hosting-platform tokens need admin rights on the repository.',
      security: credentials,
      params: RepoParams,
      body: ProductList,
      response: { 204: SET, ...errorResponses },
    },
  }, async (request, reply) => {
    const { owner, repository } = request.params;
    await setProducts(store, owner, repository, request.body.products, productActorOf(request.principal));
    return reply.code(204).send(null);
  });

  app.get('/v1/products/:owner/:repository', {
    ...guard(auth, 'repo_read'),
    schema: {
      operationId: 'get_products',
      tags,
      summary: 'Get the products of a repository',
      security: credentials,
      params: RepoParams,
      response: { 200: jsonResponse('The products enabled on the repository.', ProductList, { example: PRODUCTS_EXAMPLE }), ...errorResponses },
    },
  }, async (request) => {
    const repository = await store.repositories.find(request.params.owner, request.params.repository);
    if (!repository) throw new ApiError('repository_not_found');
    return { products: productSet(repository.products) };
  });

  app.get('/v1/default_products/:owner', {
    ...guard(auth, 'owner_admin'),
    schema: {
      operationId: 'get_default_enabled_products_default_products__owner__get',
      tags,
      summary: "Get an owner's default products",
      description: 'The products a new repository of the owner starts with; an owner never set has none.',
      security: credentials,
      params: OwnerParams,
      response: { 200: jsonResponse("The owner's default products.", ProductList, { example: PRODUCTS_EXAMPLE }), ...errorResponses },
    },
  }, async (request) => ({ products: productSet(await store.defaultProducts.get(request.params.owner)) }));

  app.put('/v1/default_products/:owner', {
    ...guard(auth, 'owner_admin'),
    schema: {
      operationId: 'manage_default_enabled_products_default_products__owner__put',
      tags,
      summary: "Set an owner's default products",
      description: 'Repositories registered from now on start with these products; existing ones keep theirs.',
      security: credentials,
      params: OwnerParams,
      body: ProductList,
      response: { 204: emptyResponse('The defaults are stored.'), ...errorResponses },
    },
  }, async (request, reply) => {
    await store.defaultProducts.set(request.params.owner, productSet(request.body.products));
    return reply.code(204).send(null);
  });
};
