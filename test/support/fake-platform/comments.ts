// Comments on pull requests (GitHub's issue comments): written, edited and deleted, each with
// its `issue_comment` webhook, whose `issue.pull_request` marks it as a pull request's. Their
// author may edit and delete them, and so may anyone who can write to the repository.
import { ok, refuse, type Answer } from './platform-answer.ts';
import type { PlatformCore } from './platform-core.ts';
import { PERMISSION_ORDER, type Account, type Caller, type CommentRecord, type RepositoryRecord } from './platform-model.ts';

function missingBody(): Answer<never> {
  return refuse(422, 'Validation Failed', [{ resource: 'IssueComment', field: 'body', code: 'missing_field' }]);
}

function emit(core: PlatformCore, repo: RepositoryRecord, comment: CommentRecord, user: Account, action: string, extra: Record<string, unknown> = {}): void {
  const pr = repo.pulls.get(comment.issueNumber)!;
  core.emit('issue_comment', repo, user, { action, ...extra, issue: core.pullJsons.issue(repo, pr), comment: core.pullJsons.comment(repo, comment) });
}

export function addComment(core: PlatformCore, repo: RepositoryRecord, number: bigint, body: string, user: Account): Answer<CommentRecord> {
  if (!repo.pulls.has(number)) return refuse(404, 'Not Found');
  if (typeof body !== 'string' || body === '') return missingBody();
  const now = core.now();
  const comment: CommentRecord = { id: core.ids.next(), issueNumber: number, body, user, createdAt: now, updatedAt: now };
  repo.comments.push(comment);
  emit(core, repo, comment, user, 'created');
  return ok(comment);
}

/** The comment `caller` may change: 404 when there is none, 403 when it is someone else's and the caller cannot write. */
function changeable(core: PlatformCore, repo: RepositoryRecord, id: bigint, caller: Caller): Answer<CommentRecord> {
  const comment = repo.comments.find((c) => c.id === id);
  if (!comment) return refuse(404, 'Not Found');
  const permission = core.repos.permission(repo, caller);
  const mayWrite = PERMISSION_ORDER.indexOf(permission) >= PERMISSION_ORDER.indexOf('write');
  if (caller.kind === 'app' || (comment.user !== caller.account && !mayWrite)) return refuse(403, caller.kind === 'installation' ? 'Resource not accessible by integration' : 'Must have admin rights to Repository.');
  return ok(comment);
}

export function editComment(core: PlatformCore, repo: RepositoryRecord, id: bigint, body: unknown, caller: Caller): Answer<CommentRecord> {
  const found = changeable(core, repo, id, caller);
  if (!found.ok) return found;
  if (typeof body !== 'string' || body === '') return missingBody();
  const comment = found.value;
  if (comment.body === body) return ok(comment);
  const from = comment.body;
  Object.assign(comment, { body, updatedAt: core.now() });
  emit(core, repo, comment, (caller as Exclude<Caller, { kind: 'app' }>).account, 'edited', { changes: { body: { from } } });
  return ok(comment);
}

export function deleteComment(core: PlatformCore, repo: RepositoryRecord, id: bigint, caller: Caller): Answer<null> {
  const found = changeable(core, repo, id, caller);
  if (!found.ok) return found;
  repo.comments.splice(repo.comments.indexOf(found.value), 1);
  emit(core, repo, found.value, (caller as Exclude<Caller, { kind: 'app' }>).account, 'deleted');
  return ok(null);
}
