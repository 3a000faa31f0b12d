// What a webhook means to the rules engine (DESIGN.md §14): which pull requests to evaluate
// again, and whether the configuration file may have changed. Read from the event name and the
// payload alone; the merge queue's reading of the same webhook (parse-hosting-event.ts) is apart.
import { Type } from '@sinclair/typebox';
import { Owner, RepositoryName, Sha } from '../identifiers.ts';
import { Int64 } from '../int64.ts';
import { Nullable } from '../schema-primitives.ts';
import type { RepositoryName as Repository } from './hosting-event.ts';
import { payloadCheck } from './payload-validation.ts';
import { isOwnCheck } from '../rules/own-checks.ts';

export type RulesSignal =
  /** Something about these pull requests changed; `pull` is the payload's pull request object, when it has one. */
  | { kind: 'pulls'; repository: Repository; numbers: bigint[]; pull?: Record<string, unknown>; reviewsChanged?: boolean }
  /** A check run (`runs`) or a commit status (`statuses`) changed on a commit: the pull requests whose head it is. */
  | { kind: 'head'; repository: Repository; sha: string; checks: 'runs' | 'statuses' }
  /** A branch moved: pull requests on it as their base; the configuration when it is the default branch and the file may have changed. */
  | { kind: 'push'; repository: Repository; branch: string; after: string; defaultBranch: string | null; files: string[] | null };

const RepositoryPayload = Type.Object({ name: RepositoryName, owner: Type.Object({ login: Owner }), default_branch: Type.Optional(Type.String({ maxLength: 255 })) });
const repositoryOf = (repository: { name: string; owner: { login: string } }): Repository => ({ owner: repository.owner.login, name: repository.name });

const checkPull = payloadCheck(Type.Object({ number: Type.Optional(Int64()), pull_request: Type.Object({ number: Type.Optional(Int64()) }), repository: RepositoryPayload }));
const checkIssue = payloadCheck(Type.Object({ issue: Type.Object({ number: Int64(), pull_request: Type.Optional(Nullable(Type.Object({}))) }), repository: RepositoryPayload }));
const checkRun = payloadCheck(Type.Object({ check_run: Type.Object({ head_sha: Sha, name: Type.Optional(Type.String({ maxLength: 1024 })) }), repository: RepositoryPayload }));
const checkSuite = payloadCheck(Type.Object({ check_suite: Type.Object({ head_sha: Sha }), repository: RepositoryPayload }));
const checkStatus = payloadCheck(Type.Object({ sha: Sha, repository: RepositoryPayload }));
const Paths = Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 10_000 }));
const checkPush = payloadCheck(
  Type.Object({
    ref: Type.String({ minLength: 1, maxLength: 1024 }),
    after: Sha,
    commits: Type.Optional(Type.Array(Type.Object({ added: Paths, modified: Paths, removed: Paths }), { maxItems: 2048 })),
    repository: RepositoryPayload,
  }),
);

/**
 * The payload's signal, or null for events the rules engine does not look at, and for payloads
 * that lack what it reads: the merge queue's reading of the same webhook decides what is a 422
 * (DESIGN §4: an action it does not handle is a 204), the engine only loses a hint.
 */
export function parseRulesSignal(event: string, payload: unknown): RulesSignal | null {
  try {
    return signalOf(event, payload);
  } catch {
    return null;
  }
}

function signalOf(event: string, payload: unknown): RulesSignal | null {
  switch (event) {
    case 'pull_request':
    case 'pull_request_review': {
      const { number: outer, pull_request: pull, repository } = checkPull(payload);
      const number = pull.number ?? outer;
      if (number === undefined) return null;
      return { kind: 'pulls', repository: repositoryOf(repository), numbers: [number], pull: (payload as { pull_request: Record<string, unknown> }).pull_request, reviewsChanged: event === 'pull_request_review' };
    }
    case 'issue_comment': {
      const { issue, repository } = checkIssue(payload);
      return issue.pull_request ? { kind: 'pulls', repository: repositoryOf(repository), numbers: [issue.number] } : null;
    }
    case 'check_run': {
      const { check_run: run, repository } = checkRun(payload);
      // Switchyard's own check runs (the Summary…) are no input of the rules: writing one must not evaluate again.
      return run.name !== undefined && isOwnCheck(run.name) ? null : headOf(run.head_sha, repository, 'runs');
    }
    case 'check_suite':
      return headOf(checkSuite(payload).check_suite.head_sha, checkSuite(payload).repository, 'runs');
    case 'status':
      return headOf(checkStatus(payload).sha, checkStatus(payload).repository, 'statuses');
    case 'push':
      return pushOf(checkPush(payload));
    default:
      return null;
  }
}

function headOf(sha: string, repository: { name: string; owner: { login: string } }, checks: 'runs' | 'statuses'): RulesSignal {
  return { kind: 'head', repository: repositoryOf(repository), sha: sha.toLowerCase(), checks };
}

function pushOf(push: ReturnType<typeof checkPush>): RulesSignal | null {
  if (!push.ref.startsWith('refs/heads/')) return null;
  // A push of many commits may list none of their files (GitHub lists at most 2048 commits): unknown, not "none".
  const files = push.commits === undefined ? null : push.commits.flatMap((commit) => [...(commit.added ?? []), ...(commit.modified ?? []), ...(commit.removed ?? [])]);
  return { kind: 'push', repository: repositoryOf(push.repository), branch: push.ref.slice('refs/heads/'.length), after: push.after.toLowerCase(), defaultBranch: push.repository.default_branch ?? null, files };
}
