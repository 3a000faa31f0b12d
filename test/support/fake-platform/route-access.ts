// Who may touch a repository through the REST API, answered as GitHub does: 401 without a
// credential, 404 for a repository the caller cannot see, 403 when it can see but not do.
import { message, notFound, type RouteContext, type RouteResult } from './http-router.ts';
import type { Answer } from './platform-answer.ts';
import { PERMISSION_ORDER, type Permission, type PullRecord, type RepositoryRecord } from './platform-model.ts';

export function requireRepo(context: RouteContext, level: Permission): RepositoryRecord | RouteResult {
  if (!context.caller) return message(401, 'Requires authentication');
  const [owner, name] = context.params as [string, string];
  const repo = context.core.repos.find(owner, name);
  if (!repo) return notFound();
  const permission = context.core.repos.permission(repo, context.caller);
  if (permission === 'none') return notFound();
  if (PERMISSION_ORDER.indexOf(permission) < PERMISSION_ORDER.indexOf(level)) {
    return message(403, context.caller.kind === 'installation' ? 'Resource not accessible by integration' : `Must have ${level === 'admin' ? 'admin' : 'push'} access to repository`);
  }
  return repo;
}

/** The repository and its pull request (or issue: every issue here is a pull request) numbered by the third parameter. */
export function requirePull(context: RouteContext, level: Permission): { repo: RepositoryRecord; pr: PullRecord } | RouteResult {
  const repo = requireRepo(context, level);
  if (isResult(repo)) return repo;
  const number = parseNumber(context.params[2]!);
  const pr = number === undefined ? undefined : repo.pulls.get(number);
  return pr ? { repo, pr } : notFound();
}

export function isResult(value: unknown): value is RouteResult {
  return typeof value === 'object' && value !== null && 'status' in value;
}

/** The account a mutation is made as: the user, or the app's bot for an installation. */
export function actorOf(context: RouteContext) {
  const caller = context.caller!;
  if (caller.kind === 'app') throw new Error('an app acts through an installation');
  return caller.account;
}

export async function answerWith<T>(answer: Answer<T> | Promise<Answer<T>>, status: number, render: (value: T) => unknown | Promise<unknown>): Promise<RouteResult> {
  const settled = await answer;
  if (!settled.ok) return message(settled.status, settled.message, settled.errors);
  return { status, body: await render(settled.value) };
}

export function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

export function invalidField(resource: string, field: string): RouteResult {
  return message(422, 'Validation Failed', [{ resource, field, code: 'missing_field' }]);
}

export function parseNumber(text: string): bigint | undefined {
  return /^[0-9]{1,19}$/.test(text) ? BigInt(text) : undefined;
}
