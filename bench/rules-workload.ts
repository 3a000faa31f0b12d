// The workload of bench/rules-evaluation.ts: rules of ten conditions of mixed kinds (regular
// expressions over the title and body, globs and regexes over files, labels, reviews and teams,
// checks, relative times, a schedule in a zone, nested or/not), and one busy pull request.
import type { PullRequestSnapshot } from '../src/domain/rules/index.ts';

/** Condition templates; rule `i` takes ten consecutive ones from position `i`, so kinds mix. */
const TEMPLATES: ((i: number) => unknown)[] = [
  () => 'base=main',
  (i) => `label=ready-${i % 7}`,
  () => '-label~=^(wip|do-not-merge)$',
  (i) => `#approved-reviews-by>=${1 + (i % 2)}`,
  (i) => `check-success=build-${i % 12}`,
  () => '-check-failure~=^lint',
  (i) => `files~=^src/module-${i % 10}/`,
  () => 'files*=src/**/*.{ts,tsx}',
  (i) => `title~=(?i)^(feat|fix|chore)\\(scope-${i % 9}\\)`,
  () => 'body~=(?i)(fixes|closes) #\\d+',
  (i) => `updated-at<${1 + (i % 30)} days ago`,
  () => 'schedule=Mon-Fri 09:00-17:30[Europe/Paris]',
  (i) => `approved-reviews-by=@acme/team-${i % 5}`,
  (i) => ({ or: [`label=priority-${i % 3}`, { not: `author=bot-${i % 4}` }, 'check-neutral=optional'] }),
  (i) => `#files<=${20 + i}`,
  () => 'current-datetime>=2024-01-01T00:00Z',
  (i) => `head~=^(feature|fix)/${i % 11}-`,
  () => '-draft',
];

export function benchRules(count: number, perRule: number): unknown[][] {
  return Array.from({ length: count }, (_, i) => Array.from({ length: perRule }, (_, j) => TEMPLATES[(i + j) % TEMPLATES.length]!(i)));
}

export function benchSnapshot(): PullRequestSnapshot {
  const checkStates = ['success', 'success', 'success', 'pending', 'failure', 'neutral'] as const;
  return {
    number: 123_456n,
    title: 'feat(scope-3): route the merge queue through the new planner',
    body: `${'A paragraph explaining the change in some detail, with a few links and words. '.repeat(30)}\n\nFixes #4321`,
    bodyRaw: 'as body',
    base: 'main',
    head: 'feature/3-new-planner',
    headRepoFullName: 'acme/app',
    fromFork: false,
    author: 'Alice',
    mergedBy: null,
    milestone: 'v2.0',
    assignees: ['alice', 'bob'],
    labels: ['ready-3', 'priority-1', 'backend', 'needs-review', 'size/L'],
    draft: false,
    closed: false,
    merged: false,
    locked: false,
    conflict: false,
    linearHistory: true,
    repositoryName: 'app',
    repositoryFullName: 'acme/app',
    reviewRequested: ['carol', '@acme/team-1'],
    reviews: [
      { author: 'Bob', state: 'APPROVED' },
      { author: 'Dan', state: 'APPROVED' },
      { author: 'Erin', state: 'COMMENTED' },
    ],
    checks: Array.from({ length: 20 }, (_, i) => ({ name: i < 12 ? `build-${i}` : `lint-${i}`, state: checkStates[i % checkStates.length]! })),
    files: Array.from({ length: 30 }, (_, i) => ({ path: `src/module-${i % 10}/part-${i}/file-${i}.${i % 3 === 0 ? 'tsx' : 'ts'}`, status: 'modified' as const })),
    addedLines: 420,
    deletedLines: 180,
    commitsBehind: 2,
    coAuthors: [],
    dependsOn: [],
    scopes: ['api', 'web'],
    queue: null,
    createdAt: new Date('2024-04-20T10:00:00Z'),
    updatedAt: new Date('2024-05-02T10:00:00Z'),
    closedAt: null,
    mergedAt: null,
    configurationChanged: false,
    teamMembers: new Map(Array.from({ length: 5 }, (_, i) => [`acme/team-${i}`, ['bob', 'carol', `member-${i}`]])),
  };
}
