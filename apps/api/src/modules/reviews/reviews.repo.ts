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
import type { Db } from '../../db/kysely';
import type { Database, ReviewSyncsTable, ReviewsTable } from '../../db/types';

export type ReviewsRepo = ReturnType<typeof createReviewsRepo>;
export type ReviewsQueries = ReturnType<typeof queries>;
export type ReviewRow = Selectable<ReviewsTable> & { store_name: string | null };
export type ReviewSyncPatch = Partial<Omit<ReviewSyncsTable, 'store_id' | 'updated_at'>>;
export type ReviewFilter = Omit<ReviewListQuery, 'user_id' | 'limit' | 'page'>;

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

  /**
   * One page of the stores' reviews, newest first, and the count of all that match. The page's
   * ids are found first, from the inbox index alone, and only their rows are read (a deferred
   * join): a late page does not read the rows it skips.
   */
  async page(storeIds: readonly number[], f: ReviewFilter, page: number, perPage: number) {
    const where = matching(storeIds, f);
    const [ids, count] = await Promise.all([
      db
        .selectFrom('reviews as r')
        .select('r.id')
        .where(where)
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      db
        .selectFrom('reviews as r')
        .where(where)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst(),
    ]);
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
    return { rows, total: Number(count?.n ?? 0) };
  },

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

  /** Who is mailed about a store's new reviews: the store, and its agency when it has one. */
  async recipientsOf(storeId: number): Promise<string[]> {
    const store = await db
      .selectFrom('users as s')
      .leftJoin('users as a', 'a.id', 's.agency_id')
      .select(['s.email as store_email', 'a.email as agency_email'])
      .where('s.id', '=', storeId)
      .executeTakeFirst();
    return [store?.store_email, store?.agency_email].filter((e): e is string => !!e);
  },

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
    await db.updateTable('reviews').set(replyColumns(reply)).where('id', '=', id).execute();
  },
});

const base = (db: Db) =>
  db
    .selectFrom('reviews as r')
    .innerJoin('users as u', 'u.id', 'r.store_id')
    .selectAll('r')
    .select('u.store_name');

type ReviewsScope = ExpressionBuilder<Database & { r: ReviewsTable }, 'r'>;

/** The inbox's filters, as one condition over `reviews as r`. */
const matching =
  (storeIds: readonly number[], f: ReviewFilter) =>
  (eb: ReviewsScope): Expression<SqlBool> => {
    const all: Expression<SqlBool>[] = [eb('r.store_id', 'in', [...storeIds])];
    if (f.stars?.length) all.push(eb('r.star_rating', 'in', f.stars));
    if (f.replied === 'replied') all.push(eb('r.has_reply', '=', 1));
    if (f.replied === 'unreplied') all.push(eb('r.has_reply', '=', 0));
    // Tokyo days: a day starts at 15:00 UTC the day before (ISO text compares in order).
    if (f.date_from) all.push(eb('r.created_at', '>=', tokyoDayStart(f.date_from)));
    if (f.date_to) all.push(eb('r.created_at', '<', tokyoDayStart(f.date_to, 1)));
    if (f.q) {
      const pattern = likeText(f.q.toLowerCase());
      all.push(
        eb.or([
          sql<SqlBool>`lower(coalesce(r.comment, '')) like ${pattern} escape '\\'`,
          sql<SqlBool>`lower(r.reviewer_name) like ${pattern} escape '\\'`,
        ]),
      );
    }
    return eb.and(all);
  };

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
