// Comments on pull requests (GitHub's issue comments), with the `issue_comment` webhook whose
// `issue.pull_request` marks it as a pull request's.
import { ok, refuse, type Answer } from './platform-answer.ts';
import type { PlatformCore } from './platform-core.ts';
import type { Account, CommentRecord, RepositoryRecord } from './platform-model.ts';

export function addComment(core: PlatformCore, repo: RepositoryRecord, number: bigint, body: string, user: Account): Answer<CommentRecord> {
  const pr = repo.pulls.get(number);
  if (!pr) return refuse(404, 'Not Found');
  if (typeof body !== 'string' || body === '') return refuse(422, 'Validation Failed', [{ resource: 'IssueComment', field: 'body', code: 'missing_field' }]);
  const comment: CommentRecord = { id: core.ids.next(), issueNumber: number, body, user, createdAt: core.now() };
  repo.comments.push(comment);
  const pull = core.json.pull(repo, pr, pr.headSha);
  const issue = {
    id: pr.id,
    number: pr.number,
    title: pr.title,
    state: pr.state,
    user: pull.user,
    body: pr.body,
    pull_request: { url: pull.url, html_url: pull.html_url, merged_at: pull.merged_at },
  };
  core.emit('issue_comment', repo, user, { action: 'created', issue, comment: core.json.comment(repo, comment) });
  return ok(comment);
}
