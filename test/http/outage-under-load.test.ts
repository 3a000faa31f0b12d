// A database outage under load (issue #9), on a private PostgreSQL the test starts itself
// (initdb into a temporary directory, its own port), so stopping it disturbs nothing else.
// The real process takes sustained writes and reads; the database is stopped for several
// seconds; meanwhile every request answers 503 with Retry-After and the process stays up; it
// serves normally within seconds of the database's return, and no acknowledged write is lost.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrivatePostgres } from '../support/private-postgres.ts';
import { SERVICE_TOKEN } from '../support/test-app.ts';
import { startSwitchyard, type SwitchyardProcess } from '../support/switchyard-process.ts';
import { LOAD_REPOSITORY, WriteLedger, runWriteLoad, verifyLedger, type Outcome } from '../support/write-load.ts';

const available = await PrivatePostgres.available();
const OUTAGE_MS = 5_000;
/** How soon after the database is back writes must succeed again. */
const RECOVERY_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isWrite = (o: Outcome) => o.kind !== 'read';
const summary = (outcomes: Outcome[]) => {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(String(o.status || o.error), (counts.get(String(o.status || o.error)) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k}×${n}`).join(' ');
};

describe('PostgreSQL outage under load', { skip: available ? false : 'PostgreSQL server binaries are not installed' }, () => {
  let database: PrivatePostgres | undefined;
  let server: SwitchyardProcess | undefined;
  after(async () => {
    await server?.kill();
    await database?.destroy();
  });

  test('503 with Retry-After while the database is down, the process stays up, recovery within seconds, nothing acknowledged lost', { timeout: 120_000 }, async (t) => {
    database = await PrivatePostgres.create();
    await database.start();
    server = await startSwitchyard({ DATABASE_URL: database.url });
    const base = server.baseUrl;
    assert.equal((await fetch(`${base}/v1/admin/repos/${LOAD_REPOSITORY}`, { method: 'PUT', headers: { authorization: `Bearer ${SERVICE_TOKEN}` } })).status, 201);

    const ledger = new WriteLedger();
    let stopLoad!: () => void;
    const load = runWriteLoad({ baseUrl: () => base, ledger, until: new Promise<void>((resolve) => (stopLoad = resolve)), stopOnNoAnswer: false, readers: 2 });
    await sleep(1_500);
    const beforeOutage = ledger.acknowledged();

    await database.stop();
    const down = Date.now();
    const probes: { healthz: number; readyz: number; retryAfter: string | null }[] = [];
    while (Date.now() - down < OUTAGE_MS) {
      const healthz = await fetch(`${base}/healthz`).then((r) => r.status, () => 0);
      const ready = await fetch(`${base}/readyz`).then((r) => ({ status: r.status, retryAfter: r.headers.get('retry-after') }), () => ({ status: 0, retryAfter: null }));
      probes.push({ healthz, readyz: ready.status, retryAfter: ready.retryAfter });
      await sleep(250);
    }
    const restarting = Date.now();
    await database.start();
    const up = Date.now();
    const deadline = up + RECOVERY_MS;
    while (!ledger.outcomes.some((o) => isWrite(o) && o.at >= up && o.status >= 200 && o.status < 300) && Date.now() < deadline) await sleep(50);
    const recovered = ledger.outcomes.filter((o) => isWrite(o) && o.at >= up && o.status >= 200 && o.status < 300).map((o) => o.end).sort((a, b) => a - b)[0];
    await sleep(2_000);
    const afterRecovery = Date.now();
    await sleep(1_000);
    stopLoad();
    await load;

    const during = ledger.outcomes.filter((o) => o.at >= down + 500 && o.end <= restarting);
    const tail = ledger.outcomes.filter((o) => o.at >= afterRecovery);
    t.diagnostic(`before: ${summary(ledger.outcomes.filter((o) => o.end < down))}; during: ${summary(during)}; after recovery: ${summary(tail)}; recovered ${recovered === undefined ? 'never' : `${recovered - up} ms`} after the database was back`);

    assert.ok(beforeOutage > 0, 'writes were acknowledged before the outage');
    assert.deepEqual(ledger.outcomes.filter((o) => o.status === 0).slice(0, 5), [], 'every request was answered: the process stayed up');
    assert.deepEqual(ledger.outcomes.filter((o) => o.status >= 500 && o.status !== 503).slice(0, 5), [], 'no 5xx but 503');
    assert.deepEqual(ledger.outcomes.filter((o) => o.status === 503 && o.retryAfter === null).slice(0, 5), [], 'every 503 carries Retry-After');
    assert.ok(during.length >= 20, `load continued through the outage (${during.length} requests)`);
    assert.deepEqual(during.filter((o) => o.status !== 503).slice(0, 5), [], 'while the database is down, every request answers 503');
    assert.ok(probes.every((p) => p.healthz === 200), '/healthz stays 200 throughout');
    assert.ok(probes.slice(2).every((p) => p.readyz === 503 && p.retryAfter !== null), '/readyz answers 503 with Retry-After');
    assert.ok(recovered !== undefined && recovered - up <= RECOVERY_MS, 'writes succeed again within seconds of the database coming back');
    assert.ok(tail.length > 0 && tail.every((o) => o.status >= 200 && o.status < 300), `after recovery, every request succeeds: ${summary(tail)}`);
    assert.equal(server.child.exitCode, null, 'the process is still running');

    const problems = await verifyLedger(base, ledger);
    assert.deepEqual(problems.slice(0, 10), [], `${problems.length} acknowledged writes lost`);
    assert.equal(await server.stop(), 0);
    server = undefined;
  });
});
