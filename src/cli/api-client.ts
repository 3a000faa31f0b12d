// The command line's one way to the HTTP API: bearer token, exact JSON both ways (64-bit
// numbers stay bigint), and every refusal turned into a CliError carrying the API's `detail`.
import { parseJson, stringifyJson, type JsonValue } from '../json/exact-json.ts';
import { CliError, EXIT_API_ERROR, EXIT_UNREACHABLE } from './cli-error.ts';

export type QueryValue = string | bigint | number | boolean | readonly (string | bigint)[] | undefined;

export interface ApiRequest {
  query?: Record<string, QueryValue>;
  body?: unknown;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The parsed body; undefined for an empty one (204). */
  body: JsonValue | undefined;
}

export class ApiClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly token: string | undefined,
  ) {
    // API clients are given the base URL with its version (`http://host:8080/v1`): take that too.
    this.baseUrl = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  }

  /** The absolute URL of an API path with its query (repeated parameters for arrays). */
  url(path: string, query: Record<string, QueryValue> = {}): string {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
    }
    return url.toString();
  }

  request(method: string, path: string, request: ApiRequest = {}): Promise<ApiResponse> {
    return this.fetch(method, this.url(path, request.query), request.body);
  }

  /** As request(), for an absolute URL the API handed out (a `Link` header's). */
  async fetch(method: string, url: string, body?: unknown): Promise<ApiResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body: body === undefined ? undefined : stringifyJson(body) });
    } catch (error) {
      throw new CliError(`cannot reach Switchyard at ${this.baseUrl}: ${networkReason(error)}`, EXIT_UNREACHABLE);
    }
    const text = await response.text();
    const parsed = parseBody(text);
    if (!response.ok) throw new CliError(describeFailure(response.status, parsed, text), EXIT_API_ERROR);
    return { status: response.status, headers: response.headers, body: parsed };
  }
}

function parseBody(text: string): JsonValue | undefined {
  if (text === '') return undefined;
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** The API's `detail`: its sentence, or each validation problem as `where: what`. */
export function describeFailure(status: number, body: JsonValue | undefined, text: string): string {
  const detail = body !== null && typeof body === 'object' && !Array.isArray(body) ? body.detail : undefined;
  if (typeof detail === 'string') return `${detail} (HTTP ${status})`;
  if (Array.isArray(detail)) {
    const lines = detail.map((item) => {
      const issue = item as { loc?: JsonValue[]; msg?: string };
      return `  ${(issue.loc ?? []).join('.')}: ${issue.msg ?? 'invalid'}`;
    });
    return `the request is invalid (HTTP ${status}):\n${lines.join('\n')}`;
  }
  return `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`;
}
