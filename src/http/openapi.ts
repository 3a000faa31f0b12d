// The OpenAPI 3.1 document, generated from the route schemas, and the HTML reference at /docs.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

export const securitySchemes = {
  ServiceTokenBearerAuth: { type: 'http', scheme: 'bearer', description: 'The service token (SWITCHYARD_SERVICE_TOKEN): every right on every owner.' },
  AdminApplicationKey: { type: 'http', scheme: 'bearer', description: 'An application key (swy_…) created with the `admin` scope, bound to one owner.' },
  CIApplicationKey: { type: 'http', scheme: 'bearer', description: 'An application key (swy_…) created with the `ci` scope, bound to one owner.' },
  HostingTokenBearerAuth: { type: 'http', scheme: 'bearer', description: "A hosting-platform user token; rights come from the platform's repository permissions." },
} as const;

export type SecuritySchemeName = keyof typeof securitySchemes;

export function security(...names: SecuritySchemeName[]): Record<string, string[]>[] {
  return names.map((name) => ({ [name]: [] }));
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Switchyard API',
        version: 'v1',
        description: 'Merge-queue scope reports, products per repository and owner, and the activity log.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: securitySchemes as never },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async (_request, reply) => reply.type('application/json').send(JSON.stringify(app.swagger())));
}
