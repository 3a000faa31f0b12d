// Where each attribute Switchyard evaluates comes from: a field of the pull request snapshot, its
// checks (which carry the pending state), or the clock. One entry per supported attribute, so a
// new one does not compile until it says where its value is. Logins are read in lower case.
import type { SupportedAttribute } from './attribute-names.ts';
import type { CheckState, FileSnapshot, PullRequestSnapshot, ReviewSnapshot } from './pull-snapshot.ts';

export type Scalar = string | bigint | Date | boolean;

/** Known values (none for an absent scalar) with the count `#` compares, or why they are not known. */
export type ReadValue = { known: true; values: readonly Scalar[]; count?: number } | { known: false; why: string };

export type AttributeReader =
  | { from: 'snapshot'; read: (snapshot: PullRequestSnapshot) => ReadValue }
  /** Names of checks in `states` (any state when null); `waits`: a running check may still join them. */
  | { from: 'checks'; states: readonly CheckState[] | null; waits: boolean }
  | { from: 'clock' };

const values = (list: readonly Scalar[], count?: number): ReadValue => ({ known: true, values: list, count });
const scalar = (value: Scalar | null | undefined): ReadValue => values(value === null || value === undefined ? [] : [value]);
const unknown = (why: string): ReadValue => ({ known: false, why });
const lower = (logins: readonly string[]): ReadValue => values(logins.map((login) => login.toLowerCase()));
const field = (read: (snapshot: PullRequestSnapshot) => ReadValue): AttributeReader => ({ from: 'snapshot', read });
const checks = (states: readonly CheckState[] | null, waits = true): AttributeReader => ({ from: 'checks', states, waits });

const reviewers = (state: ReviewSnapshot['state']) =>
  field((s) => lower(s.reviews.filter((review) => review.state === state).map((review) => review.author)));

/** A renamed file is removed at its old path and added at its new one; `#files` counts it once. */
const files = (paths: (file: FileSnapshot, into: string[]) => void, countEntries = false) =>
  field((s) => {
    if (s.files === null) return unknown("the pull request's files were not read");
    const list: string[] = [];
    for (const file of s.files) paths(file, list);
    return values(list, countEntries ? s.files.length : undefined);
  });

const count = (read: (snapshot: PullRequestSnapshot) => number | null, why: string) =>
  field((s) => {
    const value = read(s);
    return value === null ? unknown(why) : values([], value);
  });

const flag = (read: (snapshot: PullRequestSnapshot) => boolean | null, why = '') => field((s) => (read(s) === null ? unknown(why) : scalar(read(s))));
const LINES_UNREAD = 'the numbers of changed lines were not read';

export const ATTRIBUTE_READERS: Record<SupportedAttribute, AttributeReader> = {
  number: field((s) => scalar(s.number)),
  title: field((s) => scalar(s.title)),
  body: field((s) => scalar(s.body)),
  'body-raw': field((s) => scalar(s.bodyRaw)),
  base: field((s) => scalar(s.base)),
  head: field((s) => scalar(s.head)),
  'head-repo-full-name': field((s) => scalar(s.headRepoFullName)),
  'from-fork': flag((s) => s.fromFork),
  author: field((s) => lower([s.author])),
  'merged-by': field((s) => lower(s.mergedBy === null ? [] : [s.mergedBy])),
  milestone: field((s) => scalar(s.milestone)),
  assignee: field((s) => lower(s.assignees)),
  label: field((s) => values(s.labels)),
  draft: flag((s) => s.draft),
  closed: flag((s) => s.closed),
  merged: flag((s) => s.merged),
  locked: flag((s) => s.locked),
  conflict: flag((s) => s.conflict, 'the platform has not computed whether it conflicts yet'),
  'linear-history': flag((s) => s.linearHistory, 'whether its history is linear was not read'),
  'repository-name': field((s) => scalar(s.repositoryName)),
  'repository-full-name': field((s) => scalar(s.repositoryFullName)),
  'review-requested': field((s) => lower(s.reviewRequested)),
  'approved-reviews-by': reviewers('APPROVED'),
  'changes-requested-reviews-by': reviewers('CHANGES_REQUESTED'),
  'commented-reviews-by': reviewers('COMMENTED'),
  'dismissed-reviews-by': reviewers('DISMISSED'),
  'check-success': checks(['success']),
  'check-failure': checks(['failure', 'cancelled', 'timed_out', 'action_required']),
  'check-neutral': checks(['neutral']),
  'check-skipped': checks(['skipped']),
  'check-pending': checks(['pending'], false),
  'check-timed-out': checks(['timed_out']),
  'check-cancelled': checks(['cancelled']),
  'check-stale': checks(['stale']),
  check: checks(null, false),
  files: files((file, into) => {
    into.push(file.path);
    if (file.previousPath !== undefined) into.push(file.previousPath);
  }, true),
  'added-files': files((file, into) => {
    if (file.status === 'added' || file.status === 'renamed') into.push(file.path);
  }),
  'modified-files': files((file, into) => {
    if (file.status === 'modified') into.push(file.path);
  }),
  'removed-files': files((file, into) => {
    if (file.status === 'removed') into.push(file.path);
    if (file.status === 'renamed' && file.previousPath !== undefined) into.push(file.previousPath);
  }),
  'added-lines': count((s) => s.addedLines, LINES_UNREAD),
  'deleted-lines': count((s) => s.deletedLines, LINES_UNREAD),
  // GitHub's `changes`: a modified line is counted as one deleted and one added.
  'modified-lines': count((s) => (s.addedLines === null || s.deletedLines === null ? null : s.addedLines + s.deletedLines), LINES_UNREAD),
  'commits-behind': count((s) => s.commitsBehind, 'how far behind its base it is was not read'),
  'co-authors': field((s) => values(s.coAuthors)),
  'depends-on': field((s) => values(s.dependsOn)),
  scope: field((s) => (s.scopes === null ? unknown('no scope report arrived yet') : values(s.scopes))),
  'queue-name': field((s) => scalar(s.queue?.name)),
  'queue-position': field((s) => scalar(BigInt(s.queue?.position ?? -1))),
  'queued-at': field((s) => scalar(s.queue?.queuedAt)),
  'created-at': field((s) => scalar(s.createdAt)),
  'updated-at': field((s) => scalar(s.updatedAt)),
  'closed-at': field((s) => scalar(s.closedAt)),
  'merged-at': field((s) => scalar(s.mergedAt)),
  'current-datetime': { from: 'clock' },
  schedule: { from: 'clock' },
  sender: field((s) => (s.sender === undefined ? unknown('only a command has a sender') : lower([s.sender]))),
  'sender-permission': field((s) => (s.senderPermission === undefined ? unknown('only a command has a sender') : scalar(s.senderPermission))),
  'mergify-configuration-changed': flag((s) => s.configurationChanged),
};
