// Operational endpoints: liveness, readiness, metrics. No credential: they reveal nothing.
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { RETRY_AFTER_SECONDS } from '../../errors.ts';

export interface OperationsDeps {
  ping: () => Promise<void>;
  metrics: Registry;
}

export function operationsRoutes(app: FastifyInstance, deps: OperationsDeps): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await deps.ping();
      return { status: 'ok' };
    } catch (error) {
      request.log.warn({ cause: (error as Error).message }, 'storage not ready');
      return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ detail: 'Storage is unreachable; retry shortly.' });
    }
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const text = await deps.metrics.metrics();
    return reply.type(deps.metrics.contentType).send(text);
  });
}
