// Evaluation of conditions over a pull request snapshot (DESIGN.md §14): lists hold when any
// element does, logins ignore case, teams expand, checks and unread fields are pending (never
// false), and all/any/not follow three-valued logic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateCondition, parseCondition, parseConditions, type EvaluatedCondition, type Match, type PullRequestSnapshot } from '../../src/domain/rules/index.ts';
import { pullSnapshot } from '../support/pull-snapshot.ts';

const NOW = new Date('2024-05-03T12:00:00Z');

function evaluate(raw: unknown, overrides: Partial<PullRequestSnapshot> = {}): EvaluatedCondition {
  const parsed = Array.isArray(raw) ? parseConditions(raw, ['c']) : parseCondition(raw, ['c']);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
  return evaluateCondition(parsed.condition, pullSnapshot(overrides), NOW);
}

const match = (raw: unknown, overrides: Partial<PullRequestSnapshot> = {}): Match => evaluate(raw, overrides).match;

function expect(overrides: Partial<PullRequestSnapshot>, cases: Record<string, Match>): void {
  for (const [condition, expected] of Object.entries(cases)) assert.equal(match(condition, overrides), expected, condition);
}

test('a list holds when any element does, != when none equals, - negates', () => {
  expect({ labels: ['bug', 'work-in-progress'] }, {
    'label=work-in-progress': 'true', 'label=enhancement': 'false', 'label!=work-in-progress': 'false', 'label!=enhancement': 'true',
    'label~=^work': 'true', '-label~=^work': 'false', 'label*=work-*': 'true', 'label*=work': 'false', 'label>=c': 'true', 'label<a': 'false',
    '#label=2': 'true', '#label>2': 'false', '-#label>2': 'true',
  });
  expect({ labels: [] }, { 'label=bug': 'false', 'label!=bug': 'true', 'label~=.': 'false', '#label=0': 'true' });
});

test('text values: exact, searched, globbed, compared, and their length; an absent one is empty', () => {
  expect({ title: 'WIP: Add the thing', milestone: null }, {
    'title=WIP: Add the thing': 'true', 'title=wip: add the thing': 'false', 'title~=(?i)^wip': 'true', 'title~=thing$': 'true',
    'title*=WIP*': 'true', '#title=18': 'true', '#title<10': 'false', 'title>WIP': 'true',
    'milestone=v1': 'false', 'milestone!=v1': 'true', '#milestone=0': 'true', 'merged-by=bob': 'false',
  });
  expect({ milestone: 'v1.0', mergedBy: 'Bob' }, { 'milestone=v1.0': 'true', 'milestone~=^v1': 'true', 'merged-by=bob': 'true' });
});

test('logins compare ignoring case, written or matched by pattern', () => {
  expect({ author: 'Alice', assignees: ['Carol', 'dave'] }, {
    'author=alice': 'true', 'author=ALICE': 'true', 'author~=^ALI': 'true', 'author*=a*': 'true', 'author!=alice': 'false',
    'assignee=carol': 'true', 'assignee=Dave': 'true', '#assignee=2': 'true', 'assignee=alice': 'false',
  });
});

test('{{ author }} stands for the pull request author', () => {
  expect({ author: 'Alice', reviews: [{ author: 'alice', state: 'APPROVED' }], head: 'Alice' }, {
    'approved-reviews-by={{ author }}': 'true', 'approved-reviews-by!={{author}}': 'false', 'head={{ author }}': 'true',
  });
});

test('reviews by state', () => {
  const reviews = [
    { author: 'Bob', state: 'APPROVED' },
    { author: 'Carol', state: 'CHANGES_REQUESTED' },
    { author: 'Dan', state: 'COMMENTED' },
    { author: 'Erin', state: 'DISMISSED' },
    { author: 'Finn', state: 'APPROVED' },
  ] as const;
  expect({ reviews }, {
    '#approved-reviews-by>=2': 'true', 'approved-reviews-by=bob': 'true', 'approved-reviews-by=carol': 'false',
    'changes-requested-reviews-by=carol': 'true', '#changes-requested-reviews-by=0': 'false', 'commented-reviews-by=dan': 'true',
    'dismissed-reviews-by=erin': 'true',
  });
});

test('teams stand for their members; not read yet is pending, unknown to the platform is false', () => {
  const teamMembers = new Map([['acme/core', ['Bob', 'carol']], ['other/bots', []], ['acme/ghost', null]]);
  const reviews = [{ author: 'bob', state: 'APPROVED' as const }];
  expect({ reviews, teamMembers }, {
    'approved-reviews-by=@core': 'true', 'approved-reviews-by=@acme/core': 'true', 'approved-reviews-by=@other/bots': 'false',
    'approved-reviews-by!=@core': 'false', '-approved-reviews-by=@core': 'false', 'approved-reviews-by=@acme/unread': 'pending',
  });
  const ghost = evaluate('-approved-reviews-by=@ghost', { reviews, teamMembers });
  assert.deepEqual([ghost.match, ghost.description], ['false', 'team @acme/ghost not found']);
  assert.equal(evaluate('approved-reviews-by!=@ghost', { reviews, teamMembers }).match, 'false');
  const unread = evaluate('approved-reviews-by=@unread', { reviews, teamMembers });
  assert.deepEqual([unread.match, unread.description], ['pending', 'members of @acme/unread not read yet']);
  // Nobody approved: no member can be among them, read or not.
  assert.equal(match('approved-reviews-by=@unread', { teamMembers }), 'false');
  // A requested team matches itself, whether or not its members were read.
  expect({ reviewRequested: ['@acme/core', 'zed'], teamMembers }, { 'review-requested=@core': 'true', 'review-requested=@acme/unread': 'pending', 'review-requested=zed': 'true' });
  expect({ reviewRequested: ['@acme/unread'], teamMembers }, { 'review-requested=@unread': 'true' });
});

test('checks: true in the state, pending while running or not reported, false once done otherwise', () => {
  const checks = [
    { name: 'ci', state: 'success' }, { name: 'lint', state: 'pending' }, { name: 'e2e', state: 'failure' },
    { name: 'docs', state: 'cancelled' }, { name: 'slow', state: 'timed_out' }, { name: 'deploy', state: 'action_required' },
    { name: 'opt', state: 'neutral' }, { name: 'skip', state: 'skipped' }, { name: 'old', state: 'stale' },
  ] as const;
  expect({ checks }, {
    'check-success=ci': 'true', 'check-success=lint': 'pending', 'check-success=e2e': 'false', 'check-success=missing': 'pending',
    'check-failure=e2e': 'true', 'check-failure=docs': 'true', 'check-failure=slow': 'true', 'check-failure=deploy': 'true',
    'check-failure=lint': 'pending', 'check-failure=ci': 'false', '-check-failure=lint': 'pending', '-check-failure=ci': 'true',
    'check-cancelled=docs': 'true', 'check-timed-out=slow': 'true', 'check-neutral=opt': 'true', 'check-skipped=skip': 'true',
    'check-stale=old': 'true', 'check-success!=lint': 'pending', 'check-success!=e2e': 'true',
    'check-pending=lint': 'true', 'check-pending=ci': 'false', 'check-pending=missing': 'false',
    'check=e2e': 'true', 'check=missing': 'false', '#check=9': 'true',
    'check-success~=^c': 'true', 'check-success~=^l': 'pending', 'check-success~=^nothing': 'false', 'check-success*=e*': 'false',
    '#check-success>=1': 'true', '#check-success>=2': 'pending', '#check-success>=3': 'false', '#check-failure=4': 'pending',
    '#check-failure>=4': 'true', '#check-pending=1': 'true',
  });
  expect({ checks: [{ name: 'ci', state: 'success' }] }, { '#check-failure=0': 'true', '#check-success=1': 'true' });
  assert.equal(evaluate('check-success=lint', { checks }).description, 'still running');
  assert.equal(evaluate('check-success=missing', { checks }).description, 'not reported yet');
});

test('files: a rename is removed at its old path and added at its new one; #files counts it once', () => {
  const files = [
    { path: 'src/a.ts', status: 'modified' }, { path: 'docs/new.md', status: 'added' }, { path: 'old.txt', status: 'removed' },
    { path: 'ignored/guard.txt', status: 'renamed', previousPath: 'critical/guard.txt' },
  ] as const;
  expect({ files }, {
    'files=critical/guard.txt': 'true', 'files=ignored/guard.txt': 'true', '#files=4': 'true', 'files*=**/*.md': 'true', 'files*=*.ts': 'false',
    'files*=src/*.ts': 'true', 'removed-files~=^critical/': 'true', 'removed-files=old.txt': 'true', 'added-files=ignored/guard.txt': 'true',
    'added-files=docs/new.md': 'true', 'modified-files=ignored/guard.txt': 'false', '#modified-files=1': 'true', '-files~=^critical/': 'false',
  });
  const unread = evaluate('files~=^src/', { files: null });
  assert.deepEqual([unread.match, unread.description], ['pending', "the pull request's files were not read"]);
});

test('counts of lines and commits behind; unread ones are pending', () => {
  expect({ addedLines: 120, deletedLines: 30, commitsBehind: 3 }, {
    '#added-lines>100': 'true', '#deleted-lines<=30': 'true', '#modified-lines=150': 'true', '#commits-behind=0': 'false', '#commits-behind<5': 'true',
  });
  expect({ addedLines: null, commitsBehind: null }, { '#added-lines>100': 'pending', '#modified-lines>1': 'pending', '#commits-behind=0': 'pending', '#deleted-lines=0': 'true' });
});

test('booleans, including those the platform may not have computed', () => {
  expect({ draft: true, conflict: null, linearHistory: null, configurationChanged: true, fromFork: true, locked: false }, {
    draft: 'true', '-draft': 'false', conflict: 'pending', '-conflict': 'pending', 'linear-history': 'pending',
    'mergify-configuration-changed': 'true', 'from-fork': 'true', locked: 'false', closed: 'false', merged: 'false',
  });
});

test('numbers are compared as 64-bit integers; queue-position is -1 outside the queue', () => {
  expect({ number: 9007199254740993n }, { 'number=9007199254740993': 'true', 'number>9007199254740992': 'true', 'number!=9007199254740992': 'true' });
  expect({}, { 'queue-position=-1': 'true', 'queue-position>=0': 'false', 'queue-name=default': 'false', '#queue-name=0': 'true' });
  const queue = { name: 'urgent', position: 0, queuedAt: new Date('2024-05-03T11:00:00Z') };
  expect({ queue }, { 'queue-position=0': 'true', 'queue-name=urgent': 'true', 'queued-at<30 minutes ago': 'true', 'queued-at<2 hours ago': 'false' });
});

test('scopes, dependencies, co-authors, repository names', () => {
  expect({ scopes: ['api', 'web'], dependsOn: ['acme/lib#12'], coAuthors: ['Dana <dana@example.com>'] }, {
    'scope=api': 'true', 'scope!=docs': 'true', '#scope=2': 'true', 'depends-on=acme/lib#12': 'true', 'co-authors~=dana@': 'true',
    'repository-full-name=acme/app': 'true', 'repository-name*=a*': 'true', 'head-repo-full-name=acme/app': 'true', 'base=main': 'true',
    'head~=^feature/': 'true', 'body=Why the thing.': 'true', 'body-raw~=hidden': 'true', 'body~=hidden': 'false',
  });
  expect({ scopes: null }, { 'scope=api': 'pending', '-scope=api': 'pending' });
});

test('the sender and its permission exist only for commands', () => {
  expect({ sender: 'Bob', senderPermission: 'maintain' }, {
    'sender=bob': 'true', 'sender-permission>=write': 'true', 'sender-permission>admin': 'false', 'sender-permission=maintain': 'true', 'sender-permission<triage': 'false',
  });
  expect({}, { 'sender=bob': 'pending', 'sender-permission>=write': 'pending' });
});

test('and, or, not: three-valued (Kleene) logic', () => {
  const overrides = { checks: [{ name: 'ci', state: 'pending' as const }], labels: ['ready'] };
  const cases: [unknown, Match][] = [
    [['label=ready', 'check-success=ci'], 'pending'],
    [['label=other', 'check-success=ci'], 'false'],
    [{ or: ['label=ready', 'check-success=ci'] }, 'true'],
    [{ or: ['label=other', 'check-success=ci'] }, 'pending'],
    [{ not: 'check-success=ci' }, 'pending'],
    [{ not: { or: ['label=other', 'label=ready'] } }, 'false'],
    [{ and: [] }, 'true'],
    [{ or: [] }, 'false'],
  ];
  for (const [raw, expected] of cases) assert.equal(match(raw, overrides), expected, JSON.stringify(raw));
});

test('an unsupported leaf is pending with its reason, never true or false', () => {
  const tree = evaluate({ not: 'deployment-success=prod' });
  assert.equal(tree.match, 'pending');
  assert.equal(tree.kind === 'not' && tree.condition.description, 'Switchyard does not evaluate the attribute deployment-success');
});

test('a pattern sees the first 64 KiB of a value; equality sees all of it', () => {
  const body = (at: number) => `${'x'.repeat(at)}needle`;
  assert.equal(match('body~=needle', { body: body(60_000) }), 'true');
  assert.equal(match('body~=needle', { body: body(70_000) }), 'false');
  assert.equal(match(`#body=${70_006}`, { body: body(70_000) }), 'true');
  assert.equal(match('body~=(a|aa)+$', { body: 'a'.repeat(200_000) }), 'true');
});
