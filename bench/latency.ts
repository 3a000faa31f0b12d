// Latency sampling for benchmarks: percentiles, and keep-alive HTTP requests that read the whole
// answer, so a sample is what a client waits for. node:http, not fetch: fetch costs the load
// generator about a millisecond of CPU per request on the benchmark machine, which it takes from
// the server it measures.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Milliseconds `run` takes. */
export async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export interface HttpAnswer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * A GET, sent again once if the kept-alive connection it went out on was reset: the server
 * closes a connection idle for 5 s, and a request leaving just then meets the reset (a 93-day
 * benchmark lost its run to it, between two cases 10 s apart).
 */
export async function httpGet(url: string, headers: Record<string, string>): Promise<HttpAnswer> {
  try {
    return await httpRequest(url, { method: 'GET', headers });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
    return httpRequest(url, { method: 'GET', headers });
  }
}

export interface HttpRequestOptions {
  method: string;
  headers: Record<string, string>;
  /** Encoded once by the caller, so the generator does not encode the same text on every request. */
  body?: Buffer;
  /** Keep-alive agent; the default allows one connection. */
  agent?: http.Agent;
}

export function httpRequest(url: string, options: HttpRequestOptions): Promise<HttpAnswer> {
  const headers = options.body === undefined ? options.headers : { ...options.headers, 'content-length': String(options.body.length) };
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method, agent: options.agent ?? agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: response.headers }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

export function closeHttpAgent(): void {
  agent.destroy();
}
