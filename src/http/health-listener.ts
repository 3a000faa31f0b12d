// /healthz and /readyz on a port of their own (SWITCHYARD_HEALTH_PORT), for an orchestrator's
// probes. Node takes one new connection per listening socket per turn of the event loop, so under a
// flood of new connections on the API's port a probe waits its turn in that port's accept queue
// behind the flood (bench/RESULTS.md, hostile floods); a second socket has a queue of its own, and
// a probe on it is accepted within a turn or two. Nothing else is served here: no body is read, no
// credential asked, and its connections are few and short-lived.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RETRY_AFTER_SECONDS } from '../errors.ts';

/** Probes are a handful at a time; more connections than this are closed at once. */
const MAX_CONNECTIONS = 64;
/** A probe sends its few header lines at once. */
const HEADERS_TIMEOUT_MS = 5_000;

export interface HealthListener {
  readonly port: number;
  close(): Promise<void>;
}

export interface HealthChecks {
  /** Resolves when storage answers (Store.ready), as /readyz on the API's port. */
  ready(): Promise<void>;
  warn(fields: object, message: string): void;
}

function answer(response: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', connection: 'close', ...headers });
  response.end(text);
}

export async function startHealthListener(host: string, port: number, checks: HealthChecks): Promise<HealthListener> {
  const server = http.createServer({ requestTimeout: HEADERS_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS, keepAliveTimeout: 1_000 }, (request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(response, 405, { detail: 'Only GET and HEAD are served on the health port.' }, { allow: 'GET, HEAD' });
    if (path === '/healthz') return answer(response, 200, { status: 'ok' });
    if (path !== '/readyz') return answer(response, 404, { detail: `No endpoint ${request.method} ${path} on the health port; it serves /healthz and /readyz.` });
    checks.ready().then(
      () => answer(response, 200, { status: 'ok' }),
      (error: unknown) => {
        checks.warn({ cause: error instanceof Error ? error.message : String(error) }, 'storage not ready');
        answer(response, 503, { detail: 'Storage is unreachable; retry shortly.' }, { 'retry-after': String(RETRY_AFTER_SECONDS) });
      },
    );
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
