// Hosting webhooks before any storage: the signature check and what each event asks for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from '../../src/errors.ts';
import { parseHostingEvent } from '../../src/domain/webhooks/parse-hosting-event.ts';
import { signatureMatches, signBody } from '../../src/domain/webhooks/signature.ts';
import { pullRequestPayload } from '../support/hosting-webhooks.ts';

const SECRET = 'unit-secret';
const body = Buffer.from('{"zen":"Keep it logically awesome."}');
const head = 'AbCdEf0123'.repeat(4);

test('a signature matches only the same bytes under the same secret', () => {
  assert.equal(signatureMatches(SECRET, body, signBody(SECRET, body)), true);
  assert.equal(signatureMatches(SECRET, body, signBody(SECRET, body).toUpperCase().replace('SHA256=', 'sha256=')), true);
  assert.equal(signatureMatches(SECRET, Buffer.concat([body, Buffer.from(' ')]), signBody(SECRET, body)), false);
  assert.equal(signatureMatches(SECRET, body, signBody('other-secret', body)), false);
  for (const header of [undefined, '', 'sha256=', 'sha1=' + 'a'.repeat(40), signBody(SECRET, body).slice(0, -1), 'sha256=' + 'z'.repeat(64)]) {
    assert.equal(signatureMatches(SECRET, body, header), false, String(header));
  }
});

test('without a configured secret nothing is accepted', () => {
  assert.equal(signatureMatches(undefined, body, signBody('', body)), false);
  assert.equal(signatureMatches('', body, signBody('', body)), false);
});

test('pull_request actions give the state after the action; the head is lower-cased', () => {
  const base = { owner: 'acme', repository: 'widgets', number: 3, head };
  for (const action of ['opened', 'reopened', 'synchronize', 'edited']) {
    assert.deepEqual(parseHostingEvent('pull_request', pullRequestPayload({ ...base, action, base: 'release' })), {
      kind: 'pull_request',
      repository: { owner: 'acme', name: 'widgets' },
      number: 3n,
      state: 'open',
      headSha: head.toLowerCase(),
      baseRef: 'release',
      updatedAt: undefined,
    });
  }
  const dated = parseHostingEvent('pull_request', pullRequestPayload({ ...base, updatedAt: '2026-11-21T10:01:02+01:00' }));
  assert.equal((dated as { updatedAt: Date }).updatedAt.toISOString(), '2026-11-21T09:01:02.000Z');
  const closed = (merged: boolean) => parseHostingEvent('pull_request', pullRequestPayload({ ...base, action: 'closed', merged }));
  assert.equal((closed(false) as { state: string }).state, 'closed');
  assert.equal((closed(true) as { state: string }).state, 'merged');
});

test("a pull request's page is kept when it is an http(s) address, left out otherwise", () => {
  const described = (url: unknown) => {
    const payload = pullRequestPayload({ owner: 'acme', repository: 'widgets', number: 3, head });
    Object.assign(payload.pull_request as object, { user: { login: 'alice', id: 7 }, html_url: url });
    const event = parseHostingEvent('pull_request', payload);
    return event.kind === 'pull_request' ? event.details : undefined;
  };
  assert.equal(described('https://github.com/acme/widgets/pull/3')?.url, 'https://github.com/acme/widgets/pull/3');
  assert.equal(described('http://ghe.example.com/acme/widgets/pull/3')?.url, 'http://ghe.example.com/acme/widgets/pull/3');
  for (const url of ['javascript:alert(1)', 'acme/widgets/pull/3', '', null, 'https://github.com/a b']) {
    const details = described(url);
    assert.equal(details?.title, 'A change', `${url}: the rest is read`);
    assert.equal(details && 'url' in details, false, `${url}: left out`);
  }
});

test('a pull request number beyond 2^53 stays exact', () => {
  const event = parseHostingEvent('pull_request', pullRequestPayload({ owner: 'acme', repository: 'widgets', number: 9007199254740993n, head }));
  assert.equal((event as { number: bigint }).number, 9007199254740993n);
});

test('other actions and events are ignored without reading the payload further', () => {
  assert.deepEqual(parseHostingEvent('pull_request', { action: 'assigned' }), { kind: 'ignored' });
  assert.deepEqual(parseHostingEvent('ping', { zen: 'Keep it logically awesome.' }), { kind: 'ignored' });
  assert.deepEqual(parseHostingEvent('installation', { action: 'deleted' }), { kind: 'ignored' });
  assert.deepEqual(parseHostingEvent('repository', { action: 'renamed' }), { kind: 'ignored' });
  assert.deepEqual(parseHostingEvent('constructor', {}), { kind: 'ignored' });
});

test('a payload that is not a JSON object is refused whatever the event', () => {
  for (const payload of ['not even an object', [], null, 42]) assert.throws(() => parseHostingEvent('ping', payload), (error: { issues?: { msg: string }[] }) => error.issues?.[0]?.msg === 'must be a JSON object');
});

test('registration events list the repositories to register', () => {
  const installation = { account: { login: 'acme' } };
  assert.deepEqual(parseHostingEvent('installation', { action: 'created', installation, repositories: [{ name: 'a', full_name: 'acme/a' }, { name: 'b' }] }), {
    kind: 'register',
    repositories: [{ owner: 'acme', name: 'a' }, { owner: 'acme', name: 'b' }],
  });
  assert.deepEqual(parseHostingEvent('installation_repositories', { action: 'added', installation, repositories_added: [{ name: 'c', full_name: 'other/c' }] }), {
    kind: 'register',
    repositories: [{ owner: 'other', name: 'c' }],
  });
  assert.deepEqual(parseHostingEvent('repository', { action: 'created', repository: { name: 'd', owner: { login: 'acme' } } }), {
    kind: 'register',
    repositories: [{ owner: 'acme', name: 'd' }],
  });
});

function issuesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    return error.issues.map((issue) => `${issue.loc.join('.')}:${issue.type}`).sort();
  }
  assert.fail('expected a validation error');
}

test('a handled event with a bad payload is a validation error naming each field', () => {
  assert.deepEqual(issuesOf(() => parseHostingEvent('pull_request', [])), ['body:type_error']);
  assert.deepEqual(issuesOf(() => parseHostingEvent('pull_request', { action: 7 })), ['body.action:type_error']);
  const payload = pullRequestPayload({ owner: 'ac_me', repository: 'widgets', number: -1, head: 'xyz', base: '' });
  assert.deepEqual(issuesOf(() => parseHostingEvent('pull_request', payload)), [
    'body.number:int_parsing',
    'body.pull_request.base.ref:string_too_short',
    'body.pull_request.head.sha:string_pattern_mismatch',
    'body.pull_request.number:int_parsing',
    'body.repository.owner.login:string_pattern_mismatch',
  ]);
  const mismatch = { ...pullRequestPayload({ owner: 'acme', repository: 'widgets', number: 4, head }), number: 5 };
  assert.deepEqual(issuesOf(() => parseHostingEvent('pull_request', mismatch)), ['body.number:number_mismatch']);
  const nul = pullRequestPayload({ owner: 'acme', repository: 'widgets', number: 4, head, base: 'ma\u0000in' });
  assert.deepEqual(issuesOf(() => parseHostingEvent('pull_request', nul)), ['body.pull_request.base.ref:string_unicode'], 'text PostgreSQL cannot store');
  assert.deepEqual(issuesOf(() => parseHostingEvent('installation_repositories', { action: 'added', installation: { account: { login: 'acme' } } })), ['body.repositories_added:missing']);
});
