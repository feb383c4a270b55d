import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * The job engine, version 2 (ADR 0020): every claim writes an owner token, so only the claimant
 * can finish a job; recurring schedules; the rate limiters' log of starts, shared by every
 * process and both drivers.
 */
export const jobsV2 = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('jobs').addColumn('owner', 'text').execute();
      await db.schema.alterTable('jobs').addColumn('started_at', 'text').execute();
      await db.schema.alterTable('jobs').addColumn('finished_at', 'text').execute();
      await db.schema
        .createIndex('jobs_claim')
        .on('jobs')
        .columns(['queue', 'status', 'run_at'])
        .execute();
      await db.schema
        .createTable('job_schedules')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('queue', 'text', (c) => c.notNull())
        .addColumn('cron', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('next_run_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('job_rate_events')
        .addColumn('id', idType, id)
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('job_rate_events_key_at')
        .on('job_rate_events')
        .columns(['key', 'at'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('job_rate_events').ifExists().execute();
      await db.schema.dropTable('job_schedules').ifExists().execute();
      await db.schema.dropIndex('jobs_claim').ifExists().execute();
      for (const c of ['finished_at', 'started_at', 'owner'])
        await db.schema.alterTable('jobs').dropColumn(c).execute();
    },
  };
};
