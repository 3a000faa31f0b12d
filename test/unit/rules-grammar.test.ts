// The condition grammar of DESIGN.md §14: every operator spelling, the - and # modifiers, each
// kind of value, nesting, the bounds, and errors that name their location and say what to write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCondition, parseConditions, attributesOf, referencedTeams, unsupportedAttributes, unsupportedReasons, type Condition, type LeafCondition } from '../../src/domain/rules/index.ts';

function leaf(text: string): LeafCondition {
  const parsed = parseCondition(text, ['conditions', 0]);
  assert.ok(parsed.ok, `${text}: ${JSON.stringify(!parsed.ok && parsed.errors)}`);
  assert.equal(parsed.condition.kind, 'leaf');
  return parsed.condition as LeafCondition;
}

function failure(raw: unknown, loc: (string | number)[] = ['conditions', 0]): { loc: (string | number)[]; msg: string } {
  const parsed = parseCondition(raw, loc);
  assert.equal(parsed.ok, false, `${JSON.stringify(raw)} parsed`);
  return (parsed as { errors: { loc: (string | number)[]; msg: string }[] }).errors[0]!;
}

test('every spelling of every operator', () => {
  const spellings: [string, string][] = [
    ['label=a', '='], ['label:a', '='], ['label==a', '='], ['label!=a', '!='], ['label≠a', '!='], ['label~=^a', '~='], ['label*=a*', '*='],
    ['#label>=1', '>='], ['#label≥1', '>='], ['#label>1', '>'], ['#label<=1', '<='], ['#label≤1', '<='], ['#label<1', '<'],
  ];
  for (const [text, operator] of spellings) assert.equal(leaf(text).operator, operator, text);
});

test('spaces around the operator, quoted values, and operators inside the value', () => {
  assert.deepEqual(leaf('  label  =  ready to merge ').operand, { kind: 'text', value: 'ready to merge' });
  assert.deepEqual(leaf('title = "  padded  "').operand, { kind: 'text', value: '  padded  ' });
  assert.deepEqual(leaf("title='it''s'").operand, { kind: 'text', value: "it''s" });
  assert.deepEqual(leaf('title=a=b').operand, { kind: 'text', value: 'a=b' });
  assert.equal(leaf('  base=main  ').label, 'base=main');
});

test('the - and # modifiers, alone and together', () => {
  assert.deepEqual([leaf('-draft').negate, leaf('-draft').length], [true, false]);
  assert.deepEqual([leaf('#files>3').negate, leaf('#files>3').length], [false, true]);
  assert.deepEqual([leaf('-#files>3').negate, leaf('-#files>3').length], [true, true]);
  assert.deepEqual(leaf('#title<=50').operand, { kind: 'integer', value: 50n });
});

test('boolean attributes take no operator; the others need one', () => {
  assert.equal(leaf('merged').operator, null);
  assert.match(failure('draft=true').msg, /draft is true or false: write draft or -draft/);
  assert.match(failure('title').msg, /title needs an operator and a value/);
  assert.match(failure('#draft').msg, /# does not apply to draft/);
});

test('logins are lower case; teams with and without an organization', () => {
  assert.deepEqual(leaf('author=Alice').operand, { kind: 'text', value: 'alice' });
  assert.deepEqual(leaf('approved-reviews-by=@Acme/Core').operand, { kind: 'team', org: 'acme', slug: 'core' });
  assert.deepEqual(leaf('author!=@bots').operand, { kind: 'team', org: null, slug: 'bots' });
  assert.deepEqual(leaf('sender={{ author }}').operand, { kind: 'author' });
  assert.match(failure('author>@bots').msg, /author compares with a team only with = or !=/);
  assert.match(failure('author=@a/b/c').msg, /write @team or @organization\/team/);
  // Text attributes keep their case: branches and labels are not logins.
  assert.deepEqual(leaf('base=Main').operand, { kind: 'text', value: 'Main' });
});

test('numbers are whole and 64-bit; counts only with #', () => {
  assert.deepEqual(leaf('number>=9007199254740993').operand, { kind: 'integer', value: 9007199254740993n });
  assert.deepEqual(leaf('queue-position=-1').operand, { kind: 'integer', value: -1n });
  assert.match(failure('number>=1.5').msg, /number compares with a whole number such as 2, not 1\.5/);
  assert.match(failure('#files>=some').msg, /#files compares with a whole number/);
  assert.match(failure('commits-behind>0').msg, /commits-behind is only a count: write #commits-behind/);
  assert.match(failure('added-lines<100').msg, /write #added-lines/);
  assert.equal(leaf('#commits-behind=0').attribute, 'commits-behind');
  assert.match(failure('number~=4.*').msg, /number does not take the operator ~=; it takes =, !=, >=, >, <=, </);
});

test('times: timestamps with and without a zone, relative times; only ordering, never negated', () => {
  assert.deepEqual(leaf('updated-at<7 days ago').operand, { kind: 'ago', milliseconds: 7 * 86_400_000 });
  assert.deepEqual(leaf('updated-at < 14 days 3 hours 2 minutes ago').operand, { kind: 'ago', milliseconds: ((14 * 24 + 3) * 60 + 2) * 60_000 });
  assert.deepEqual(leaf('created-at>=1 hour ago').operand, { kind: 'ago', milliseconds: 3_600_000 });
  const span = (text: string) => {
    const operand = leaf(text).operand as { start: Date; end: Date };
    return [operand.start.toISOString(), operand.end.toISOString()];
  };
  assert.deepEqual(span('merged-at>=2024-05-01'), ['2024-05-01T00:00:00.000Z', '2024-05-01T23:59:59.999Z']);
  assert.deepEqual(span('merged-at>=2024-05-01T09:30'), ['2024-05-01T09:30:00.000Z', '2024-05-01T09:30:59.999Z']);
  assert.deepEqual(span('merged-at>=2024-05-01T09:30:15Z'), ['2024-05-01T09:30:15.000Z', '2024-05-01T09:30:15.999Z']);
  assert.deepEqual(span('merged-at>=2024-05-01T09:30:15.250-08:00'), ['2024-05-01T17:30:15.250Z', '2024-05-01T17:30:15.250Z']);
  assert.deepEqual(span('merged-at>=2024-07-01T09:30[Europe/Paris]'), ['2024-07-01T07:30:00.000Z', '2024-07-01T07:30:59.999Z']);
  assert.match(failure('updated-at<yesterday').msg, /updated-at compares with a timestamp such as .* or a relative time such as 7 days ago, not yesterday/);
  assert.match(failure('updated-at<2024-02-30').msg, /names a day or time that does not exist/);
  assert.match(failure('updated-at<2024-05-01T09:00[Mars/Olympus]').msg, /not an IANA time zone/);
  assert.match(failure('updated-at<99999 days ago').msg, /at most 36525 days/);
  assert.match(failure('updated-at=2024-05-01').msg, /does not take the operator =/);
  assert.match(failure('-updated-at<7 days ago').msg, /updated-at cannot be negated with -: use the opposite operator, or not:/);
});

test('current-datetime: timestamps, intervals with = and !=, never relative', () => {
  const operand = leaf('current-datetime!=2023-01-01T00:00/2023-01-01T23:59[Europe/Paris]').operand as { start: Date; end: Date };
  assert.deepEqual([operand.start.toISOString(), operand.end.toISOString()], ['2022-12-31T23:00:00.000Z', '2023-01-01T22:59:59.999Z']);
  assert.equal(leaf('current-datetime>=2024-05-01T09:00Z').operand.kind, 'span');
  assert.match(failure('current-datetime=XXXX-07-14T14:00/XXXX-07-14T19:00').msg, /unspecified digits \(XX\)/);
  assert.match(failure('current-datetime=2024-05-02/2024-05-01').msg, /ends before it starts/);
  assert.match(failure('current-datetime=2024-05-02/soon').msg, /the value ends with soon, which is not an ISO 8601 timestamp/);
  assert.match(failure('current-datetime>=7 days ago').msg, /current-datetime is the clock itself/);
});

test('schedules: days, hours, both, a zone; invalid ones say why', () => {
  const schedule = (text: string) => (leaf(text).operand as { schedule: unknown }).schedule;
  assert.deepEqual(schedule('schedule=Mon-Fri 09:00-17:30[Europe/Paris]'), { days: [true, true, true, true, true, false, false], times: { from: 540, to: 1050 }, zone: 'Europe/Paris' });
  assert.deepEqual(schedule('schedule!=SAT-SUN'), { days: [false, false, false, false, false, true, true], times: null, zone: 'UTC' });
  assert.deepEqual(schedule('schedule=09:00-19:00[america/vancouver]'), { days: null, times: { from: 540, to: 1140 }, zone: 'America/Vancouver' });
  assert.deepEqual(schedule('schedule=Fri-Mon,Wednesday'), { days: [true, false, true, false, true, true, true], times: null, zone: 'UTC' });
  assert.match(failure('schedule=Mon-Fri 17:00-09:00').msg, /ends before it starts: split a window across midnight/);
  assert.match(failure('schedule=Mon-Fri 09:00-24:00').msg, /beyond 23:59/);
  assert.match(failure('schedule=Mon-Fry').msg, /names the days "Mon-Fry"/);
  assert.match(failure('schedule=Mon-Fri[Mars/Olympus]').msg, /Mars\/Olympus, which is not an IANA time zone/);
  assert.match(failure('schedule>=Mon').msg, /schedule does not take the operator >=; it takes =, !=/);
  assert.match(failure('-schedule=Mon').msg, /schedule cannot be negated/);
});

test('sender-permission compares with the six permissions', () => {
  assert.deepEqual(leaf('sender-permission>=Write').operand, { kind: 'permission', rank: 3 });
  assert.match(failure('sender-permission=owner').msg, /one of none, read, triage, write, maintain, admin, not owner/);
});

test('regular expressions and globs compile with RE2; what RE2 cannot run in linear time is refused', () => {
  assert.equal(leaf('title~=(?i)^wip').operand.kind, 'regex');
  assert.equal(leaf('files*=src/**/*.{ts,tsx}').operand.kind, 'glob');
  assert.match(failure('title~=(a)\\1').msg, /uses a backreference, which RE2 does not run in linear time/);
  assert.match(failure('title~=foo(?!bar)').msg, /uses lookaround/);
  assert.match(failure('title~=[unclosed').msg, /the regular expression \[unclosed is not valid for RE2 \(missing closing \]/);
  assert.match(failure('files*=src/{a,b').msg, /the glob src\/\{a,b has a \{ without its \}/);
});

test('an unknown attribute is an error that suggests the closest name', () => {
  assert.deepEqual(failure('lable=bug', ['pull_request_rules', 3, 'conditions', 1]), {
    loc: ['pull_request_rules', 3, 'conditions', 1],
    msg: '"lable=bug": lable is not an attribute of conditions: did you mean label?',
  });
  assert.match(failure('check-success-or-neutral=ci').msg, /not an attribute of conditions/);
  assert.match(failure('=foo').msg, /starts with an attribute name/);
  assert.match(failure('label foo').msg, /after label comes an operator \(=, !=, ~=, \*=, >=, >, <= or <\) and a value, not "foo"/);
  assert.match(failure('label=').msg, /label= needs a value after the operator/);
});

test('public attributes Switchyard does not evaluate parse and say why the rule is disabled', () => {
  const parsed = parseConditions(['base=main', 'deployment-success=prod', '#review-threads-unresolved=0', 'github-review-approved', 'commits[*].author=jd', 'check-success=@github-actions/pep8'], ['conditions']);
  assert.ok(parsed.ok);
  assert.deepEqual(unsupportedAttributes(parsed.condition), ['deployment-success', 'review-threads-unresolved', 'github-review-approved', 'commits', 'check-success']);
  assert.ok(unsupportedReasons(parsed.condition).includes('Switchyard does not evaluate the attribute deployment-success'));
  assert.ok(unsupportedReasons(parsed.condition).some((reason) => reason.includes('GitHub App (@github-actions/pep8)')));
  assert.deepEqual(unsupportedAttributes(leaf('base=main')), []);
  assert.match(failure('check-success=@pep8').msg, /check-success names a GitHub App's check as @app-slug\/check-name, not @pep8/);
  // Still held to the public grammar.
  assert.match(failure('github-review-decision*=APP*').msg, /does not take the operator \*=/);
});

test('and, or and not nest; a list is all of its items; locations follow the path', () => {
  const parsed = parseConditions(['base=main', { or: ['label=a', { and: ['-draft', { not: 'merged' }] }] }], ['queue_rules', 0, 'merge_conditions']);
  assert.ok(parsed.ok);
  const shape = (node: Condition): unknown => (node.kind === 'leaf' ? node.label : node.kind === 'not' ? { not: shape(node.condition) } : { [node.kind]: node.conditions.map(shape) });
  assert.deepEqual(shape(parsed.condition), { all: ['base=main', { any: ['label=a', { all: ['-draft', { not: 'merged' }] }] }] });
  const broken = parseConditions(['base=main', { or: ['label=a', { and: ['lable=b', { not: 'title' }] }] }, 7], ['conditions']);
  assert.ok(!broken.ok);
  assert.deepEqual(
    broken.errors.map((error) => error.loc),
    [['conditions', 1, 'or', 1, 'and', 0], ['conditions', 1, 'or', 1, 'and', 1, 'not'], ['conditions', 2]],
  );
  assert.match(broken.errors[2]!.msg, /a condition is text such as label=ready, or an object with one key and, or or not, not the number 7/);
});

test('objects with more than one key, another key, or a non-list are errors at their place', () => {
  assert.deepEqual(failure({ and: [], or: [] }, ['c']), { loc: ['c'], msg: 'a condition object has exactly one key, and, or or not; this one has and, or' });
  assert.match(failure({ any: ['base=main'] }).msg, /this one has any/);
  assert.match(failure({}).msg, /this one has none/);
  assert.deepEqual(failure({ or: 'base=main' }, ['c']), { loc: ['c', 'or'], msg: 'or takes a list of conditions, not the string "base=main"' });
  assert.match(failure(null).msg, /not nothing/);
  assert.equal(parseConditions('base=main' as unknown as unknown[], ['c']).ok, false);
});

test('bounds: a leaf over 1 KiB, nesting deeper than 16, more than 500 leaves in a rule', () => {
  assert.match(failure(`title=${'é'.repeat(510)}`).msg, /this condition is 1026 bytes long, over the limit of 1024: shorten it/);
  assert.ok(parseCondition(`title=${'x'.repeat(1018)}`, ['c']).ok);
  const nest = (depth: number): unknown => (depth === 0 ? 'base=main' : { not: nest(depth - 1) });
  assert.ok(parseCondition(nest(16), ['c']).ok);
  const deep = failure(nest(17), ['c']);
  assert.equal(deep.loc.length, 17);
  assert.match(deep.msg, /nest more than 16 levels deep here: flatten them/);
  assert.ok(parseConditions(Array(500).fill('base=main'), ['c']).ok);
  const many = parseConditions([...Array(400).fill('base=main'), { or: Array(101).fill('label=a') }], ['c']);
  assert.ok(!many.ok);
  assert.deepEqual(many.errors, [{ loc: ['c', 400, 'or', 100], msg: 'a rule has at most 500 conditions and this one has more: split it' }]);
});

test('what the service asks before evaluating: attributes and teams', () => {
  const parsed = parseConditions(['approved-reviews-by=@core', 'author!=@Other/Bots', '#approved-reviews-by>=2', 'files~=^src/', { not: 'review-requested=@core' }], ['c']);
  assert.ok(parsed.ok);
  assert.deepEqual(attributesOf(parsed.condition), ['approved-reviews-by', 'author', 'files', 'review-requested']);
  assert.deepEqual(referencedTeams(parsed.condition, 'Acme'), ['acme/core', 'other/bots']);
});
