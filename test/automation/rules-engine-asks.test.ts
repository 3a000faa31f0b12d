// The rules engine's rows of what is due (DESIGN.md §14): an evaluation asked for while one of
// the same pull request runs is not lost when the running one finishes (it read the pull request
// before the change that asked), and an earlier ask still wins over a later timer. The engine runs
// over real storage on both backends; the work it drives is the engine's own interface, here a
// pull request whose evaluation the test holds open.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends, openTestStore } from '../support/backends.ts';
import { until } from '../support/merge-queue-e2e.ts';
import { RulesEngine, type RulesWork } from '../../src/services/automation/rules-engine.ts';

/** Evaluations as they start, each held until the test lets it finish. */
class HeldWork implements RulesWork {
  readonly started: bigint[] = [];
  private releases: (() => void)[] = [];

  async readConfiguration(): Promise<void> {}

  async evaluate(_repository: unknown, number: bigint): Promise<Date | null> {
    this.started.push(number);
    await new Promise<void>((resolve) => this.releases.push(resolve));
    return null;
  }

  releaseAll(): void {
    for (const release of this.releases.splice(0)) release();
  }
}

for (const backend of await backends()) {
  describe(`the rules engine's asks (${backend})`, () => {
    test('an ask that arrives during the evaluation of the same pull request brings another evaluation', async () => {
      const { store, dispose } = await openTestStore(backend);
      const work = new HeldWork();
      const engine = new RulesEngine({ store, work, tickMs: 20 });
      try {
        const { repository } = await store.db.transaction().execute((trx) => store.repositories.register(trx, 'acme', 'widgets', ['workflow_automation']));
        await store.rulesEngine.schedule(repository.id, [7n], new Date(Date.now() - 1));
        engine.start();
        await until('the first evaluation starts', async () => work.started.length === 1);
        // A webhook while it runs: due a little later, as the signals coalesce.
        await store.rulesEngine.schedule(repository.id, [7n], new Date(Date.now() + 50), new Date());
        engine.wake();
        work.releaseAll();
        await until('a second evaluation starts', async () => work.started.length === 2, 5_000);
        work.releaseAll();
      } finally {
        work.releaseAll();
        await engine.stop();
        await dispose();
      }
    });

    test('an earlier ask is kept over a later one that is not due yet', async () => {
      const { store, dispose } = await openTestStore(backend);
      try {
        const { repository } = await store.db.transaction().execute((trx) => store.repositories.register(trx, 'acme', 'widgets', []));
        const now = new Date();
        const soon = new Date(now.getTime() + 1_000);
        await store.rulesEngine.schedule(repository.id, [7n], soon, now);
        await store.rulesEngine.schedule(repository.id, [7n], new Date(now.getTime() + 600_000), now);
        assert.deepEqual(await store.rulesEngine.due(repository.id, soon, 10), [{ number: 7n, dueAt: soon }]);
      } finally {
        await dispose();
      }
    });
  });
}
