// A webhook endpoint on loopback that keeps what it receives (headers and raw body), for tests
// of the fake platform's deliveries.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson } from '../../../src/json/exact-json.ts';

export interface ReceivedHook {
  event: string;
  delivery: string;
  signature: string;
  body: Buffer;
  payload: any;
}

export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        this.received.push({
          event: String(req.headers['x-github-event']),
          delivery: String(req.headers['x-github-delivery']),
          signature: String(req.headers['x-hub-signature-256']),
          body,
          payload: parseJson(body.toString('utf8')),
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  of(event: string, action?: string): ReceivedHook[] {
    return this.received.filter((hook) => hook.event === event && (action === undefined || hook.payload.action === action));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
