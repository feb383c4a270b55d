import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * The reviews inbox at 1,000 stores × 200 reviews (issue 25, ADR 0092).
 * - `review_counts`: how many reviews Tenpo holds per store, kept by triggers on `reviews` in the
 *   same transaction as the rows (inserts, deletes, cascades from `users` alike): the inbox's
 *   count without a filter adds up one row per store instead of counting 200,000 index entries.
 * - Text search (`q`, a substring of the comment or the reviewer's name, ASCII case folded):
 *   SQLite: `reviews_search`, an FTS5 table with the trigram tokenizer, contentless with
 *   contentless-delete, keyed on `reviews.id` and kept by triggers. It holds each review's
 *   lowered comment and name, each followed by two U+0001, so that every one- or two-character
 *   substring begins a trigram (found through the `reviews_search_terms` vocabulary);
 *   `reviews_search_keys` holds what the other filters read, so a match is not read in the table.
 *   PostgreSQL: `pg_trgm` GIN indexes on the lowered comment and name (when the extension can
 *   be created: otherwise the search reads without them), and a GIN index on each review's
 *   one- and two-character substrings for the queries too short for trigrams.
 * - PostgreSQL only: `reviews_recent`, the inbox's order (newest first) with the filters'
 *   columns, so that a page across every store reads its first rows, not all of them.
 */
export const reviewSearch = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('review_counts')
      .addColumn('store_id', 'integer', (c) =>
        c.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('n', 'integer', (c) => c.notNull())
      .execute();
    await sql`insert into review_counts (store_id, n)
      select store_id, count(*) from reviews group by store_id`.execute(db);
    if (dialect === 'postgres') await postgres(db);
    else await sqlite(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    if (dialect === 'postgres') {
      for (const t of ['reviews_count_insert', 'reviews_count_delete', 'reviews_count_move'])
        await sql`drop trigger if exists ${sql.id(t)} on reviews`.execute(db);
      for (const f of [
        'review_counts_added',
        'review_counts_removed',
        'review_counts_moved',
        'review_grams',
      ])
        await sql`drop function if exists ${sql.id(f)} cascade`.execute(db);
      for (const i of [
        'reviews_recent',
        'reviews_search_grams',
        'reviews_comment_trgm',
        'reviews_reviewer_trgm',
      ])
        await sql`drop index if exists ${sql.id(i)}`.execute(db);
    } else {
      for (const t of [
        'reviews_count_insert',
        'reviews_count_delete',
        'reviews_count_move',
        'reviews_search_insert',
        'reviews_search_delete',
        'reviews_search_update',
      ])
        await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
      await sql`drop index if exists reviews_search_keys`.execute(db);
      await sql`drop table if exists reviews_search_terms`.execute(db);
      await sql`drop table if exists reviews_search`.execute(db);
    }
    await db.schema.dropTable('review_counts').ifExists().execute();
  },
});

/** What `reviews_search` holds for a row (`r`: `new` or `old`). */
const sqliteBody = (r: 'new') =>
  sql.raw(
    `lower(coalesce(${r}.comment, '')) || char(1, 1) || lower(${r}.reviewer_name) || char(1, 1)`,
  );

async function sqlite(db: Kysely<unknown>) {
  await sql`create trigger reviews_count_insert after insert on reviews begin
      insert into review_counts (store_id, n) values (new.store_id, 1)
        on conflict (store_id) do update set n = n + 1;
    end`.execute(db);
  await sql`create trigger reviews_count_delete after delete on reviews begin
      update review_counts set n = n - 1 where store_id = old.store_id;
    end`.execute(db);
  await sql`create trigger reviews_count_move after update of store_id on reviews
    when old.store_id is not new.store_id begin
      update review_counts set n = n - 1 where store_id = old.store_id;
      insert into review_counts (store_id, n) values (new.store_id, 1)
        on conflict (store_id) do update set n = n + 1;
    end`.execute(db);
  // Case-sensitive trigrams of the text lowered as the query lowers it (SQLite's lower(): ASCII),
  // so a term found in the vocabulary is the query's own text, not Unicode case folding's.
  await sql`create virtual table reviews_search using fts5(
      body, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1
    )`.execute(db);
  await sql`create virtual table reviews_search_terms using fts5vocab(reviews_search, instance)`.execute(
    db,
  );
  await sql`insert into reviews_search (rowid, body)
      select new.id, ${sqliteBody('new')} from reviews as new`.execute(db);
  // The search's rows are checked against the inbox's other filters in this narrow index, not
  // in the table's rows (a third of the time, bench/reviews.ts).
  await sql`create index reviews_search_keys
      on reviews (id, store_id, created_at, has_reply, star_rating)`.execute(db);
  await sql`create trigger reviews_search_insert after insert on reviews begin
      insert into reviews_search (rowid, body) values (new.id, ${sqliteBody('new')});
    end`.execute(db);
  await sql`create trigger reviews_search_delete after delete on reviews begin
      delete from reviews_search where rowid = old.id;
    end`.execute(db);
  await sql`create trigger reviews_search_update after update of comment, reviewer_name on reviews
    when old.comment is not new.comment or old.reviewer_name is not new.reviewer_name begin
      delete from reviews_search where rowid = old.id;
      insert into reviews_search (rowid, body) values (new.id, ${sqliteBody('new')});
    end`.execute(db);
}

async function postgres(db: Kysely<unknown>) {
  // Statement triggers with transition tables: a batch of 50 rows (or a bench's 200,000) is one
  // update per store, not one per row.
  await sql`create function review_counts_added() returns trigger language plpgsql as $$
    begin
      insert into review_counts (store_id, n)
        select store_id, count(*) from added group by store_id
        on conflict (store_id) do update set n = review_counts.n + excluded.n;
      return null;
    end $$`.execute(db);
  await sql`create function review_counts_removed() returns trigger language plpgsql as $$
    begin
      update review_counts c set n = c.n - g.k
        from (select store_id, count(*) as k from gone group by store_id) g
        where c.store_id = g.store_id;
      return null;
    end $$`.execute(db);
  await sql`create function review_counts_moved() returns trigger language plpgsql as $$
    begin
      update review_counts set n = n - 1 where store_id = old.store_id;
      insert into review_counts (store_id, n) values (new.store_id, 1)
        on conflict (store_id) do update set n = review_counts.n + 1;
      return null;
    end $$`.execute(db);
  await sql`create trigger reviews_count_insert after insert on reviews
    referencing new table as added for each statement
    execute function review_counts_added()`.execute(db);
  await sql`create trigger reviews_count_delete after delete on reviews
    referencing old table as gone for each statement
    execute function review_counts_removed()`.execute(db);
  await sql`create trigger reviews_count_move after update of store_id on reviews
    for each row when (old.store_id is distinct from new.store_id)
    execute function review_counts_moved()`.execute(db);

  await sql`create index reviews_recent on reviews (created_at, id)
    include (store_id, has_reply, star_rating)`.execute(db);

  // One- and two-character substrings (a query of 1–2 characters has no trigram).
  await sql`create function review_grams(t text) returns text[]
    language sql immutable strict parallel safe as $$
      select array(select distinct substr(t, i, k)
        from generate_series(1, length(t)) as i, (values (1), (2)) as g(k))
    $$`.execute(db);
  await sql`create index reviews_search_grams on reviews
    using gin (review_grams(lower(coalesce(comment, '')) || E'\n' || lower(reviewer_name)))`.execute(
    db,
  );

  // pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it. It goes to
  // `public` (not a schema of the moment's search path, which a test drops); where it cannot be
  // created the search works without its indexes (a scan).
  await sql`do $$ begin
      if not exists (select 1 from pg_extension where extname = 'pg_trgm') then
        begin
          create extension pg_trgm with schema public;
        exception when others then
          raise notice 'pg_trgm unavailable (%): text search without trigram indexes', sqlerrm;
        end;
      end if;
    end $$`.execute(db);
  const ext = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const schema = ext.rows[0]?.schema;
  if (schema) {
    const ops = sql.id(schema, 'gin_trgm_ops');
    await sql`create index reviews_comment_trgm on reviews
      using gin (lower(coalesce(comment, '')) ${ops})`.execute(db);
    await sql`create index reviews_reviewer_trgm on reviews
      using gin (lower(reviewer_name) ${ops})`.execute(db);
  }
}
