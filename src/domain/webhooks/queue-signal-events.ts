// Webhooks the merge queue listens to besides pull_request (DESIGN.md §10): comments that may
// hold a command, check results and statuses on a commit, and pushes to a branch.
import { Type } from '@sinclair/typebox';
import { Owner, RepositoryName, Sha } from '../identifiers.ts';
import { Int64 } from '../int64.ts';
import { parseDateTime } from '../date-time.ts';
import { DateTime, Nullable } from '../schema-primitives.ts';
import { IGNORED, type HostingEvent } from './hosting-event.ts';
import { actionOf, payloadCheck } from './payload-validation.ts';

const Repository = Type.Object({ name: RepositoryName, owner: Type.Object({ login: Owner }) });
const repositoryOf = (repository: { name: string; owner: { login: string } }) => ({ owner: repository.owner.login, name: repository.name });

const checkComment = payloadCheck(
  Type.Object({
    issue: Type.Object({ number: Int64(), pull_request: Type.Optional(Type.Object({})) }),
    comment: Type.Object({
      id: Int64(),
      body: Type.String({ maxLength: 65536 }),
      html_url: Type.Optional(Nullable(Type.String({ maxLength: 2048 }))),
      created_at: Type.Optional(DateTime()),
      user: Type.Object({ login: Type.String({ minLength: 1, maxLength: 255 }), id: Int64(), type: Type.Optional(Type.String()) }),
    }),
    repository: Repository,
  }),
);

const checkRun = payloadCheck(Type.Object({ check_run: Type.Object({ head_sha: Sha }), repository: Repository }));
const checkSuite = payloadCheck(Type.Object({ check_suite: Type.Object({ head_sha: Sha }), repository: Repository }));
const checkStatus = payloadCheck(Type.Object({ sha: Sha, repository: Repository }));
const checkPush = payloadCheck(Type.Object({ ref: Type.String({ minLength: 1, maxLength: 1024 }), after: Sha, repository: Repository }));

const ACCOUNT_TYPES = new Set(['User', 'Bot', 'Organization']);

export function parseQueueSignal(event: string, payload: unknown): HostingEvent {
  switch (event) {
    case 'issue_comment': {
      if (actionOf(payload) !== 'created') return IGNORED;
      const { issue, comment, repository } = checkComment(payload);
      if (!issue.pull_request) return IGNORED;
      const type = comment.user.type && ACCOUNT_TYPES.has(comment.user.type) ? (comment.user.type as 'User' | 'Bot' | 'Organization') : null;
      return {
        kind: 'comment',
        repository: repositoryOf(repository),
        number: issue.number,
        body: comment.body,
        author: { login: comment.user.login, id: comment.user.id, type },
        commentId: comment.id,
        url: comment.html_url ?? null,
        createdAt: comment.created_at === undefined ? undefined : parseDateTime(comment.created_at),
      };
    }
    case 'check_run':
      return { kind: 'checks', ...shaOf(checkRun(payload).check_run.head_sha, checkRun(payload).repository) };
    case 'check_suite':
      return { kind: 'checks', ...shaOf(checkSuite(payload).check_suite.head_sha, checkSuite(payload).repository) };
    case 'status': {
      const { sha, repository } = checkStatus(payload);
      return { kind: 'checks', ...shaOf(sha, repository) };
    }
    case 'push': {
      const { ref, after, repository } = checkPush(payload);
      if (!ref.startsWith('refs/heads/')) return IGNORED;
      return { kind: 'push', repository: repositoryOf(repository), branch: ref.slice('refs/heads/'.length), after: after.toLowerCase() };
    }
    default:
      return IGNORED;
  }
}

function shaOf(sha: string, repository: { name: string; owner: { login: string } }) {
  return { repository: repositoryOf(repository), sha: sha.toLowerCase() };
}
