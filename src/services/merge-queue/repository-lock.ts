// Changes to a repository's queue controls run with its row locked, so concurrent changes apply
// one after the other and the events they record replay to the stored state.
import type { Transaction } from 'kysely';
import { ApiError } from '../../errors.ts';
import type { Database } from '../../storage/database.ts';
import type { Repository } from '../../storage/queries/repositories.ts';
import type { Store } from '../../storage/store.ts';

/** Runs `change` on the locked repository row; a repository not registered is a 404. */
export async function withRepositoryLocked<T>(store: Store, owner: string, name: string, change: (trx: Transaction<Database>, repository: Repository) => Promise<T>): Promise<T> {
  return store.db.transaction().execute(async (trx) => {
    const repository = await store.repositories.findForUpdate(trx, owner, name);
    if (!repository) throw new ApiError('repository_not_found');
    return change(trx, repository);
  });
}
