// Both backends speak the same SQL: Kysely's PostgreSQL adapter, compiler and introspector with
// our own driver underneath. This is the only place that says so.
import { PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Dialect, type Driver, type Kysely } from 'kysely';

export function postgresFamilyDialect(createDriver: () => Driver): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver,
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db: Kysely<any>) => new PostgresIntrospector(db),
  };
}
