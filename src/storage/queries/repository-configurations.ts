// The configuration file of each repository as last read, and the last good one, kept in force
// while a newer file fails (DESIGN.md §13).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface ConfigurationError {
  loc: (string | number)[];
  msg: string;
}

export interface StoredConfiguration {
  /** The file last read; null when the default branch has none. */
  source: { path: string; sha: string } | null;
  defaultBranch: string | null;
  valid: boolean;
  errors: ConfigurationError[];
  /** The file in force (the last good one), with the text of the file it extends. */
  good: { path: string; sha: string; text: string; parentText: string | null } | null;
  readAt: Date;
}

export class RepositoryConfigurationQueries {
  constructor(private readonly db: Kysely<Database>) {}

  async find(repositoryId: string, db: Db = this.db): Promise<StoredConfiguration | null> {
    const row = await db.selectFrom('repository_configurations').selectAll().where('repository_id', '=', repositoryId).executeTakeFirst();
    if (!row) return null;
    return {
      source: row.source_path !== null && row.source_sha !== null ? { path: row.source_path, sha: row.source_sha } : null,
      defaultBranch: row.default_branch,
      valid: row.valid,
      errors: JSON.parse(row.errors) as ConfigurationError[],
      good: row.good_path !== null && row.good_sha !== null && row.good_text !== null ? { path: row.good_path, sha: row.good_sha, text: row.good_text, parentText: row.good_parent } : null,
      readAt: row.read_at,
    };
  }

  async save(trx: Transaction<Database>, repositoryId: string, read: StoredConfiguration): Promise<void> {
    const values = {
      source_path: read.source?.path ?? null,
      source_sha: read.source?.sha ?? null,
      default_branch: read.defaultBranch,
      valid: read.valid,
      errors: JSON.stringify(read.errors),
      good_path: read.good?.path ?? null,
      good_sha: read.good?.sha ?? null,
      good_text: read.good?.text ?? null,
      good_parent: read.good?.parentText ?? null,
      read_at: read.readAt,
    };
    await trx
      .insertInto('repository_configurations')
      .values({ repository_id: repositoryId, ...values })
      .onConflict((oc) => oc.column('repository_id').doUpdateSet(values))
      .execute();
  }
}
