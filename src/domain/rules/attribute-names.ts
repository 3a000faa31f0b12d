// The attribute names a condition may use: those DESIGN.md §14 evaluates, and the rest of the
// public configuration's attributes, which parse (a file written for the public service stays
// valid) but disable the rule that uses them.

export const SUPPORTED_ATTRIBUTES = [
  'number', 'title', 'body', 'body-raw', 'base', 'head', 'head-repo-full-name', 'from-fork',
  'author', 'merged-by', 'milestone', 'assignee', 'label', 'draft', 'closed', 'merged', 'locked',
  'conflict', 'linear-history', 'repository-name', 'repository-full-name', 'review-requested',
  'approved-reviews-by', 'changes-requested-reviews-by', 'commented-reviews-by',
  'dismissed-reviews-by', 'check-success', 'check-failure', 'check-neutral', 'check-skipped',
  'check-pending', 'check-timed-out', 'check-cancelled', 'check-stale', 'check', 'files',
  'added-files', 'modified-files', 'removed-files', 'added-lines', 'deleted-lines',
  'modified-lines', 'commits-behind', 'co-authors', 'depends-on', 'scope', 'queue-name',
  'queue-position', 'queued-at', 'created-at', 'updated-at', 'closed-at', 'merged-at',
  'current-datetime', 'schedule', 'sender', 'sender-permission', 'mergify-configuration-changed',
] as const;

export const UNSUPPORTED_ATTRIBUTES = [
  'github-review-decision', 'github-require-review-from-specific-teams',
  'github-code-owner-review-satisfied', 'github-review-approved',
  'github-require-last-push-approval', 'merge-commit-sha', 'queue-dequeue-reason',
  'commits-unverified', 'deployment-success', 'deployment-failure', 'review-threads-resolved',
  'review-threads-unresolved', 'dependabot-dependency-name', 'dependabot-dependency-type',
  'dependabot-update-type', 'commits', 'updates', 'queue-merge-started-at',
] as const;

export type SupportedAttribute = (typeof SUPPORTED_ATTRIBUTES)[number];
export type UnsupportedAttribute = (typeof UNSUPPORTED_ATTRIBUTES)[number];
export type AttributeName = SupportedAttribute | UnsupportedAttribute;

const SUPPORTED = new Set<string>(SUPPORTED_ATTRIBUTES);
const ALL = new Set<string>([...SUPPORTED_ATTRIBUTES, ...UNSUPPORTED_ATTRIBUTES]);

export function isAttributeName(name: string): name is AttributeName {
  return ALL.has(name);
}

export function isSupportedAttribute(name: AttributeName): name is SupportedAttribute {
  return SUPPORTED.has(name);
}

/** The known name closest to a misspelt one (at most two edits away), for the error message. */
export function closestAttribute(name: string): AttributeName | null {
  let best: AttributeName | null = null;
  let bestDistance = 3;
  for (const candidate of ALL as Set<AttributeName>) {
    const distance = editDistance(name, candidate, bestDistance);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Levenshtein distance, or `cap` as soon as it is known to reach it. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    if (Math.min(...current) >= cap) return cap;
    previous = current;
  }
  return Math.min(previous[b.length]!, cap);
}
