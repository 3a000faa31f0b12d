// Signed hosting-platform webhooks for tests, and GitHub-shaped payloads to send with them.
import { randomUUID } from 'node:crypto';
import { stringifyJson } from '../../src/json/exact-json.ts';
import { signBody } from '../../src/domain/webhooks/signature.ts';
import { WEBHOOK_SECRET, type TestApp, type TestResponse } from './test-app.ts';

export interface HookOptions {
  delivery?: string;
  secret?: string;
  headers?: Record<string, string>;
}

/** Sends `payload` as event `event`, signed with the test secret; each call is a new delivery unless given one. */
export function sendHook(t: TestApp, event: string, payload: unknown, options: HookOptions = {}): Promise<TestResponse> {
  const body = stringifyJson(payload);
  return t.request('POST', '/v1/hooks/hosting', {
    token: null,
    rawBody: body,
    headers: {
      'x-github-event': event,
      'x-github-delivery': options.delivery ?? randomUUID(),
      'x-hub-signature-256': signBody(options.secret ?? WEBHOOK_SECRET, body),
      ...options.headers,
    },
  });
}

export interface PullPayload {
  owner: string;
  repository: string;
  number: number | bigint;
  head: string;
  action?: string;
  state?: 'open' | 'closed';
  merged?: boolean;
  base?: string;
  /** pull_request.updated_at; left out unless given. */
  updatedAt?: string;
}

export function pullRequestPayload(p: PullPayload): Record<string, unknown> {
  const state = p.state ?? (p.action === 'closed' ? 'closed' : 'open');
  return {
    action: p.action ?? 'synchronize',
    number: p.number,
    pull_request: { number: p.number, state, merged: p.merged ?? false, head: { sha: p.head, ref: 'feature' }, base: { ref: p.base ?? 'main' }, title: 'A change', ...(p.updatedAt === undefined ? {} : { updated_at: p.updatedAt }) },
    repository: { name: p.repository, full_name: `${p.owner}/${p.repository}`, owner: { login: p.owner } },
    sender: { login: 'octocat' },
  };
}

/** Moves a pull request's head (or opens, closes it) through a signed pull_request webhook. */
export function sendPullRequest(t: TestApp, p: PullPayload, options: HookOptions = {}): Promise<TestResponse> {
  return sendHook(t, 'pull_request', pullRequestPayload(p), options);
}
