// Reports and head moves of one pull request arriving at the same time (DESIGN.md §5): none
// fails, none is lost, and the pull request ends in the state the rules give for the order in
// which they arrived. On PostgreSQL the requests truly run concurrently.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { backends } from '../support/backends.ts';
import { startTestApp, type TestApp, type TestResponse } from '../support/test-app.ts';
import { sendPullRequest } from '../support/hosting-webhooks.ts';

const REPO = '/v1/repos/acme/widgets';
const sha = (prefix: string, i: number) => `${prefix}${String(i).padStart(4, '0')}`.padEnd(40, '0');

type Kind = 'move' | 'commit' | 'number';
interface Op {
  kind: Kind;
  sha?: string;
  scopes?: string[];
  sent: number;
  received: number;
  response?: TestResponse;
}

/** A fixed shuffle, so a failure can be replayed. */
function shuffled<T>(items: T[], seed = 7): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

for (const backend of await backends()) {
  describe(`concurrent reports and head moves (${backend})`, () => {
    let t: TestApp;
    // PGlite runs one transaction at a time: while a test holds a lock in one, no request can
    // even start, so what a held lock does to others can only be shown on PostgreSQL.
    const onlyPostgres = backend === 'pglite' && 'PGlite runs one transaction at a time';

    const send = (n: number, op: Pick<Op, 'kind' | 'sha' | 'scopes'>, via: number): Promise<TestResponse> => {
      if (op.kind === 'commit') return t.request('PUT', `${REPO}/commits/${op.sha}/scopes`, { body: { scopes: op.scopes } });
      if (op.kind === 'number') return t.request('PUT', `${REPO}/pulls/${n}/scopes`, { body: { scopes: op.scopes } });
      if (via % 2 === 0) return sendPullRequest(t, { owner: 'acme', repository: 'widgets', number: n, head: op.sha! });
      return t.request('PUT', `/v1/admin/repos/acme/widgets/pulls/${n}`, { body: { state: 'open', head_sha: op.sha } });
    };
    const effective = async (n: number) => (await t.request('GET', `${REPO}/pulls/${n}/scopes`)).json;

    before(async () => {
      t = await startTestApp(backend);
      assert.equal((await t.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
    });
    after(() => t.close());

    test('50 at once, where the rules make the order irrelevant: head moves to one commit, its reports, stale reports', async () => {
      const [old, next] = [sha('a', 0), sha('b', 0)];
      assert.equal((await sendPullRequest(t, { owner: 'acme', repository: 'widgets', number: 1, head: old, action: 'opened' })).status, 204);
      await send(1, { kind: 'commit', sha: old, scopes: ['old'] }, 0);
      await send(1, { kind: 'number', scopes: ['by-number'] }, 0);
      const ops = shuffled([
        ...Array.from({ length: 10 }, () => ({ kind: 'move' as const, sha: next })),
        ...Array.from({ length: 20 }, () => ({ kind: 'commit' as const, sha: next, scopes: ['next-a', 'next-b'] })),
        ...Array.from({ length: 20 }, (_, i) => ({ kind: 'commit' as const, sha: old, scopes: [`stale-${i}`] })),
      ]);
      const responses = await Promise.all(ops.map((op, i) => send(1, op, i)));
      assert.deepEqual(responses.map((r) => r.status), Array(50).fill(204), responses.map((r) => r.text).join(''));
      const final = await effective(1);
      assert.deepEqual([final.head_sha, final.scopes, final.source], [next, ['next-a', 'next-b'], 'commit']);
      const oldReport = (await t.request('GET', `${REPO}/commits/${old}/scopes`)).json.scopes;
      assert.match(oldReport[0], /^stale-\d+$/, 'the stale reports were stored, and did not count');
    });

    test('50 overlapping, in a known order of launch: the final state is one that order allows, and nothing is lost', async () => {
      const n = 2;
      assert.equal((await sendPullRequest(t, { owner: 'acme', repository: 'widgets', number: n, head: sha('c', 0), action: 'opened' })).status, 204);
      // Heads move while their reports and reports by number arrive; then, as when CI jobs finish
      // late, more reports by number and reports of commits that are no head (any more).
      const plan = [
        ...shuffled([
          ...Array.from({ length: 10 }, (_, i) => ({ kind: 'move' as const, sha: sha('d', i) })),
          ...Array.from({ length: 10 }, (_, i) => ({ kind: 'commit' as const, sha: sha('d', i), scopes: [`head-${i}`] })),
          ...Array.from({ length: 10 }, (_, i) => ({ kind: 'number' as const, scopes: [`number-${i}`] })),
        ]),
        ...shuffled([
          ...Array.from({ length: 10 }, (_, i) => ({ kind: 'number' as const, scopes: [`late-number-${i}`] })),
          ...Array.from({ length: 10 }, (_, i) => ({ kind: 'commit' as const, sha: sha('e', i), scopes: [`never-a-head-${i}`] })),
        ]),
      ];
      const ops: Op[] = [];
      const pending: Promise<void>[] = [];
      for (const [i, step] of plan.entries()) {
        const op: Op = { ...step, sent: performance.now(), received: Infinity };
        ops.push(op);
        pending.push(send(n, op, i).then((response) => {
          op.received = performance.now();
          op.response = response;
        }));
        await sleep(2); // staggered: some requests finish before later ones start, which constrains the order
      }
      await Promise.all(pending);
      assert.deepEqual(ops.map((op) => op.response!.status), Array(50).fill(204));

      for (const op of ops.filter((o) => o.kind === 'commit')) {
        assert.deepEqual((await t.request('GET', `${REPO}/commits/${op.sha}/scopes`)).json.scopes, op.scopes, 'every commit report is stored');
      }
      assertFollowsArrival(ops, await effective(n));
    });

    test('reports sent together share statements yet each gets its own answer, and each report lands whole', async () => {
      // Six open pull requests and two closed ones, each reported five times at once with scopes
      // of different lengths (batched as JSON arrays), plus as many reports by commit.
      const open = [801, 802, 803, 804, 805, 806];
      const closed = [807, 808];
      for (const n of [...open, ...closed]) {
        assert.equal((await t.request('PUT', `/v1/admin/repos/acme/widgets/pulls/${n}`, { body: { state: closed.includes(n) ? 'closed' : 'open', head_sha: sha('e', n) } })).status, 204);
      }
      const scopesOf = (n: number, k: number) => Array.from({ length: k }, (_, i) => `s${n}-${k}-${i}, "quoted" \\ é`);
      const sends = shuffled([...open, ...closed].flatMap((n) => [0, 1, 2, 3, 4].map((k) => ({ n, k }))));
      const answers = await Promise.all(sends.map(({ n, k }) => t.request('PUT', `${REPO}/pulls/${n}/scopes`, { body: { scopes: scopesOf(n, k), all_scopes: k === 3 } })));
      const commits = await Promise.all(sends.map(({ n, k }) => t.request('PUT', `${REPO}/commits/${sha('f', n)}/scopes`, { body: { scopes: scopesOf(n, k) } })));
      sends.forEach(({ n }, i) => {
        assert.equal(answers[i]!.status, closed.includes(n) ? 409 : 204, `pull ${n}: ${answers[i]!.text}`);
        assert.equal(commits[i]!.status, 204);
      });
      for (const n of open) {
        const row = await t.store.db.selectFrom('pull_scope_reports').selectAll().where('number', '=', String(n)).executeTakeFirstOrThrow();
        const k = row.scopes.length;
        assert.deepEqual([row.scopes, row.all_scopes], [scopesOf(n, k), k === 3], `pull ${n} holds one report as sent`);
        const commit = (await t.request('GET', `${REPO}/commits/${sha('f', n)}/scopes`)).json;
        assert.deepEqual(commit.scopes, scopesOf(n, commit.scopes.length), `commit of ${n} holds one report as sent`);
      }
      assert.equal((await t.store.db.selectFrom('pull_scope_reports').selectAll().where('number', 'in', closed.map(String)).execute()).length, 0, 'nothing written for closed ones');
    });

    test('a pull request whose lock is held delays its own reports only, not the others sent with them', { skip: onlyPostgres }, async () => {
      const held = [911, 912];
      const free = 913;
      for (const n of [...held, free]) assert.equal((await t.request('PUT', `/v1/admin/repos/acme/widgets/pulls/${n}`, { body: { state: 'open', head_sha: sha('d', n) } })).status, 204);
      const repositoryId = (await t.store.repositories.find('acme', 'widgets'))!.id;
      const settled = new Set<number>();
      let reports: Promise<TestResponse[]> | undefined;
      await t.store.db.transaction().execute(async (trx) => {
        for (const n of held) await t.store.pullRequests.lock(trx, repositoryId, BigInt(n));
        reports = Promise.all([...held, free].map((n) => t.request('PUT', `${REPO}/pulls/${n}/scopes`, { body: { scopes: [`p${n}`] } }).finally(() => settled.add(n))));
        const started = Date.now();
        while (!settled.has(free) && Date.now() - started < 3000) await sleep(20);
        assert.ok(settled.has(free), 'the free pull request waited for the others\' locks');
        assert.ok(!held.some((n) => settled.has(n)), 'a held lock was not waited for');
      });
      for (const response of await reports!) assert.equal(response.status, 204, response.text);
      for (const n of [...held, free]) assert.deepEqual((await t.store.db.selectFrom('pull_scope_reports').select('scopes').where('number', '=', String(n)).executeTakeFirstOrThrow()).scopes, [`p${n}`]);
    });

    test('a report by number waits for the pull request\'s lock and sees the close committed meanwhile', { skip: onlyPostgres }, async () => {
      const n = 900;
      assert.equal((await t.request('PUT', `/v1/admin/repos/acme/widgets/pulls/${n}`, { body: { state: 'open', head_sha: sha('c', n) } })).status, 204);
      const repositoryId = (await t.store.repositories.find('acme', 'widgets'))!.id;
      let settled = false;
      let report: Promise<TestResponse> | undefined;
      await t.store.db.transaction().execute(async (trx) => {
        await t.store.pullRequests.lock(trx, repositoryId, BigInt(n));
        report = t.request('PUT', `${REPO}/pulls/${n}/scopes`, { body: { scopes: ['api'] } }).finally(() => (settled = true));
        await sleep(300);
        assert.equal(settled, false, 'the report went ahead without the lock');
        await trx.updateTable('pull_requests').set({ state: 'closed' }).where('repository_id', '=', repositoryId).where('number', '=', String(n)).execute();
      });
      const response = await report!;
      assert.equal(response.status, 409, response.text);
      assert.match(response.json.detail, /closed or merged/);
      assert.equal((await t.store.db.selectFrom('pull_scope_reports').selectAll().where('number', '=', String(n)).execute()).length, 0, 'nothing was written');
    });
  });
}

/**
 * The final state must be the result of some order of arrival consistent with what the client
 * saw: a request sent after another's response arrived after it. The winner must therefore not
 * be followed, for certain, by anything that would have replaced it.
 */
function assertFollowsArrival(ops: Op[], final: { head_sha: string; scopes: string[]; source: string }): void {
  const after = (later: Op, earlier: Op) => later.sent > earlier.received;
  const moves = ops.filter((o) => o.kind === 'move');
  const move = moves.find((o) => o.sha === final.head_sha);
  assert.ok(move, `the head ${final.head_sha} is one the pull request was moved to`);
  for (const other of moves) assert.ok(other === move || !after(other, move), `a move sent after the final one completed was lost`);
  const headReport = ops.find((o) => o.kind === 'commit' && o.sha === final.head_sha)!;
  const byNumber = ops.filter((o) => o.kind === 'number');
  if (final.source === 'pull_request') {
    const winner = byNumber.find((o) => o.scopes![0] === final.scopes[0]);
    assert.ok(winner, `the effective scopes ${final.scopes} were sent by number`);
    for (const other of byNumber) assert.ok(other === winner || !after(other, winner), 'a report by number sent after the winner completed was lost');
    assert.ok(!after(headReport, winner) && !after(move, winner), 'the head commit report counted from after the winning report by number');
  } else {
    assert.equal(final.source, 'commit');
    assert.deepEqual(final.scopes, headReport.scopes, 'the effective commit report is the one of the head');
    const countsFrom = Math.max(headReport.received, move.received);
    for (const other of byNumber) assert.ok(other.sent < countsFrom, 'a report by number sent after the head report counted was lost');
  }
}
