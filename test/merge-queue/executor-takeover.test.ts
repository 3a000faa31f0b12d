// Takeover (issue 15, DESIGN §10): two `switchyard serve` processes on one PostgreSQL drive the
// same repository's queue, one at a time under a lease. The holder (merge_queues.lease_holder
// names `switchyard-<pid>-…`) is SIGKILLed while batches are being checked; the other takes the
// queue over within 30 s of the kill, as the design promises with the default timings (lease
// 15 s, tick 1 s), and finishes it: every pull request merged once, after its checks passed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { postgresAvailable, privateSchemaUrl } from '../support/backends.ts';
import { freePort, type SwitchyardProcess } from '../support/switchyard-process.ts';
import { QueueScene, queueDone, queueProblems, readLog, registerRepository, startQueueServer, until } from '../support/merge-queue-process.ts';

const TAKEOVER_BOUND_MS = 30_000;

test('the holder of a queue is SIGKILLed: the other process takes the queue over within 30 s and finishes it', { timeout: 600_000, skip: !(await postgresAvailable()) && 'PostgreSQL does not answer' }, async (t) => {
  const { url, drop } = await privateSchemaUrl();
  const scene = await QueueScene.start({ ciDelayMs: 1_500 });
  const db = new pg.Client({ connectionString: url });
  const servers: SwitchyardProcess[] = [];
  try {
    const ports = [await freePort(), await freePort()];
    // The default timings: what an operator gets, and what the 30 s promise is about.
    servers.push(...(await Promise.all(ports.map((port) => startQueueServer(scene, { DATABASE_URL: url }, port)))));
    // Both hear of pull requests and checks; comments reach the first only (else both would act on them).
    scene.subscribe(ports[0]!);
    scene.subscribe(ports[1]!, ['pull_request', 'push', 'check_run', 'check_suite', 'status']);
    await db.connect();
    await registerRepository(servers[0]!.baseUrl);
    const pulls = await scene.openPulls(4);
    await scene.queueByComment(pulls);

    // Kill the holder once a batch is being checked on the platform.
    await until('a check pull request', async () => scene.botMutations().some((r) => r.method === 'POST' && r.url.endsWith('/pulls') && r.status === 201), 120_000);
    const leaseHolder = async () => (await db.query<{ lease_holder: string | null }>('SELECT lease_holder FROM merge_queues')).rows.map((row) => row.lease_holder);
    const holder = await until('a lease holder', async () => (await leaseHolder())[0] ?? undefined, 30_000);
    const holderPid = Number(/^switchyard-(\d+)-/.exec(holder)?.[1]);
    const victim = servers.find((server) => server.child.pid === holderPid);
    const survivor = servers.find((server) => server !== victim)!;
    assert.ok(victim, `the lease holder ${holder} is one of the two processes (${servers.map((s) => s.child.pid).join(', ')})`);
    const [{ lease_until: leaseUntil }] = (await db.query<{ lease_until: Date }>('SELECT lease_until FROM merge_queues')).rows as [{ lease_until: Date }];
    const killedAt = Date.now();
    await victim.kill();
    t.diagnostic(`the killed holder's lease had ${leaseUntil.getTime() - killedAt} ms left (renewed ${15_000 - (leaseUntil.getTime() - killedAt)} ms before the kill)`);
    const mutationsBefore = scene.lastSeq();

    const taken = await until('the other process to hold the lease', async () => (await leaseHolder()).every((h) => h?.startsWith(`switchyard-${survivor.child.pid}-`)), TAKEOVER_BOUND_MS + 30_000, 100);
    const takeoverMs = Date.now() - killedAt;
    assert.ok(taken);
    const firstAction = await until('the other process to act on the platform', async () => scene.botMutations(mutationsBefore)[0], 120_000, 100);
    t.diagnostic(`lease taken over ${takeoverMs} ms after the kill; first platform change by the new holder ${firstAction.receivedAt - killedAt} ms after it (${firstAction.method} ${firstAction.url})`);
    assert.ok(takeoverMs <= TAKEOVER_BOUND_MS, `taken over after ${takeoverMs} ms, promised within ${TAKEOVER_BOUND_MS}`);

    const log = await until('the queue to finish', async () => {
      const events = await readLog(survivor.baseUrl);
      return (await queueDone(scene, events)) && events;
    }, 180_000, 500);
    assert.deepEqual(await queueProblems(scene, log), []);
    assert.ok(pulls.every((pull) => scene.platform.pullRequest('acme/widgets', pull.number).merged), 'every pull request merged');
    assert.equal(await survivor.stop(), 0);
  } finally {
    for (const server of servers) await server.kill().catch(() => undefined);
    await db.end().catch(() => undefined);
    await scene.stop().catch(() => undefined);
    await drop().catch(() => undefined);
  }
});
