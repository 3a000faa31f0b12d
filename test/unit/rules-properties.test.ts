// Properties of evaluation over random trees and random pull requests (fast-check): every node's
// three-valued match equals a small reference model written independently (Kleene logic as
// min/max/1-x over 0, ½, 1); rules evaluated together equal each evaluated alone; and a time
// condition's nextChangeAt is exact: the match holds still until then and differs at that instant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ATTRIBUTE_SPECS, evaluateCondition, evaluateConditions, parseCondition, type EvaluatedCondition, type PullRequestSnapshot } from '../../src/domain/rules/index.ts';
import { pullSnapshot } from '../support/pull-snapshot.ts';

type Truth = 0 | 0.5 | 1;
type State = 'success' | 'failure' | 'pending' | 'cancelled';
interface World {
  labels: string[];
  author: string;
  draft: boolean;
  conflict: boolean | null;
  checks: Partial<Record<'ci' | 'lint', State>>;
  approvals: number;
  files: string[] | null;
}
type Leaf = { text: string; model: (world: World) => Truth };
type Tree = { leaf: Leaf } | { all: Tree[] } | { any: Tree[] } | { not: Tree };

const truth = (value: boolean): Truth => (value ? 1 : 0);
const GLOBS: Record<string, (path: string) => boolean> = {
  '*.ts': (path) => !path.includes('/') && path.endsWith('.ts'),
  'src/*': (path) => path.startsWith('src/') && !path.slice(4).includes('/'),
  '**/*.ts': (path) => path.endsWith('.ts'),
};

function checkModel(state: State | undefined, wanted: State[]): Truth {
  if (state !== undefined && wanted.includes(state)) return 1;
  return state === undefined || state === 'pending' ? 0.5 : 0;
}

const leafArb: fc.Arbitrary<Leaf> = fc.oneof(
  fc.record({ op: fc.constantFrom('=', '!=', '~='), value: fc.constantFrom('a', 'b', 'c') }).map(({ op, value }): Leaf => ({
    text: `label${op}${op === '~=' ? `^${value}` : value}`,
    model: (w) => truth(op === '~=' ? w.labels.some((label) => label.startsWith(value)) : w.labels.includes(value) === (op === '=')),
  })),
  fc.record({ op: fc.constantFrom('=', '!='), value: fc.constantFrom('alice', 'ALICE', 'bob') }).map(({ op, value }): Leaf => ({
    text: `author${op}${value}`,
    model: (w) => truth((w.author.toLowerCase() === value.toLowerCase()) === (op === '=')),
  })),
  fc.constant<Leaf>({ text: 'draft', model: (w) => truth(w.draft) }),
  fc.constant<Leaf>({ text: 'conflict', model: (w) => (w.conflict === null ? 0.5 : truth(w.conflict)) }),
  fc.record({ attribute: fc.constantFrom('check-success', 'check-failure'), op: fc.constantFrom('=', '!='), name: fc.constantFrom('ci' as const, 'lint' as const) }).map(
    ({ attribute, op, name }): Leaf => ({
      text: `${attribute}${op}${name}`,
      model: (w) => {
        const equal = checkModel(w.checks[name], attribute === 'check-success' ? ['success'] : ['failure', 'cancelled']);
        return op === '=' ? equal : ((1 - equal) as Truth);
      },
    }),
  ),
  fc.record({ op: fc.constantFrom('=', '!=', '>=', '>', '<=', '<'), value: fc.integer({ min: 0, max: 3 }) }).map(({ op, value }): Leaf => ({
    text: `#approved-reviews-by${op}${value}`,
    model: (w) => truth({ '=': w.approvals === value, '!=': w.approvals !== value, '>=': w.approvals >= value, '>': w.approvals > value, '<=': w.approvals <= value, '<': w.approvals < value }[op]),
  })),
  fc.record({ glob: fc.boolean(), value: fc.constantFrom('a.ts', 'b.md', 'src/c.ts', '*.ts', 'src/*', '**/*.ts') }).map(({ glob, value }): Leaf => ({
    text: `files${glob ? '*=' : '='}${value}`,
    model: (w) => (w.files === null ? 0.5 : truth(w.files.some((path) => (glob && GLOBS[value] ? GLOBS[value](path) : path === value)))),
  })),
);

const negatedLeafArb = fc.tuple(leafArb, fc.boolean()).map(([leaf, negate]): Leaf => (negate ? { text: `-${leaf.text}`, model: (w) => (1 - leaf.model(w)) as Truth } : leaf));

const treeArb: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    negatedLeafArb.map((leaf) => ({ leaf })),
    fc.array(tie('tree'), { maxLength: 4 }).map((all) => ({ all })),
    fc.array(tie('tree'), { maxLength: 4 }).map((any) => ({ any })),
    tie('tree').map((not) => ({ not })),
  ),
})).tree;

const stateArb = fc.option(fc.constantFrom<State>('success', 'failure', 'pending', 'cancelled'), { nil: undefined });
const worldArb: fc.Arbitrary<World> = fc.record({
  labels: fc.subarray(['a', 'b', 'c', 'ab']),
  author: fc.constantFrom('Alice', 'bob', 'carol'),
  draft: fc.boolean(),
  conflict: fc.option(fc.boolean(), { nil: null }),
  checks: fc.record({ ci: stateArb, lint: stateArb }),
  approvals: fc.integer({ min: 0, max: 3 }),
  files: fc.option(fc.subarray(['a.ts', 'b.md', 'src/c.ts', 'src/d/e.ts']), { nil: null }),
});

function snapshotOf(w: World): PullRequestSnapshot {
  const checks = Object.entries(w.checks).flatMap(([name, state]) => (state ? [{ name, state }] : []));
  const reviews = Array.from({ length: w.approvals }, (_, i) => ({ author: `reviewer${i}`, state: 'APPROVED' as const }));
  const files = w.files?.map((path) => ({ path, status: 'modified' as const })) ?? null;
  return pullSnapshot({ labels: w.labels, author: w.author, draft: w.draft, conflict: w.conflict, checks, reviews, files });
}

const raw = (tree: Tree): unknown => ('leaf' in tree ? tree.leaf.text : 'all' in tree ? { and: tree.all.map(raw) } : 'any' in tree ? { or: tree.any.map(raw) } : { not: raw(tree.not) });

/** Every node's truth, depth first, from the model. */
function modelMatches(tree: Tree, w: World, out: Truth[] = []): Truth {
  const index = out.push(0) - 1;
  const value: Truth =
    'leaf' in tree ? tree.leaf.model(w)
    : 'all' in tree ? (Math.min(1, ...tree.all.map((child) => modelMatches(child, w, out))) as Truth)
    : 'any' in tree ? (Math.max(0, ...tree.any.map((child) => modelMatches(child, w, out))) as Truth)
    : ((1 - modelMatches(tree.not, w, out)) as Truth);
  out[index] = value;
  return value;
}

function evaluatedMatches(node: EvaluatedCondition, out: Truth[] = []): Truth[] {
  out.push(node.match === 'true' ? 1 : node.match === 'false' ? 0 : 0.5);
  if (node.kind === 'not') evaluatedMatches(node.condition, out);
  else if (node.kind !== 'leaf') node.conditions.forEach((child) => evaluatedMatches(child, out));
  return out;
}

test('every node of a random tree matches as the reference model says', () => {
  fc.assert(
    fc.property(treeArb, worldArb, (tree, world) => {
      const parsed = parseCondition(raw(tree), ['c']);
      assert.ok(parsed.ok, JSON.stringify(raw(tree)));
      const expected: Truth[] = [];
      modelMatches(tree, world, expected);
      assert.deepEqual(evaluatedMatches(evaluateCondition(parsed.condition, snapshotOf(world), new Date('2024-05-03T12:00:00Z'))), expected);
    }),
    { numRuns: 500 },
  );
});

test('rules evaluated together give what each gives alone (shared reads and leaves change nothing)', () => {
  fc.assert(
    fc.property(fc.array(treeArb, { minLength: 1, maxLength: 6 }), worldArb, (trees, world) => {
      const conditions = trees.map((tree) => {
        const parsed = parseCondition(raw(tree), ['c']);
        assert.ok(parsed.ok);
        return parsed.condition;
      });
      const [snapshot, now] = [snapshotOf(world), new Date('2024-05-03T12:00:00Z')];
      assert.deepEqual(evaluateConditions(conditions, snapshot, now), conditions.map((condition) => evaluateCondition(condition, snapshot, now)));
    }),
    { numRuns: 200 },
  );
});

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/Santiago'];
const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const timeLeafArb = fc.oneof(
  fc.record({ op: fc.constantFrom('<', '<=', '>', '>='), minutes: fc.integer({ min: 0, max: 20_000 }) }).map(({ op, minutes }) => `updated-at${op}${minutes} minutes ago`),
  fc.record({ op: fc.constantFrom('<', '<=', '>', '>=', '=', '!='), offset: fc.integer({ min: -10_000, max: 10_000 }), precise: fc.boolean() }).map(
    ({ op, offset, precise }) => `current-datetime${op}${new Date(Date.parse('2024-05-03T12:00:00Z') + offset * 60_000).toISOString().slice(0, precise ? 23 : 16)}Z`,
  ),
  fc.record({
    op: fc.constantFrom('=', '!='),
    days: fc.option(fc.tuple(fc.constantFrom('Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'), fc.constantFrom('Mon', 'Wed', 'Sun')), { nil: null }),
    times: fc.option(fc.tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 })), { nil: null }),
    zone: fc.constantFrom(...ZONES),
  })
    .filter(({ days, times }) => days !== null || times !== null)
    .map(({ op, days, times, zone }) => {
      const window = times && `${hhmm(Math.min(...times))}-${hhmm(Math.max(...times))}`;
      return `schedule${op}${[days && days.join('-'), window].filter(Boolean).join(' ')}[${zone}]`;
    }),
);

test('nextChangeAt is the first instant the match changes: still until then, different then', () => {
  const snapshot = pullSnapshot({ updatedAt: new Date('2024-05-01T08:00:00Z') });
  fc.assert(
    fc.property(timeLeafArb, fc.integer({ min: 0, max: 60 * 24 * 400 }), fc.double({ min: 0, max: 1, noNaN: true }), (text, minute, fraction) => {
      const parsed = parseCondition(text, ['c']);
      assert.ok(parsed.ok, text);
      const now = Date.parse('2024-01-01T00:00:00Z') + minute * 60_000 + Math.floor(fraction * 60_000);
      const matchAt = (instant: number) => evaluateCondition(parsed.condition, snapshot, new Date(instant)).match;
      const { match, nextChangeAt } = evaluateCondition(parsed.condition, snapshot, new Date(now));
      const until = nextChangeAt?.getTime() ?? now + 8 * 86_400_000;
      assert.ok(until > now, `${text} at ${new Date(now).toISOString()}: next change not after now`);
      for (const instant of [now + 1, now + Math.floor((until - now) * fraction), until - 1].filter((t) => t > now && t < until)) {
        assert.equal(matchAt(instant), match, `${text}: changed at ${new Date(instant).toISOString()}, before ${nextChangeAt?.toISOString()}`);
      }
      if (nextChangeAt) assert.notEqual(matchAt(until), match, `${text}: unchanged at ${nextChangeAt.toISOString()} (now ${new Date(now).toISOString()})`);
    }),
    { numRuns: 500 },
  );
});

const VALUE_PIECES = ['main', '@acme/core', '@core', '{{ author }}', '^src/', '**/*.ts', '{a,b}', '[!x]', '(a)\\1', '7 days ago', '2024-05-01T09:30[Europe/Paris]', 'Mon-Fri 09:00-17:30[Europe/Paris]', '2024-01-01/2024-01-02', '42', '-1', 'write', '"quoted"', 'XX', '\\', '[', '{', ' ', '/'];
const leafTextArb = fc
  .record({
    prefix: fc.constantFrom('', '-', '#', '-#', '--', '# '),
    name: fc.oneof(fc.constantFrom(...Object.keys(ATTRIBUTE_SPECS)), fc.string({ maxLength: 12 })),
    operator: fc.constantFrom('', '=', ':', '==', '!=', '≠', '~=', '*=', '>=', '≥', '>', '<=', '≤', '<', ' = ', '=>'),
    value: fc.array(fc.oneof(fc.constantFrom(...VALUE_PIECES), fc.string({ maxLength: 8 })), { maxLength: 3 }).map((pieces) => pieces.join('')),
  })
  .map(({ prefix, name, operator, value }) => `${prefix}${name}${operator}${value}`);

test('any text or value parses or is refused with located messages, and whatever parses evaluates', () => {
  fc.assert(
    fc.property(fc.oneof(leafTextArb, fc.jsonValue({ maxDepth: 3 }), fc.string()), worldArb, (raw, world) => {
      const parsed = parseCondition(raw, ['c', 1]);
      if (!parsed.ok) {
        assert.ok(parsed.errors.length > 0);
        for (const error of parsed.errors) assert.ok(error.msg.length > 0 && error.loc[0] === 'c' && error.loc[1] === 1, JSON.stringify(error));
        return;
      }
      const tree = evaluateCondition(parsed.condition, snapshotOf(world), new Date('2024-05-03T12:00:00Z'));
      assert.ok(['true', 'false', 'pending'].includes(tree.match));
    }),
    { numRuns: 2000 },
  );
});
