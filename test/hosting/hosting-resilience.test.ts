// The hosting client when the platform misbehaves: server errors and dropped connections are
// retried with backoff, a slow answer is cut off and retried, primary (403) and secondary (429)
// rate limits are waited out as long as the platform asks and no longer than the client allows,
// writes that notify people are paced, and what cannot be answered ends as a HostingFailure of
// the right kind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HostingFailure } from '../../src/hosting/hosting-failure.ts';
import type { HostingPlatform } from '../../src/hosting/hosting-platform.ts';
import { FakePlatform } from '../support/fake-platform/fake-platform.ts';
import { FAST_TUNING, hostingClientFor } from '../support/fake-platform/platform-client.ts';

const repo = { owner: 'acme', repo: 'flaky' };
const PULL = /^\/repos\/acme\/flaky\/pulls\/1$/;

describe('hosting client: retries, timeouts and rate limits', () => {
  let platform: FakePlatform;
  let token: string;
  let client: HostingPlatform;
  const asked = () => platform.requestLog.filter((r) => PULL.test(r.url));

  before(async () => {
    platform = await new FakePlatform().start();
    token = platform.createUser('acme').token;
    await platform.createRepository({ owner: 'acme', name: 'flaky' });
    await platform.openPullRequest({ repo: 'acme/flaky', changes: { 'f.txt': 'f\n' } });
    client = hostingClientFor(platform, { kind: 'token', token });
  });
  after(() => platform.stop());

  test('server errors and dropped connections are retried until an answer comes', async () => {
    const before = asked().length;
    platform.faults.add({ path: PULL, times: 1, kind: { status: 502 } });
    platform.faults.add({ path: PULL, times: 1, kind: { dropConnection: true } });
    platform.faults.add({ path: PULL, times: 1, kind: { status: 503 } });
    assert.equal((await client.pullRequest(repo, 1n))!.number, 1n);
    assert.deepEqual(asked().slice(before).map((r) => r.status), [502, -1, 503, 200]);
  });

  test('a platform that keeps failing ends as unavailable after the retries', async () => {
    const before = asked().length;
    platform.faults.add({ path: PULL, times: 4, kind: { status: 500 } });
    await assert.rejects(client.pullRequest(repo, 1n), (error: unknown) => error instanceof HostingFailure && error.kind === 'unavailable' && error.status === 500);
    assert.equal(asked().length - before, 4, 'one try and three retries');
  });

  test('an answer slower than the timeout is given up and asked again', async () => {
    // A read the fake answers from memory, so the retried attempt is quick even on a busy machine.
    const REF = /^\/repos\/acme\/flaky\/git\/ref\//;
    const impatient = hostingClientFor(platform, { kind: 'token', token }, { timeoutMs: 300 });
    const before = platform.requestLog.filter((r) => REF.test(r.url)).length;
    platform.faults.add({ path: REF, times: 1, kind: { delayMs: 3_000 } });
    assert.equal(await impatient.branchHead(repo, 'main'), await platform.branchSha('acme/flaky', 'main'));
    assert.equal(platform.requestLog.filter((r) => REF.test(r.url)).length - before, 2);
  });

  test('a primary rate limit (403, x-ratelimit-remaining 0) is waited out until its reset', async () => {
    const before = asked().length;
    platform.faults.add({ path: PULL, times: 1, kind: { rateLimit: 'primary', resetInSeconds: 2 } });
    assert.equal((await client.pullRequest(repo, 1n))!.number, 1n);
    const [limited, retried] = asked().slice(before);
    assert.deepEqual([limited!.status, retried!.status], [403, 200]);
    // At least the whole seconds to the reset, each worth rateLimitSecondMs in these tests.
    assert.ok(retried!.receivedAt - limited!.receivedAt >= 1 * FAST_TUNING.rateLimitSecondMs!, `${retried!.receivedAt - limited!.receivedAt} ms`);
  });

  test('a secondary rate limit (429) is retried after its Retry-After', async () => {
    const before = asked().length;
    platform.faults.add({ path: PULL, times: 1, kind: { rateLimit: 'secondary', retryAfterSeconds: 3 } });
    assert.equal((await client.pullRequest(repo, 1n))!.number, 1n);
    const [limited, retried] = asked().slice(before);
    assert.deepEqual([limited!.status, retried!.status], [429, 200]);
    assert.ok(retried!.receivedAt - limited!.receivedAt >= 3 * FAST_TUNING.rateLimitSecondMs!, `${retried!.receivedAt - limited!.receivedAt} ms`);
  });

  test('a rate limit longer than the client will wait is reported with its wait, not waited', async () => {
    const patient = hostingClientFor(platform, { kind: 'token', token }, { maxRateLimitWaitSeconds: 30 });
    const before = asked().length;
    platform.faults.add({ path: PULL, times: 1, kind: { rateLimit: 'secondary', retryAfterSeconds: 600 } });
    await assert.rejects(patient.pullRequest(repo, 1n), (error: unknown) => error instanceof HostingFailure && error.kind === 'rate_limited' && error.retryAfterSeconds === 600);
    platform.faults.add({ path: PULL, times: 1, kind: { rateLimit: 'primary', resetInSeconds: 3600 } });
    await assert.rejects(patient.pullRequest(repo, 1n), (error: unknown) => error instanceof HostingFailure && error.kind === 'rate_limited' && error.status === 403);
    assert.equal(asked().length - before, 2, 'neither was retried');
  });

  test('writes that notify people (here: opening pull requests) are paced at the interval the client is tuned to', async () => {
    const paced = hostingClientFor(platform, { kind: 'token', token }, { id: 'paced-notifications', notificationIntervalMs: 300 });
    const heads = ['notify-1', 'notify-2', 'notify-3'];
    for (const head of heads) await platform.push({ repo: 'acme/flaky', branch: head, changes: { [`${head}.txt`]: 'n\n' } });
    const started = performance.now();
    await Promise.all(heads.map((head) => paced.createPullRequest(repo, { title: head, head, base: 'main' })));
    const elapsed = performance.now() - started;
    // The third cannot be sent before two intervals have passed; the throttling plugin's default
    // (3 s apart) would have taken 6 s at least.
    assert.ok(elapsed >= 590 && elapsed < 6000, `three pull requests opened in ${elapsed.toFixed(0)} ms`);
  });

  test('a bad token is unauthorized, not retried', async () => {
    const stranger = hostingClientFor(platform, { kind: 'token', token: 'ghp_not-a-real-token' });
    const before = asked().length;
    await assert.rejects(stranger.pullRequest(repo, 1n), (error: unknown) => error instanceof HostingFailure && error.kind === 'unauthorized');
    assert.equal(asked().length - before, 1);
  });
});
