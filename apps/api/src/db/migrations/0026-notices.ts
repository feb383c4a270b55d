import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * In-app notices and how each user hears of new reviews (issue 25 item 2, ADR 0094).
 * - `notices`: one row per recipient and event, read or not; `key` (unique) makes writing it
 *   again (a job's retry) a no-op.
 * - `notice_settings`: a user's choice of review mail (`immediate`, `daily`, `off`; no row is
 *   `immediate`), and when their last daily digest covered up to.
 */
export const notices = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('notices')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('store_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('link', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('read_at', 'text')
        .execute();
      await db.schema
        .createIndex('notices_user')
        .on('notices')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema
        .createTable('notice_settings')
        .addColumn('user_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('review_mail', 'text', (c) => c.notNull().defaultTo('immediate'))
        .addColumn('digest_until', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('notice_settings').ifExists().execute();
      await db.schema.dropTable('notices').ifExists().execute();
    },
  };
};
