// `switchyard queue ...` against a real server on each backend. The merge-queue endpoints
// (DESIGN.md §9) are being built beside this command line: the failure paths run now (whatever
// the server answers, the command prints that detail and exits 1; a server that is down exits 3);
// the success paths run by themselves once the server serves GET …/merge-queue/status (until
// then they are skipped with the reason shown).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';
import { cliFor } from '../support/cli-runner.ts';
import { freePort } from '../support/switchyard-process.ts';

/** Whether the server has the merge-queue read endpoint (a registered repository's status is not a missing route). */
async function servesMergeQueue(server: TestApp): Promise<boolean> {
  await server.request('PUT', '/v1/admin/repos/probe/queue');
  const answer = await server.request('GET', '/v1/repos/probe/queue/merge-queue/status?branch=main');
  return !(answer.status === 404 && /No endpoint/.test(answer.json?.detail ?? ''));
}

const COMMANDS: [string[], string, string, unknown?][] = [
  [['queue', 'status', 'acme/nowhere', '--branch', 'main'], 'GET', '/v1/repos/acme/nowhere/merge-queue/status?branch=main'],
  [['queue', 'show', 'acme/nowhere', '5'], 'GET', '/v1/repos/acme/nowhere/merge-queue/pull/5'],
  [['queue', 'add', 'acme/nowhere', '5', '--priority', 'high'], 'PUT', '/v1/repos/acme/nowhere/merge-queue/pull/5', { priority: 'high' }],
  [['queue', 'remove', 'acme/nowhere', '5'], 'POST', '/v1/repos/acme/nowhere/merge-queue/pull/5/dequeue'],
  [['queue', 'pause', 'acme/nowhere', '--reason', 'release'], 'PUT', '/v1/repos/acme/nowhere/merge-queue/pause', { reason: 'release' }],
  [['queue', 'unpause', 'acme/nowhere'], 'DELETE', '/v1/repos/acme/nowhere/merge-queue/pause'],
];

for (const backend of await backends()) {
  describe(`switchyard queue (${backend})`, () => {
    let server: TestApp;
    let run: ReturnType<typeof cliFor>;
    let ready = false;
    before(async () => {
      server = await startTestApp(backend);
      run = cliFor(server.baseUrl, SERVICE_TOKEN);
      ready = await servesMergeQueue(server);
    });
    after(() => server.close());

    test("an unknown repository: each command prints the API's detail for the same request and exits 1", async () => {
      for (const [args, method, path, body] of COMMANDS) {
        const direct = await server.request(method, path, { body });
        assert.ok(direct.status >= 400, `${method} ${path} answered ${direct.status}`);
        const result = await run(args);
        assert.equal(result.code, 1, args.join(' '));
        assert.equal(result.stderr, `switchyard: ${direct.json.detail} (HTTP ${direct.status})\n`, args.join(' '));
      }
    });

    test('a bad token and a server that is down', async () => {
      const refused = await cliFor(server.baseUrl, 'swy_notarealkeynotarealkeynotarealkey00')(['queue', 'status', 'acme/nowhere']);
      assert.equal(refused.code, 1);
      const down = await cliFor(`http://127.0.0.1:${await freePort()}`, SERVICE_TOKEN)(['queue', 'pause', 'acme/widgets', '--reason', 'x']);
      assert.equal(down.code, 3);
      assert.match(down.stderr, /cannot reach Switchyard at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
      const usage = await run(['queue', 'add', 'acme/widgets', 'five']);
      assert.deepEqual([usage.code, usage.stderr], [2, 'switchyard: "five" is not a pull request number (an integer from 0 to 9223372036854775807)\n']);
    });

    test('pause and unpause a registered repository, read back through the API', async (t) => {
      const probe = await server.request('DELETE', '/v1/repos/probe/queue/merge-queue/pause');
      if (probe.status === 404 && /No endpoint/.test(probe.json?.detail ?? '')) return t.skip('the merge-queue pause is not served by this build yet');
      assert.equal((await server.request('PUT', '/v1/admin/repos/acme/paused')).status, 201);
      assert.equal((await server.request('PUT', '/v1/products/acme/paused', { body: { products: ['merge_queue'] } })).status, 204);
      const paused = await run(['queue', 'pause', 'acme/paused', '--reason', 'release freeze']);
      assert.deepEqual([paused.code, paused.stdout], [0, 'paused: release freeze\n'], paused.stderr);
      const read = await server.request('GET', '/v1/repos/acme/paused/merge-queue/pause');
      assert.deepEqual([read.json.paused, read.json.reason], [true, 'release freeze']);
      const again = await run(['queue', 'pause', 'acme/paused', '--reason', 'still frozen', '--json']);
      assert.deepEqual([JSON.parse(again.stdout).paused, JSON.parse(again.stdout).reason], [true, 'still frozen']);
      const unpaused = await run(['queue', 'unpause', 'acme/paused']);
      assert.deepEqual([unpaused.code, unpaused.stdout], [0, 'unpaused\n'], unpaused.stderr);
      assert.equal((await server.request('GET', '/v1/repos/acme/paused/merge-queue/pause')).json.paused, false);
      const notPaused = await run(['queue', 'unpause', 'acme/paused']);
      assert.equal(notPaused.code, 1);
      assert.match(notPaused.stderr, /\(HTTP 404\)\n$/);
    });

    // SUCCESS PATH: enabled by itself once the merge-queue endpoints (DESIGN.md §9) are served.
    test('add, show, status, pause, unpause, remove', async (t) => {
      if (!ready) return t.skip('merge-queue endpoints (DESIGN.md §9) not served by this build yet');
      assert.equal((await server.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
      assert.equal((await server.request('PUT', '/v1/products/acme/widgets', { body: { products: ['merge_queue'] } })).status, 204);
      assert.equal((await server.request('PUT', '/v1/admin/repos/acme/widgets/pulls/5', { body: { state: 'open', head_sha: 'a'.repeat(40), base_ref: 'main' } })).status, 204);
      const added = await run(['queue', 'add', 'acme/widgets', '5', '--json']);
      assert.equal(added.code, 0, added.stderr);
      assert.equal(JSON.parse(added.stdout).number, 5);
      const shown = await run(['queue', 'show', 'acme/widgets', '5', '--json']);
      assert.equal(shown.code, 0, shown.stderr);
      assert.equal(JSON.parse(shown.stdout).position, 0);
      const status = await run(['queue', 'status', 'acme/widgets', '--branch', 'main', '--json']);
      const body = JSON.parse(status.stdout);
      const queued = [...body.batches.flatMap((b: { pull_requests: { number: number }[] }) => b.pull_requests), ...body.waiting_pull_requests].map((p) => p.number);
      assert.deepEqual(queued, [5]);
      const text = await run(['queue', 'status', 'acme/widgets', '--branch', 'main']);
      assert.match(text.stdout, /^mode serial, running\n/);
      const paused = await run(['queue', 'pause', 'acme/widgets', '--reason', 'release freeze', '--json']);
      assert.equal(paused.code, 0, paused.stderr);
      assert.deepEqual([JSON.parse(paused.stdout).paused, JSON.parse(paused.stdout).reason], [true, 'release freeze']);
      assert.match((await run(['queue', 'status', 'acme/widgets', '--branch', 'main'])).stdout, /^mode serial, paused since .*: release freeze\n/);
      assert.equal((await run(['queue', 'unpause', 'acme/widgets'])).code, 0);
      assert.equal((await run(['queue', 'remove', 'acme/widgets', '5'])).code, 0);
      const gone = await run(['queue', 'show', 'acme/widgets', '5']);
      assert.equal(gone.code, 1);
      assert.match(gone.stderr, /\(HTTP 404\)\n$/);
    });
  });
}
