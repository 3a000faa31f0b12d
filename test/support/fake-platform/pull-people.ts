// Who a pull request involves: its assignees (GitHub silently skips logins that cannot be
// assigned, and keeps at most 10) and the users and teams asked to review it (refused for its
// author and for those without access), each change with its `pull_request` webhook.
import { ok, refuse, type Answer } from './platform-answer.ts';
import type { PlatformCore } from './platform-core.ts';
import type { Account, PullRecord, RepositoryRecord, TeamRecord } from './platform-model.ts';

const MAX_ASSIGNEES = 10;

async function emit(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, actor: Account, action: string, fields: Record<string, unknown>): Promise<void> {
  pr.updatedAt = core.now();
  core.emit('pull_request', repo, actor, { action, number: pr.number, ...fields, pull_request: await core.webhookPull(repo, pr) });
}

/** A user who can see the repository (and so be assigned or asked to review). */
function withAccess(core: PlatformCore, repo: RepositoryRecord, login: string): Account | undefined {
  const account = core.accounts.find(login);
  if (!account || account.type === 'Organization') return undefined;
  return core.repos.permissionOf(repo, account) === 'none' ? undefined : account;
}

export function addAssignees(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, logins: string[], actor: Account): Promise<PullRecord> {
  return repo.lock(async () => {
    for (const login of logins) {
      const account = withAccess(core, repo, login);
      if (!account || pr.assignees.includes(account) || pr.assignees.length >= MAX_ASSIGNEES) continue;
      pr.assignees.push(account);
      await emit(core, repo, pr, actor, 'assigned', { assignee: core.json.user(account) });
    }
    return pr;
  });
}

export function removeAssignees(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, logins: string[], actor: Account): Promise<PullRecord> {
  return repo.lock(async () => {
    for (const login of logins) {
      const account = pr.assignees.find((a) => a.login.toLowerCase() === login.toLowerCase());
      if (!account) continue;
      pr.assignees.splice(pr.assignees.indexOf(account), 1);
      await emit(core, repo, pr, actor, 'unassigned', { assignee: core.json.user(account) });
    }
    return pr;
  });
}

export interface ReviewRequest {
  reviewers: string[];
  teams: string[];
}

/** The users and teams named, or GitHub's refusal when one cannot be asked. */
function resolveRequest(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, request: ReviewRequest): Answer<{ users: Account[]; teams: TeamRecord[] }> {
  const users: Account[] = [];
  const teams: TeamRecord[] = [];
  for (const login of request.reviewers) {
    if (login.toLowerCase() === pr.user.login.toLowerCase()) return refuse(422, 'Review cannot be requested from pull request author.');
    const account = withAccess(core, repo, login);
    if (!account) return notCollaborator(repo);
    users.push(account);
  }
  for (const slug of request.teams) {
    const team = repo.owner.type === 'Organization' ? core.teams.find(repo.owner.login, slug) : undefined;
    if (!team) return notCollaborator(repo);
    teams.push(team);
  }
  return ok({ users, teams });
}

function notCollaborator(repo: RepositoryRecord): Answer<never> {
  return refuse(422, `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${repo.owner.login}/${repo.name} repository.`);
}

export function requestReviews(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, request: ReviewRequest, actor: Account): Promise<Answer<PullRecord>> {
  return repo.lock(async () => {
    const resolved = resolveRequest(core, repo, pr, request);
    if (!resolved.ok) return resolved;
    for (const user of resolved.value.users.filter((u) => !pr.requestedReviewers.includes(u))) {
      pr.requestedReviewers.push(user);
      await emit(core, repo, pr, actor, 'review_requested', { requested_reviewer: core.json.user(user) });
    }
    for (const team of resolved.value.teams.filter((t) => !pr.requestedTeams.includes(t))) {
      pr.requestedTeams.push(team);
      await emit(core, repo, pr, actor, 'review_requested', { requested_team: core.pullJsons.team(team) });
    }
    return ok(pr);
  });
}

export function removeReviewRequests(core: PlatformCore, repo: RepositoryRecord, pr: PullRecord, request: ReviewRequest, actor: Account): Promise<PullRecord> {
  return repo.lock(async () => {
    for (const user of pr.requestedReviewers.filter((u) => request.reviewers.some((login) => login.toLowerCase() === u.login.toLowerCase()))) {
      pr.requestedReviewers.splice(pr.requestedReviewers.indexOf(user), 1);
      await emit(core, repo, pr, actor, 'review_request_removed', { requested_reviewer: core.json.user(user) });
    }
    for (const team of pr.requestedTeams.filter((t) => request.teams.some((slug) => slug.toLowerCase() === t.slug))) {
      pr.requestedTeams.splice(pr.requestedTeams.indexOf(team), 1);
      await emit(core, repo, pr, actor, 'review_request_removed', { requested_team: core.pullJsons.team(team) });
    }
    return pr;
  });
}
