// The fake platform's REST API on loopback: authentication (personal and installation tokens,
// app JWTs), injected faults, routing, exact JSON (bigint ids stay exact both ways), and a log
// of every request for tests to assert on.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson, stringifyJson } from '../../../src/json/exact-json.ts';
import { faultResponse, type Faults } from './faults.ts';
import { message, type RouteResult, type Router } from './http-router.ts';
import type { PlatformCore } from './platform-core.ts';
import type { Caller } from './platform-model.ts';

export interface LoggedRequest {
  seq: number;
  method: string;
  /** path and query, as sent */
  url: string;
  status: number;
  /** login of the caller (a user, an app's bot, or `app:<slug>` for a JWT) */
  caller: string | null;
  body: Record<string, unknown> | undefined;
  /** when it arrived (Date.now(), the machine's clock) */
  receivedAt: number;
}

export interface RawRequest {
  method: string;
  path: string;
  token: string | undefined;
}

const BODY_LIMIT = 25 * 1024 * 1024;

export class PlatformServer {
  readonly log: LoggedRequest[] = [];
  private server: Server | undefined;
  url = '';

  constructor(
    private readonly core: PlatformCore,
    private readonly router: Router,
    private readonly faults: Faults,
    /** answers some requests before routing (the legacy token fake uses it) */
    private readonly intercept: (request: RawRequest) => RouteResult | undefined,
  ) {}

  async listen(port: number): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const entry: LoggedRequest = { seq: this.log.length + 1, method, url, status: 0, caller: null, body: undefined, receivedAt: Date.now() };
    this.log.push(entry);
    try {
      const result = await this.answer(req, entry);
      if (result === 'drop') {
        entry.status = -1;
        req.socket.destroy();
        return;
      }
      entry.status = result.status;
      this.send(res, result);
    } catch (error) {
      entry.status = 500;
      this.send(res, message(500, `fake platform failure: ${(error as Error).message}`));
    }
  }

  private async answer(req: IncomingMessage, entry: LoggedRequest): Promise<RouteResult | 'drop'> {
    const method = entry.method;
    const [path = '/', search = ''] = entry.url.split('?', 2);
    const text = await readBody(req);
    const fault = this.faults.take(method, path);
    if (fault && 'dropConnection' in fault) return 'drop';
    if (fault && 'delayMs' in fault) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const faulty = fault && faultResponse(fault, this.core.now());
    if (faulty) return faulty;
    let body: Record<string, unknown> = {};
    if (text !== '') {
      try {
        body = parseJson(text) as Record<string, unknown>;
        entry.body = body;
      } catch {
        return message(400, 'Problems parsing JSON');
      }
    }
    const token = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const intercepted = this.intercept({ method, path, token });
    if (intercepted) return intercepted;
    const caller = this.authenticate(token);
    if (typeof caller === 'string') return message(401, caller);
    entry.caller = callerName(caller);
    const route = this.router.match(method, path);
    if (!route) return message(404, 'Not Found');
    return route.handler({ core: this.core, caller, params: route.params, query: new URLSearchParams(search), body: typeof body === 'object' && body !== null ? body : {} });
  }

  /** The caller a token stands for; a string is the 401 message. */
  private authenticate(token: string | undefined): Caller | undefined | string {
    if (token === undefined) return undefined;
    if (token.split('.').length === 3) {
      const app = this.core.apps.verifyJwt(token);
      return typeof app === 'string' ? app : { kind: 'app', app };
    }
    return this.core.accounts.resolveToken(token) ?? 'Bad credentials';
  }

  private send(res: ServerResponse, result: RouteResult): void {
    const reset = String(Math.floor(this.core.now().getTime() / 1000) + 3600);
    const headers: Record<string, string> = {
      date: this.core.now().toUTCString(),
      'x-github-request-id': randomUUID(),
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-reset': reset,
      'x-ratelimit-resource': 'core',
      ...result.headers,
    };
    if (result.body === undefined) {
      res.writeHead(result.status, headers).end();
      return;
    }
    const text = stringifyJson(result.body);
    res.writeHead(result.status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) }).end(text);
  }
}

function callerName(caller: Caller | undefined): string | null {
  if (!caller) return null;
  return caller.kind === 'app' ? `app:${caller.app.slug}` : caller.account.login;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
