import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * `reviews.first_replied_at` (issue 25 item 7): when a review was first seen answered, so the
 * time to reply is the first answer's and not the last edit's. Rows answered already take their
 * reply's time (the best known). `reviews_reply_waits` covers the replied reviews of a range
 * with their two times, so the reports' median reads no table row (PostgreSQL: `include`). It
 * is partial (replied reviews only): a store's other reads keep their own indexes.
 */
export const firstReply = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('reviews').addColumn('first_replied_at', 'text').execute();
    await sql`update reviews set first_replied_at = reply_updated_at where has_reply = 1`.execute(
      db,
    );
    await (
      dialect === 'postgres'
        ? sql`create index reviews_reply_waits on reviews (store_id, created_at) include (first_replied_at) where has_reply = 1`
        : sql`create index reviews_reply_waits on reviews (store_id, created_at, first_replied_at) where has_reply = 1`
    ).execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop index if exists reviews_reply_waits`.execute(db);
    await db.schema.alterTable('reviews').dropColumn('first_replied_at').execute();
  },
});
