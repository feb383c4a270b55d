import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type SqlBool,
  type Selectable,
  type Transaction,
} from 'kysely';
import { PUBLISHER_STATUS, type ReviewListQuery } from '@tenpo/domain';
import type { ProviderReview, ProviderReviewReply } from '../../channels/channel';
import { amongIds, isPostgres } from '../../db/among-ids';
import type { Db } from '../../db/kysely';
import type { Database, ReviewSyncsTable, ReviewsTable } from '../../db/types';
import { keysetPage, type KeysetList, type KeysetRequest, type Seek } from '../../lib/keyset';
import { seekRows, type KeysetOrder } from '../../lib/keyset.repo';

export type ReviewsRepo = ReturnType<typeof createReviewsRepo>;
export type ReviewsQueries = ReturnType<typeof queries>;
export type ReviewRow = Selectable<ReviewsTable> & { store_name: string | null };
export type ReviewSyncPatch = Partial<Omit<ReviewSyncsTable, 'store_id' | 'updated_at'>>;
export type ReviewFilter = Omit<ReviewListQuery, 'user_id' | 'limit' | 'page' | 'after' | 'before'>;
/** A page's keys, found in the index before the rows are read. */
type Keys = { id: number; created_at: string };

/**
 * The inbox's order (ADR 0098, amended 2026-11-29): newest review first, ties (one instant,
 * e.g. a sync's import) by id the same way. `reviews_recent` (created_at, id) serves the seek on
 * PostgreSQL, `reviews_store_created` (store_id, created_at, and the rowid) on SQLite.
 */
const NEWEST: KeysetOrder = {
  keys: [sql.ref('r.created_at'), sql.ref('r.id')],
  direction: 'desc',
};
const NEWEST_NAME = 'reviews:created_at,desc';

const GOOGLE = 'google_my_business';
/** The Google row states under which a store's reviews are read (as for its metrics). */
const SYNCED_STATUSES: readonly number[] = [
  PUBLISHER_STATUS.connected,
  PUBLISHER_STATUS.sync,
  PUBLISHER_STATUS.submitted,
];
/** Rows per insert: 20 columns × 50 stays far below SQLite's and PostgreSQL's bind limits. */
const BATCH = 50;

/** The columns a provider's review sets (all but the row's own bookkeeping). */
export const columnsOf = (r: ProviderReview) => ({
  reviewer_name: r.reviewerName,
  reviewer_photo_url: r.reviewerPhotoUrl,
  is_anonymous: r.isAnonymous ? 1 : 0,
  star_rating: r.stars,
  comment: r.comment,
  media: JSON.stringify(
    r.media.map((m) => ({ thumbnail_url: m.thumbnailUrl, video_url: m.videoUrl })),
  ),
  created_at: r.createTime,
  updated_at: r.updateTime,
  reply_url: r.replyUrl,
  ...replyColumns(r.reply),
  first_replied_at: r.reply?.updateTime ?? null,
});

export const replyColumns = (reply: ProviderReviewReply | null) => ({
  has_reply: reply ? 1 : 0,
  reply_comment: reply?.comment ?? null,
  reply_updated_at: reply?.updateTime ?? null,
  reply_state: reply?.state ?? null,
  reply_policy_violation: reply?.policyViolation ?? null,
});

/** `%`, `_` and `\` taken literally in a LIKE pattern (escape `\`). */
const likeText = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A filtered count stops here: the inbox says 「10,000件以上」 past it. */
export const REVIEW_COUNT_CAP = 10_000;

/** No filter but the stores: the count is the stores' held counts (`review_counts`). */
const unfiltered = (f: ReviewFilter) =>
  !f.stars?.length && f.replied === 'all' && !f.date_from && !f.date_to && !f.q;

const queries = (db: Db) => ({
  /** Every store whose Google row has a chosen location and is in a synced state. */
  connectedStores: async (): Promise<number[]> =>
    (
      await db
        .selectFrom('publisher_connections')
        .select('user_id')
        .where('publisher_key', '=', GOOGLE)
        .where('entity_id', 'is not', null)
        .where('status', 'in', [...SYNCED_STATUSES])
        .orderBy('user_id')
        .execute()
    ).map((r) => r.user_id),

  /** The store's Google row when its reviews can be read: a location chosen, a synced state. */
  async googleLocation(storeId: number): Promise<string | null> {
    const row = await db
      .selectFrom('publisher_connections')
      .select(['entity_id', 'status'])
      .where('user_id', '=', storeId)
      .where('publisher_key', '=', GOOGLE)
      .executeTakeFirst();
    return row?.entity_id && SYNCED_STATUSES.includes(row.status) ? row.entity_id : null;
  },

  syncOf: (storeId: number): Promise<ReviewSyncsTable | undefined> =>
    db.selectFrom('review_syncs').selectAll().where('store_id', '=', storeId).executeTakeFirst(),

  async saveSync(storeId: number, patch: ReviewSyncPatch, now: string): Promise<void> {
    await db
      .insertInto('review_syncs')
      .values({
        store_id: storeId,
        location_id: null,
        state: 'idle',
        error: null,
        newest_update: null,
        average_rating: null,
        total_review_count: null,
        first_synced_at: null,
        synced_at: null,
        ...patch,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('store_id').doUpdateSet({ ...patch, updated_at: now }))
      .execute();
  },

  /** Forgets a store's reviews (another location was chosen). */
  async clearStore(storeId: number): Promise<void> {
    await db.deleteFrom('reviews').where('store_id', '=', storeId).execute();
  },

  /**
   * Writes the provider's reviews: a review already held is updated in place (its text, stars
   * or reply changed), a new one inserted. Answers the ids of the rows inserted by this call.
   */
  async upsert(storeId: number, reviews: readonly ProviderReview[], now: string) {
    const inserted: number[] = [];
    for (let i = 0; i < reviews.length; i += BATCH) {
      const batch = reviews.slice(i, i + BATCH);
      const held = new Set(
        (
          await db
            .selectFrom('reviews')
            .select('name')
            .where('store_id', '=', storeId)
            .where(
              'name',
              'in',
              batch.map((r) => r.name),
            )
            .execute()
        ).map((r) => r.name),
      );
      const rows = batch.map((r) => ({
        store_id: storeId,
        name: r.name,
        ...columnsOf(r),
        first_seen_at: now,
      }));
      const out = await db
        .insertInto('reviews')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['store_id', 'name']).doUpdateSet((eb) => ({
            reviewer_name: eb.ref('excluded.reviewer_name'),
            reviewer_photo_url: eb.ref('excluded.reviewer_photo_url'),
            is_anonymous: eb.ref('excluded.is_anonymous'),
            star_rating: eb.ref('excluded.star_rating'),
            comment: eb.ref('excluded.comment'),
            media: eb.ref('excluded.media'),
            created_at: eb.ref('excluded.created_at'),
            updated_at: eb.ref('excluded.updated_at'),
            reply_url: eb.ref('excluded.reply_url'),
            has_reply: eb.ref('excluded.has_reply'),
            reply_comment: eb.ref('excluded.reply_comment'),
            reply_updated_at: eb.ref('excluded.reply_updated_at'),
            // The first answer's time is kept through later edits (time to reply).
            first_replied_at: sql<
              string | null
            >`coalesce(reviews.first_replied_at, excluded.first_replied_at)`,
            reply_state: eb.ref('excluded.reply_state'),
            reply_policy_violation: eb.ref('excluded.reply_policy_violation'),
          })),
        )
        .returning(['id', 'name'])
        .execute();
      for (const r of out) if (!held.has(r.name)) inserted.push(r.id);
    }
    return inserted;
  },

  /** The reviews not yet mailed among `ids`, with their store. */
  unnotified: (ids: readonly number[]) =>
    ids.length === 0
      ? Promise.resolve([] as ReviewRow[])
      : base(db)
          .where('r.id', 'in', [...ids])
          .where('r.notified_at', 'is', null)
          .execute(),

  async markNotified(ids: readonly number[], now: string): Promise<void> {
    if (ids.length)
      await db
        .updateTable('reviews')
        .set({ notified_at: now })
        .where('id', 'in', [...ids])
        .execute();
  },

  /** One page of the stores' reviews and the count of all that match (`inboxPage`). */
  page: (
    storeIds: readonly number[],
    f: ReviewFilter,
    page: number,
    perPage: number,
    cursor: Pick<KeysetRequest, 'after' | 'before'> = {},
  ) => inboxPage(db, storeIds, f, page, perPage, cursor),

  /** The store's reviews whose reply Google still moderates (the oldest first, 20 at most). */
  pendingReplies: (storeId: number) =>
    db
      .selectFrom('reviews')
      .select(['id', 'name'])
      .where('store_id', '=', storeId)
      .where('reply_state', '=', 'pending')
      .orderBy('reply_updated_at')
      .limit(20)
      .execute(),

  /** The store's Google primary category, from its listing copy (`{ id: gcid:…, name }`). */
  async categoryOf(storeId: number): Promise<{ id: string; name: string } | null> {
    const row = await db
      .selectFrom('store_profiles')
      .select('core')
      .where('store_id', '=', storeId)
      .executeTakeFirst();
    if (!row) return null;
    try {
      const c = (JSON.parse(row.core) as { primary_category?: unknown }).primary_category as
        | { name?: string; displayName?: string }
        | null
        | undefined;
      return c?.name
        ? { id: c.name.replace(/^categories\//, ''), name: c.displayName ?? '' }
        : null;
    } catch {
      return null;
    }
  },

  byId: (id: number) => base(db).where('r.id', '=', id).executeTakeFirst(),

  async saveReply(id: number, reply: ProviderReviewReply | null): Promise<void> {
    await db
      .updateTable('reviews')
      .set({
        ...replyColumns(reply),
        ...(reply
          ? {
              first_replied_at: sql<string>`coalesce(first_replied_at, ${reply.updateTime})`,
            }
          : {}),
      })
      .where('id', '=', id)
      .execute();
  },
});

/**
 * One page of the stores' reviews, newest first, and the count of all that match: counted up
 * to REVIEW_COUNT_CAP + 1 (a word in one review in five, 40,000 matches, was 53 ms on
 * PostgreSQL to count exactly; nobody pages past the 10,000th); `total > REVIEW_COUNT_CAP`
 * means "more than". The page is read by `page` or next to a page shown (`after` / `before`,
 * ADR 0098 amended 2026-11-29): the cursor's keys seek the index in the list's order, with
 * every filter applied. The page's ids are found first, from the inbox index alone, and only
 * their rows are read (a deferred join): a late page does not read the rows it skips.
 */
async function inboxPage(
  db: Db,
  storeIds: readonly number[],
  f: ReviewFilter,
  page: number,
  perPage: number,
  cursor: Pick<KeysetRequest, 'after' | 'before'>,
): Promise<KeysetList<ReviewRow> & { total: number }> {
  const postgres = isPostgres(db);
  const where = matching(storeIds, f, postgres);
  // SQLite sorts a search's matches for the page anyway; they are checked against the other
  // filters in the narrow `reviews_search_keys`, not in the table's rows (three times
  // slower), which SQLite picks only with ANALYZE's figures.
  const sqliteSearch = !!f.q && !postgres && sqliteIndexed(f.q.toLowerCase());
  const keys = (
    sqliteSearch
      ? db.selectFrom(
          sql`"reviews" as "r" indexed by "reviews_search_keys"` as unknown as 'reviews as r',
        )
      : db.selectFrom('reviews as r')
  )
    .select(['r.id', 'r.created_at'])
    .where(where);
  const countOf = () => countMatching(db, storeIds, f, matching(storeIds, f, postgres, 'count'));
  const byNumber = !cursor.after && !cursor.before;
  const offset = (page - 1) * perPage;
  // Page 1 is read beside the count, as it always was (keysetPage takes it, from either end);
  // a later page by number waits for the count, to read from the nearer end.
  let early: Promise<Keys[]> | null = null;
  let total: number;
  if (byNumber && sqliteSearch) {
    // The matches are counted in the pass that sorts them (a second pass was a third of the
    // time); past the last page, counted apart.
    const got = await keys
      .select(sql<number>`count(*) over ()`.as('n'))
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(perPage)
      .offset(offset)
      .execute();
    early = Promise.resolve(got);
    total = got[0] ? Number(got[0].n) : await countOf();
  } else if (byNumber && page === 1) {
    early = seekRows(keys, NEWEST, { from: 'start', offset, limit: perPage });
    [total] = await Promise.all([countOf(), early]);
  } else total = await countOf();
  // A capped count is a floor: the list goes on past it, so it is never read from its end.
  const capped = total > REVIEW_COUNT_CAP;
  const shown = capped ? REVIEW_COUNT_CAP : total;
  const read = (seek: Seek): Promise<Keys[]> => {
    if (seek.from === 'end' && (capped || sqliteSearch || early))
      seek = { from: 'start', offset: shown - seek.offset - seek.limit, limit: seek.limit };
    if (seek.from === 'start' && early && seek.offset === offset)
      return early.then((r) => r.slice(0, seek.limit));
    return seekRows(keys, NEWEST, seek);
  };
  const list = await keysetPage(
    { page, perPage, after: cursor.after, before: cursor.before },
    {
      total: shown,
      order: NEWEST_NAME,
      keyTypes: ['string', 'number'],
      keyOf: (r) => [r.created_at, r.id],
      read,
    },
  );
  let ids = list.rows;
  // Past the last page of a capped count, by number: the rows there, as before the cursors.
  if (capped && byNumber && page > list.last_page) {
    ids = await (early ?? seekRows(keys, NEWEST, { from: 'start', offset, limit: perPage }));
    list.from = ids.length ? offset + 1 : null;
    list.to = ids.length ? offset + ids.length : null;
  }
  const rows = ids.length
    ? await base(db)
        .where(
          'r.id',
          'in',
          ids.map((r) => r.id),
        )
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .execute()
    : [];
  return { ...list, rows, total };
}

const base = (db: Db) =>
  db
    .selectFrom('reviews as r')
    .innerJoin('users as u', 'u.id', 'r.store_id')
    .selectAll('r')
    .select('u.store_name');

type ReviewsScope = ExpressionBuilder<Database & { r: ReviewsTable }, 'r'>;

/**
 * The inbox's filters, as one condition over `reviews as r`; for the `count` of all that match
 * it may be cheaper to evaluate (same answer).
 */
const matching =
  (
    storeIds: readonly number[],
    f: ReviewFilter,
    postgres: boolean,
    purpose: 'page' | 'count' = 'page',
  ) =>
  (eb: ReviewsScope): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [amongIds(postgres, 'r.store_id', storeIds)];
    if (f.stars?.length) all.push(eb('r.star_rating', 'in', f.stars));
    if (f.replied === 'replied') all.push(eb('r.has_reply', '=', 1));
    if (f.replied === 'unreplied') all.push(eb('r.has_reply', '=', 0));
    // Tokyo days: a day starts at 15:00 UTC the day before (ISO text compares in order).
    if (f.date_from) all.push(eb('r.created_at', '>=', tokyoDayStart(f.date_from)));
    if (f.date_to) all.push(eb('r.created_at', '<', tokyoDayStart(f.date_to, 1)));
    if (f.q) all.push(textSearch(eb, f.q.toLowerCase(), postgres, purpose));
    return eb.and(all);
  };

/**
 * `q` (lowered) in the comment or the reviewer's name: a substring, ASCII case folded (the LIKE
 * below), found through an index (migration 0024, ADR 0092) with the same answers as the scan.
 */
function textSearch(
  eb: ReviewsScope,
  q: string,
  postgres: boolean,
  purpose: 'page' | 'count',
): Expression<SqlBool> {
  const pattern = likeText(q);
  const like = eb.or([
    sql<SqlBool>`lower(coalesce(r.comment, '')) like ${pattern} escape '\\'`,
    sql<SqlBool>`lower(r.reviewer_name) like ${pattern} escape '\\'`,
  ]);
  const chars = [...q];
  if (postgres) {
    // 3+ characters: the LIKE itself uses the pg_trgm indexes. Fewer have no trigram: the
    // index of one- and two-character substrings finds the rows, the LIKE keeps the answer.
    if (chars.length > 2) return like;
    const grams = sql<SqlBool>`review_grams(lower(coalesce(r.comment, '')) || E'\\n' || lower(r.reviewer_name)) @> array[${q}::text]`;
    // The grams are every one- and two-character substring of the lowered texts, so for a `q`
    // without their separator (a line break) they are the answer alone: the count reads the
    // index and no row's text (80 ms to 15 ms for 16,000 matches; ADR 0096). The page keeps the
    // LIKE: walking the newest rows, PostgreSQL tests it before the costlier grams.
    if (purpose === 'count' && !q.includes('\n')) return grams;
    return eb.and([grams, like]);
  }
  // SQLite: `reviews_search` holds the same lowered text, so its answer is the LIKE's.
  if (!sqliteIndexed(q)) return like;
  if (chars.length > 2)
    return sql<SqlBool>`r.id in (select rowid from reviews_search where reviews_search match ${`"${q.replaceAll('"', '""')}"`})`;
  // Every one- or two-character substring begins a trigram of the text: the terms that begin
  // with `q`, from the vocabulary, are where it occurs.
  return sql<SqlBool>`r.id in (select doc from reviews_search_terms where term >= ${q} and term < ${successor(chars)})`;
}

/** SQLite's index answers `q` (lowered): not when it holds U+0001, the index's separator. */
const sqliteIndexed = (q: string) => !q.includes('\u0001') && successor([...q]) !== null;

/** The least text above every text that begins with `chars` (null: none to write). */
function successor(chars: string[]): string | null {
  const last = chars.at(-1)?.codePointAt(0);
  if (last === undefined || last === 0x10ffff) return null;
  const next = last === 0xd7ff ? 0xe000 : last + 1;
  return chars.slice(0, -1).join('') + String.fromCodePoint(next);
}

/** The instant a Tokyo day (plus `days`) starts, as ISO text. */
function tokyoDayStart(day: string, days = 0): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days) - 9 * 3_600_000).toISOString();
}

export function createReviewsRepo(db: Db) {
  return {
    ...queries(db),
    transaction: <T>(fn: (repo: ReviewsQueries, trx: Transaction<Database>) => Promise<T>) =>
      db.transaction().execute((trx) => fn(queries(trx), trx)),
  };
}

/**
 * How many of the stores' reviews match: without a filter the stores' held counts
 * (`review_counts`, kept exact by triggers, ADR 0092); with one, counted up to
 * REVIEW_COUNT_CAP + 1.
 */
async function countMatching(
  db: Db,
  storeIds: readonly number[],
  f: ReviewFilter,
  where: ReturnType<typeof matching>,
): Promise<number> {
  const row = unfiltered(f)
    ? await db
        .selectFrom('review_counts')
        .where('store_id', 'in', [...storeIds])
        .select((eb) => eb.fn.sum<number | string | null>('n').as('n'))
        .executeTakeFirst()
    : await db
        .selectFrom((eb) =>
          eb
            .selectFrom('reviews as r')
            .where(where)
            .select(sql<number>`1`.as('one'))
            .limit(REVIEW_COUNT_CAP + 1)
            .as('m'),
        )
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst();
  return Number(row?.n ?? 0);
}
