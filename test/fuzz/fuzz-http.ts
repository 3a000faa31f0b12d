// A request as the fuzzer builds and mutates it, rendered to bytes on the wire and sent over a
// keep-alive connection to 127.0.0.1 (node:http, not fetch: no URL normalisation of ".." path
// segments, bodies on any method, bytes that are not UTF-8). Responses are read with the
// service's exact JSON parser, so 64-bit integers arrive as bigint.
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { stringifyJson, parseJson } from '../../src/json/exact-json.ts';
import { signBody } from '../../src/domain/webhooks/signature.ts';
import type { Operation } from './openapi-operations.ts';

export interface RequestSpec {
  op: Operation;
  /** Path parameter values, unencoded; `rawPath` values are put in the path as they are. */
  path: Record<string, string>;
  rawPath: Record<string, string>;
  /** Query pairs, unencoded; `rawQuery` is appended as it is. */
  query: [string, string][];
  rawQuery?: string;
  headers: Record<string, string>;
  /** The bearer token; null sends no Authorization header; `authorization` overrides it raw. */
  credential: string | null;
  authorization?: string;
  /** The JSON body; `bodyText` replaces its serialisation. */
  body?: unknown;
  bodyText?: string | Buffer;
  contentType?: string;
  /** Operations taking a webhook signature header are signed with this secret over the final body. */
  signWith?: string;
  /** What a mutation did, for failure messages. */
  mutations: string[];
}

export interface Wire {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body, `undefined` when empty, `NOT_JSON` when it does not parse. */
  json: unknown;
}

export const NOT_JSON = Symbol('not JSON');
export const SIGNATURE_HEADER = 'x-hub-signature-256';

export function render(spec: RequestSpec): Wire {
  let path = spec.op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => spec.rawPath[name] ?? encodeURIComponent(spec.path[name] ?? ''));
  const query = spec.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  if (spec.rawQuery !== undefined) query.push(spec.rawQuery);
  if (query.length > 0) path += `?${query.join('&')}`;
  const headers: Record<string, string> = { ...spec.headers };
  if (spec.authorization !== undefined) headers.authorization = spec.authorization;
  else if (spec.credential !== null) headers.authorization = `Bearer ${spec.credential}`;
  let body: Buffer | undefined;
  if (spec.bodyText !== undefined) body = Buffer.from(spec.bodyText);
  else if (spec.body !== undefined) body = Buffer.from(stringifyJson(spec.body));
  if (body !== undefined) headers['content-type'] = spec.contentType ?? 'application/json';
  else if (spec.contentType !== undefined) headers['content-type'] = spec.contentType;
  if (spec.signWith !== undefined && !(SIGNATURE_HEADER in spec.headers)) headers[SIGNATURE_HEADER] = signBody(spec.signWith, body ?? Buffer.alloc(0));
  return { method: spec.op.method, path, headers, body };
}

/** Gives a spec the one-line description fast-check prints for a counterexample. */
export function labelled(spec: RequestSpec): RequestSpec {
  Object.defineProperty(spec, fc.toStringMethod, { value: () => [...spec.mutations, describeWire(render(spec))].join(' | '), enumerable: false });
  return spec;
}

export function describeWire(wire: Wire): string {
  const body = wire.body === undefined ? '' : ` body(${wire.body.length} B)=${wire.body.subarray(0, 600).toString('utf8')}`;
  const headers = Object.entries(wire.headers).map(([k, v]) => `${k}: ${v.length > 120 ? `${v.slice(0, 120)}…(${v.length})` : v}`);
  return `${wire.method} ${wire.path.length > 300 ? `${wire.path.slice(0, 300)}…` : wire.path} [${headers.join('; ')}]${body}`;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

export function send(baseUrl: string, wire: Wire, timeoutMs = 15_000): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  if (hostname !== '127.0.0.1') throw new Error('the fuzzer only targets 127.0.0.1');
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method: wire.method, path: wire.path, headers: { ...wire.headers, 'content-length': String(wire.body?.length ?? 0) }, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text === '' ? undefined : parseJson(text);
        } catch {
          json = NOT_JSON;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(wire.body);
  });
}
