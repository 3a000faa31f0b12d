// Pull requests and what hangs on them in GitHub's REST shapes: the pull request (as lists, single
// reads and webhooks carry it), the issue side of it, labels, milestones, teams, reviews and
// comments. Ids and numbers stay bigint, written as JSON integers.
import type { GithubJson, Json } from './github-json.ts';
import { nodeId } from './id-sequence.ts';
import { fullName, type Account, type CommentRecord, type LabelRecord, type MilestoneRecord, type PullRecord, type RepositoryRecord, type ReviewRecord, type TeamRecord } from './platform-model.ts';

/** What only a single read and webhooks carry (GitHub leaves it out of lists). */
export interface PullDetail {
  mergeable: boolean | null;
  state: string;
  stats: { commits: number; additions: number; deletions: number; changedFiles: number };
}

export class PullJson {
  constructor(private readonly base: GithubJson) {}

  private get api(): string {
    return this.base.apiUrl();
  }

  private repoUrl(repo: RepositoryRecord): string {
    return `${this.api}/repos/${fullName(repo)}`;
  }

  pull(repo: RepositoryRecord, pr: PullRecord, baseSha: string, detail?: PullDetail): Json {
    const url = `${this.repoUrl(repo)}/pulls/${pr.number}`;
    const html = `${this.api}/${fullName(repo)}/pull/${pr.number}`;
    const json: Json = {
      url,
      id: pr.id,
      node_id: nodeId('PullRequest', pr.id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: `${this.repoUrl(repo)}/issues/${pr.number}`,
      commits_url: `${url}/commits`,
      comments_url: `${this.repoUrl(repo)}/issues/${pr.number}/comments`,
      statuses_url: `${this.repoUrl(repo)}/statuses/${pr.headSha}`,
      number: pr.number,
      state: pr.state,
      locked: pr.locked,
      title: pr.title,
      user: this.base.user(pr.user),
      body: pr.body === '' ? null : pr.body,
      labels: pr.labels.map((label) => this.label(repo, label)),
      milestone: pr.milestone ? this.milestone(repo, pr.milestone) : null,
      active_lock_reason: null,
      created_at: pr.createdAt.toISOString(),
      updated_at: pr.updatedAt.toISOString(),
      closed_at: pr.closedAt?.toISOString() ?? null,
      merged_at: pr.mergedAt?.toISOString() ?? null,
      merge_commit_sha: pr.mergeCommitSha,
      assignee: pr.assignees[0] ? this.base.user(pr.assignees[0]) : null,
      assignees: pr.assignees.map((a) => this.base.user(a)),
      requested_reviewers: pr.requestedReviewers.map((r) => this.base.user(r)),
      requested_teams: pr.requestedTeams.map((t) => this.team(t)),
      head: this.side(pr.headRepo, pr.headRef, pr.headSha),
      base: this.side(repo, pr.baseRef, baseSha),
      author_association: association(repo, pr.user),
      auto_merge: null,
      draft: pr.draft,
    };
    if (detail) {
      Object.assign(json, {
        merged: pr.merged,
        mergeable: detail.mergeable,
        rebaseable: detail.mergeable,
        mergeable_state: detail.state,
        merged_by: pr.mergedBy ? this.base.user(pr.mergedBy) : null,
        comments: repo.comments.filter((c) => c.issueNumber === pr.number).length,
        review_comments: 0,
        maintainer_can_modify: pr.headRepo !== repo,
        commits: detail.stats.commits,
        additions: detail.stats.additions,
        deletions: detail.stats.deletions,
        changed_files: detail.stats.changedFiles,
      });
    }
    return json;
  }

  private side(repo: RepositoryRecord, ref: string, sha: string): Json {
    return { label: `${repo.owner.login}:${ref}`, ref, sha, user: this.base.user(repo.owner), repo: this.base.repository(repo) };
  }

  /** A pull request as check runs and suites reference it. */
  pullReference(repo: RepositoryRecord, pr: PullRecord, baseSha: string): Json {
    const side = (at: RepositoryRecord, ref: string, sha: string) => ({ ref, sha, repo: { id: at.id, url: this.repoUrl(at), name: at.name } });
    return { id: pr.id, number: pr.number, url: `${this.repoUrl(repo)}/pulls/${pr.number}`, head: side(pr.headRepo, pr.headRef, pr.headSha), base: side(repo, pr.baseRef, baseSha) };
  }

  /** The issue every pull request also is (what the issues endpoints and `issue_comment` carry). */
  issue(repo: RepositoryRecord, pr: PullRecord): Json {
    const url = `${this.repoUrl(repo)}/issues/${pr.number}`;
    const html = `${this.api}/${fullName(repo)}/pull/${pr.number}`;
    return {
      url,
      repository_url: this.repoUrl(repo),
      labels_url: `${url}/labels{/name}`,
      comments_url: `${url}/comments`,
      events_url: `${url}/events`,
      html_url: html,
      id: pr.id,
      node_id: nodeId('PullRequest', pr.id),
      number: pr.number,
      title: pr.title,
      user: this.base.user(pr.user),
      labels: pr.labels.map((label) => this.label(repo, label)),
      state: pr.state,
      locked: pr.locked,
      assignee: pr.assignees[0] ? this.base.user(pr.assignees[0]) : null,
      assignees: pr.assignees.map((a) => this.base.user(a)),
      milestone: pr.milestone ? this.milestone(repo, pr.milestone) : null,
      comments: repo.comments.filter((c) => c.issueNumber === pr.number).length,
      created_at: pr.createdAt.toISOString(),
      updated_at: pr.updatedAt.toISOString(),
      closed_at: pr.closedAt?.toISOString() ?? null,
      author_association: association(repo, pr.user),
      active_lock_reason: null,
      draft: pr.draft,
      body: pr.body === '' ? null : pr.body,
      pull_request: { url: `${this.repoUrl(repo)}/pulls/${pr.number}`, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`, merged_at: pr.mergedAt?.toISOString() ?? null },
    };
  }

  label(repo: RepositoryRecord, label: LabelRecord): Json {
    return { id: label.id, node_id: nodeId('Label', label.id), url: `${this.repoUrl(repo)}/labels/${encodeURIComponent(label.name)}`, name: label.name, color: label.color, default: label.default, description: label.description };
  }

  milestone(repo: RepositoryRecord, milestone: MilestoneRecord): Json {
    const open = [...repo.pulls.values()].filter((pr) => pr.milestone === milestone);
    return {
      url: `${this.repoUrl(repo)}/milestones/${milestone.number}`,
      html_url: `${this.api}/${fullName(repo)}/milestone/${milestone.number}`,
      id: milestone.id,
      node_id: nodeId('Milestone', milestone.id),
      number: milestone.number,
      title: milestone.title,
      description: null,
      creator: this.base.user(milestone.creator),
      open_issues: open.filter((pr) => pr.state === 'open').length,
      closed_issues: open.filter((pr) => pr.state === 'closed').length,
      state: milestone.state,
      created_at: milestone.createdAt.toISOString(),
      updated_at: milestone.createdAt.toISOString(),
      due_on: null,
      closed_at: null,
    };
  }

  team(team: TeamRecord): Json {
    const url = `${this.api}/organizations/${team.organisation.id}/team/${team.id}`;
    return {
      id: team.id,
      node_id: nodeId('Team', team.id),
      url,
      html_url: `${this.api}/orgs/${team.organisation.login}/teams/${team.slug}`,
      name: team.name,
      slug: team.slug,
      description: null,
      privacy: 'closed',
      notification_setting: 'notifications_enabled',
      permission: 'pull',
      members_url: `${url}/members{/member}`,
      repositories_url: `${url}/repos`,
      parent: null,
    };
  }

  review(repo: RepositoryRecord, pr: PullRecord, review: ReviewRecord): Json {
    const pullUrl = `${this.repoUrl(repo)}/pulls/${pr.number}`;
    const html = `${this.api}/${fullName(repo)}/pull/${pr.number}#pullrequestreview-${review.id}`;
    const json: Json = {
      id: review.id,
      node_id: nodeId('PullRequestReview', review.id),
      user: this.base.user(review.user),
      body: review.body,
      state: review.state,
      html_url: html,
      pull_request_url: pullUrl,
      author_association: association(repo, review.user),
      _links: { html: { href: html }, pull_request: { href: pullUrl } },
      commit_id: review.commitId,
    };
    // A pending review has not been submitted: GitHub leaves the field out.
    if (review.submittedAt) json.submitted_at = review.submittedAt.toISOString();
    return json;
  }

  comment(repo: RepositoryRecord, comment: CommentRecord): Json {
    return {
      id: comment.id,
      node_id: nodeId('IssueComment', comment.id),
      url: `${this.repoUrl(repo)}/issues/comments/${comment.id}`,
      html_url: `${this.api}/${fullName(repo)}/pull/${comment.issueNumber}#issuecomment-${comment.id}`,
      issue_url: `${this.repoUrl(repo)}/issues/${comment.issueNumber}`,
      body: comment.body,
      user: this.base.user(comment.user),
      created_at: comment.createdAt.toISOString(),
      updated_at: comment.updatedAt.toISOString(),
      author_association: association(repo, comment.user),
    };
  }
}

function association(repo: RepositoryRecord, account: Account): string {
  if (account === repo.owner) return 'OWNER';
  if (repo.collaborators.has(account.login.toLowerCase())) return 'COLLABORATOR';
  return 'CONTRIBUTOR';
}
