// The rules engine's due rows (DESIGN.md §14: "a pull request is evaluated after any change to
// it"): a change announced while the pull request is being evaluated, from a snapshot read before
// the change, must not be taken away when that evaluation ends, or the Summary keeps showing the
// old state until some later webhook. The same holds for a configuration file pushed while the
// previous push's file is being read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends, openTestStore, type TestStore } from '../support/backends.ts';
import { registerRepository } from '../../src/services/register-repository.ts';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

for (const backend of await backends()) {
  describe(`rules engine due rows (${backend})`, () => {
    let t: TestStore;
    let repositoryId: string;
    before(async () => {
      t = await openTestStore(backend);
      repositoryId = (await registerRepository(t.store, 'acme', 'gadgets')).repository.id;
      await t.store.rulesEngine.configurationReadDone(repositoryId, at(0));
    });
    after(() => t.dispose());

    test('a change asked for during an evaluation is evaluated again once that evaluation is done', async () => {
      const rows = t.store.rulesEngine;
      await rows.schedule(repositoryId, [1n], at(1_000), at(0));
      const [taken] = await rows.due(repositoryId, at(1_000), 10);
      // The webhook of a new change arrives while pull request 1 is being evaluated.
      await rows.schedule(repositoryId, [1n], at(2_050), at(1_050));
      await rows.done(repositoryId, 1n, taken!.dueAt);
      const again = await rows.due(repositoryId, at(1_060), 10);
      assert.deepEqual(again.map((row) => row.number), [1n], 'still due, at once');
      await rows.done(repositoryId, 1n, again[0]!.dueAt);
      assert.deepEqual(await rows.due(repositoryId, at(10_000), 10), []);
    });

    test('changes before the evaluation coalesce into the earliest instant asked', async () => {
      const rows = t.store.rulesEngine;
      await rows.schedule(repositoryId, [2n], at(21_000), at(20_000));
      await rows.schedule(repositoryId, [2n], at(21_500), at(20_500));
      assert.deepEqual(await rows.due(repositoryId, at(20_999), 10), [], 'not due before the first instant');
      const [row] = await rows.due(repositoryId, at(21_000), 10);
      assert.equal(row!.dueAt.getTime(), at(21_000).getTime());
      await rows.done(repositoryId, 2n, row!.dueAt);
      assert.deepEqual(await rows.due(repositoryId, at(30_000), 10), [], 'one evaluation for both changes');
    });

    test('a configuration file pushed while the previous one is being read is read again', async () => {
      const rows = t.store.rulesEngine;
      await rows.scheduleConfigurationRead(repositoryId, at(41_000), undefined, at(40_000));
      const taken = await rows.configurationReadDue(repositoryId, at(41_000));
      await rows.scheduleConfigurationRead(repositoryId, at(42_100), undefined, at(41_100));
      await rows.configurationReadDone(repositoryId, taken!);
      assert.ok(await rows.configurationReadDue(repositoryId, at(41_200)), 'the second push is read');
    });
  });
}
