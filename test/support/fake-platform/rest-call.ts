// A bare REST call to the fake platform (no Octokit), for tests of the fake itself: exact JSON
// both ways, so ids above 2^53 compare as bigint.
import { parseJson, stringifyJson } from '../../../src/json/exact-json.ts';

export interface RestReply {
  status: number;
  headers: Headers;
  json: any;
}

export async function restCall(baseUrl: string, token: string | undefined, method: string, path: string, body?: unknown): Promise<RestReply> {
  const headers: Record<string, string> = { accept: 'application/vnd.github+json' };
  if (token !== undefined) headers.authorization = `token ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(baseUrl + path, { method, headers, body: body === undefined ? undefined : stringifyJson(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? parseJson(text) : undefined };
}
