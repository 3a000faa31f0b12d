// The executor's steps on a stored merge queue, without a hosting platform: start what the plan
// starts (checks running at once), then pass a running batch and merge what may merge. Each step
// is one QueueSession, as the executor writes it, so the API and the activity log see it as they
// would see a real run.
import { applyBatchResult, markChecksStarted, mergeBatch, startBatches } from '../../src/domain/merge-queue/index.ts';
import { QueueSession } from '../../src/services/merge-queue/queue-session.ts';
import type { TestApp } from './test-app.ts';

async function inSession(t: TestApp, owner: string, name: string, baseRef: string, act: (session: QueueSession, now: number) => Promise<void>): Promise<void> {
  const repository = await t.store.repositories.identify(owner, name);
  if (!repository) throw new Error(`${owner}/${name} is not registered`);
  const now = Date.now();
  await t.store.db.transaction().execute(async (trx) => {
    const session = await QueueSession.open(t.store, trx, repository, baseRef, { trigger: 'merge queue', now });
    await act(session, now);
    await session.finish();
  });
}

/** Starts the batches the plan starts now, their checks running at once. */
export function startPlannedBatches(t: TestApp, owner: string, name: string, baseRef = 'main'): Promise<void> {
  return inSession(t, owner, name, baseRef, async (session, now) => {
    await session.apply(startBatches(session.state, session.plan(), now));
    for (const batch of session.state.batches) {
      if (batch.phase === 'preparing') await session.apply(markChecksStarted(session.state, batch.id, now));
    }
  });
}

/** The checks of the running batch holding pull request `number` pass; then what may merge merges. */
export function passAndMerge(t: TestApp, owner: string, name: string, number: number, baseRef = 'main'): Promise<void> {
  return inSession(t, owner, name, baseRef, async (session, now) => {
    const entry = session.state.entries.find((candidate) => candidate.number === BigInt(number));
    const batch = session.state.batches.find((candidate) => candidate.phase === 'running' && entry && candidate.entryIds.includes(entry.id));
    if (!batch) throw new Error(`no running batch holds #${number}`);
    await session.apply(applyBatchResult(session.state, batch.id, { kind: 'passed' }, now));
    for (const id of session.plan().toMerge) await session.apply(mergeBatch(session.state, id, now));
  });
}
