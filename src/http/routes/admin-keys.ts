// Admin API for application keys (DESIGN.md §4): the secret is returned once, at creation.
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { Owner } from '../../domain/identifiers.ts';
import { StringEnum } from '../../domain/schema-primitives.ts';
import { generateKeySecret, hashKeySecret } from '../../domain/application-key.ts';
import type { ApplicationKey, ApplicationKeyQueries } from '../../storage/queries/application-keys.ts';
import type { CredentialDeps } from '../auth/principal.ts';
import { guard } from '../auth/guard.ts';
import { security } from '../openapi.ts';
import { emptyResponse, errorResponses, jsonResponse } from './schemas.ts';

const KeyScope = StringEnum(['admin', 'ci'] as const, { title: 'KeyScope', description: '`admin`: products, default products, activity log; `ci`: scope reports' });
const KeyFields = {
  id: Type.String({ format: 'uuid' }),
  owner: Type.String({ examples: ['acme'] }),
  scope: KeyScope,
  name: Type.String({ examples: ['scopes from CI'] }),
  created_at: Type.String({ format: 'date-time' }),
};
const KeyListItem = Type.Object({ ...KeyFields, revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]) }, { title: 'ApplicationKey' });
const CreatedKey = Type.Object(
  { ...KeyFields, key: Type.String({ description: 'The secret; store it now, it is never shown again', examples: ['swy_9c1b4bbf2cb1bdbb3b8c0c49f1ef0b0e0d3b5e6f7a8'] }) },
  { title: 'CreatedApplicationKey' },
);

function describe(key: ApplicationKey) {
  return { id: key.id, owner: key.owner, scope: key.scope, name: key.name, created_at: key.createdAt.toISOString() };
}

export const adminKeyRoutes: FastifyPluginAsyncTypebox<{ auth: CredentialDeps; keys: ApplicationKeyQueries }> = async (app, { auth, keys }) => {
  const onlyService = guard(auth, 'service');
  const tags = ['admin'];

  app.post('/v1/admin/keys', {
    ...onlyService,
    schema: {
      operationId: 'create_application_key',
      tags,
      summary: 'Create an application key (its secret is shown once)',
      security: security('ServiceTokenBearerAuth'),
      body: Type.Object(
        { owner: Owner, scope: KeyScope, name: Type.String({ minLength: 1, maxLength: 100 }) },
        { additionalProperties: false, title: 'NewApplicationKey' },
      ),
      response: { 201: jsonResponse('The key, with its secret: the only time the secret is shown.', CreatedKey), ...errorResponses },
    },
  }, async (request, reply) => {
    const secret = generateKeySecret();
    const key = await keys.create({ id: randomUUID(), ...request.body, secretHash: hashKeySecret(secret) });
    return reply.code(201).send({ ...describe(key), key: secret });
  });

  app.get('/v1/admin/keys', {
    ...onlyService,
    schema: {
      operationId: 'list_application_keys',
      tags,
      summary: 'List application keys, without their secrets',
      security: security('ServiceTokenBearerAuth'),
      querystring: Type.Object({ owner: Type.Optional(Owner) }, { additionalProperties: false }),
      response: { 200: jsonResponse('Every key, revoked ones included, of the owner when one is given.', Type.Object({ keys: Type.Array(KeyListItem) }, { title: 'ApplicationKeyList' })), ...errorResponses },
    },
  }, async (request) => {
    const list = await keys.list(request.query.owner);
    return { keys: list.map((key) => ({ ...describe(key), revoked_at: key.revokedAt?.toISOString() ?? null })) };
  });

  app.delete('/v1/admin/keys/:id', {
    ...onlyService,
    schema: {
      operationId: 'revoke_application_key',
      tags,
      summary: 'Revoke an application key',
      security: security('ServiceTokenBearerAuth'),
      params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
      response: { 204: emptyResponse('The key is revoked: it is refused from the next request on.'), ...errorResponses },
    },
  }, async (request, reply) => {
    if (!(await keys.revoke(request.params.id))) throw new ApiError('key_not_found');
    return reply.code(204).send(null);
  });
};
