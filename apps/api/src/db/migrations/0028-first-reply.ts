import { sql, type Kysely } from 'kysely';

/**
 * `reviews.first_replied_at` (issue 25 item 7): when a review was first seen answered, so the
 * time to reply is the first answer's and not the last edit's. Rows answered already take their
 * reply's time (the best known).
 */
export const firstReply = () => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('reviews').addColumn('first_replied_at', 'text').execute();
    await sql`update reviews set first_replied_at = reply_updated_at where has_reply = 1`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('reviews').dropColumn('first_replied_at').execute();
  },
});
