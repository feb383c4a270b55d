import { sql, type Kysely } from 'kysely';

/**
 * Keyset paging of the reviews' approval queue (issue 26, ADR 0098, amended 2026-11-29): the
 * requests of the stores named, in a state (`open`: pending or failed), newest first, ties by
 * id the same way. `reply_approvals_created` (created_at, id, state, store_id) is read in the
 * queue's order from the cursor (backwards for the newest), the state and the store checked in
 * the index alone: with `reply_approvals_store` (store_id, state, created_at) a page of many
 * stores was all their requests, sorted. The inbox itself needs none: `reviews_recent`
 * (created_at, id) on PostgreSQL and `reviews_store_created` (store_id, created_at and the
 * rowid) on SQLite serve its seek (migrations 0022, 0024).
 */
export const reviewsKeyset = () => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`create index reply_approvals_created on reply_approvals (created_at, id, state, store_id)`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`drop index if exists reply_approvals_created`.execute(db);
  },
});
