// Prometheus metrics: request counts and latency histograms per route template and status.
// One registry per app, so two apps in one process (tests) never share counters.
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ConnectionGate } from './limits/connection-gate.ts';

export function registerMetrics(app: FastifyInstance, connections: ConnectionGate): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'switchyard_' });
  new Gauge({ name: 'switchyard_connections_open', help: 'Client connections open now', registers: [registry], collect() { this.set(connections.openConnections); } });
  new Counter({
    name: 'switchyard_connections_refused_total',
    help: 'Connections refused at once: too many open in all (total) or from one address (address)',
    labelNames: ['limit'] as const,
    registers: [registry],
    // The gate keeps the counts; the counter shows them as they are when scraped.
    collect() {
      this.reset();
      for (const [limit, count] of Object.entries(connections.refused)) this.inc({ limit }, count);
    },
  });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'switchyard_http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'switchyard_http_request_duration_seconds',
    help: 'Time from request received to response sent',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // Unmatched URLs share one label so a scan of random paths cannot grow the series without bound.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });
  return registry;
}
