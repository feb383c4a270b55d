import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DbHandle, Dialect } from './kysely';
import { initial } from './migrations/0001-initial';
import { channels } from './migrations/0002-channels';

/** Migrations are listed here in order; each runs on SQLite and PostgreSQL alike. */
const migrations = (dialect: Dialect): Record<string, Migration> => ({
  '0001-initial': initial(dialect),
  '0002-channels': channels(dialect),
});

export async function migrateToLatest({ db, dialect, schema }: DbHandle): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  // With a schema of its own, the bookkeeping tables live there too, not in `public`.
  const migrator = new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
