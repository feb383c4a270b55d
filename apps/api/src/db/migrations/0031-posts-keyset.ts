import { sql, type Kysely } from 'kysely';

/**
 * Keyset paging of the posts lists (issue 26, ADR 0098, amended 2026-11-29): the posts of the
 * stores named (one, or an agency's thousands), newest first, ties by id the same way.
 * - `posts_created` (created_at, id): for many stores PostgreSQL reads it in order (backwards
 *   for the newest) and checks each row's store, so page 1, the page next to a cursor and the
 *   last page read a few entries each (1,000 stores' 20,000 posts among 80,000: 5 rows read
 *   and 15 passed over, where it scanned the table and sorted 20,000 rows). It seeks the ties
 *   (`created_at = x and id < y`) too. One store keeps `posts_store_created` (store_id,
 *   created_at), which both databases take for it; SQLite takes that one for many stores as
 *   well (each store's rows, a sort that keeps a page), and this one for the ties.
 * - `post_approvals_state_created` (state, created_at, id): the same for the posts' approval
 *   queue, which lists one state of the stores' requests.
 */
export const postsKeyset = () => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`create index posts_created on posts (created_at, id)`.execute(db);
    await sql`create index post_approvals_state_created on post_approvals (state, created_at, id)`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const name of ['posts_created', 'post_approvals_state_created'])
      await sql`drop index if exists ${sql.id(name)}`.execute(db);
  },
});
