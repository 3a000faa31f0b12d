// Latency sampling for benchmarks: percentiles, and a keep-alive HTTP GET that reads the whole
// answer, so a sample is what a client waits for.
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

export function httpGet(url: string, headers: Record<string, string>): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: response.headers }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

export function closeHttpAgent(): void {
  agent.destroy();
}
