import { runMigrations } from './compose';
import { ConfigError, loadConfig } from './config';

/**
 * `npm run migrate`: brings the database of DATABASE_URL to this build's schema and exits, for a
 * release step before API processes and workers start (ADR 0053). Safe beside API processes that
 * migrate at start: all of them take Kysely's migration lock. It reads the same configuration as
 * the API, so it runs with the same environment.
 */
async function main(): Promise<void> {
  const ran = await runMigrations(loadConfig());
  console.log(
    ran.length > 0
      ? `Migrated: ${ran.join(', ')}`
      : 'The database is up to date: no migration to run.',
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
