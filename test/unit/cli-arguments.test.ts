// The command line's small readers: Link headers, filter flags to query parameters, repository
// and pull request arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkTarget } from '../../src/cli/link-header.ts';
import { logFilterQuery } from '../../src/cli/log-filters.ts';
import { parsePullNumber, parseRepository } from '../../src/cli/repository-argument.ts';
import { CliError } from '../../src/cli/cli-error.ts';

test('the next and prev targets of a Link header', () => {
  const header = '<http://h/v1/repos/a/b/logs?cursor=x%2Cy&per_page=10>; rel="next", <http://h/v1/repos/a/b/logs?cursor=z>; rel="prev"';
  assert.equal(linkTarget(header, 'next'), 'http://h/v1/repos/a/b/logs?cursor=x%2Cy&per_page=10');
  assert.equal(linkTarget(header, 'prev'), 'http://h/v1/repos/a/b/logs?cursor=z');
  assert.equal(linkTarget('<http://h/x>; rel="prev"', 'next'), undefined);
  assert.equal(linkTarget(null, 'next'), undefined);
});

test('filter flags become the query parameters of the same name; --since is counted back from --to or now', () => {
  const now = () => new Date('2026-01-02T03:00:00.000Z');
  assert.deepEqual(logFilterQuery({ pullRequest: ['1', '2'], notEventType: ['action.label'], baseRef: 'main', since: '90m' }, now), {
    pull_request: ['1', '2'],
    not_pull_request: undefined,
    batch_pull: undefined,
    not_batch_pull: undefined,
    event_type: undefined,
    not_event_type: ['action.label'],
    outcome: undefined,
    not_outcome: undefined,
    trigger: undefined,
    not_trigger: undefined,
    base_ref: 'main',
    received_from: '2026-01-02T01:30:00.000Z',
    received_to: '2026-01-02T03:00:00.000Z',
  });
  assert.equal(logFilterQuery({ since: '7d', to: '2026-01-08T00:00:00Z' }, now).received_from, '2026-01-01T00:00:00.000Z');
  assert.throws(() => logFilterQuery({ since: '2 hours' }), (error: CliError) => error.exitCode === 2 && /--since takes a duration/.test(error.message));
  assert.throws(() => logFilterQuery({ since: '2h', from: '2026-01-01T00:00:00Z' }), /--since or --from/);
});

test('owner/repository and 64-bit pull request numbers', () => {
  assert.deepEqual(parseRepository('acme/widgets.js'), { owner: 'acme', repository: 'widgets.js' });
  for (const bad of ['acme', 'acme/', '/w', 'a/b/c', 'ac me/w']) assert.throws(() => parseRepository(bad), CliError, bad);
  assert.equal(parsePullNumber('9223372036854775807'), 9223372036854775807n);
  for (const bad of ['9223372036854775808', '-1', '1e3', '']) assert.throws(() => parsePullNumber(bad), CliError, bad);
});
