import { sql } from 'kysely';
import {
  PUBLISHER_STATUS,
  type ReviewMetricRow,
  type ReviewMetricsStatus,
  type ReviewsBefore,
  type StoreReviewSummary,
} from '@tenpo/domain';
import type { Db } from '../../db/kysely';

const GOOGLE = 'google_my_business';

/** PostgreSQL answers counts and sums as strings (bigint, numeric), SQLite as numbers. */
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** Where a store's review metrics stand, and when its copy was last read. */
export type ReviewMetricsState = { status: ReviewMetricsStatus; synced_at: string | null };

/**
 * A Google location chosen and not disconnected: the copy speaks for the store. A connection in
 * error (its grant refused) still shows the copy as of its last reading (`synced_at`).
 */
const stateOf = (
  connection: { entity_id: string | null; status: number } | undefined,
  sync: { first_synced_at: string | null; synced_at: string | null } | undefined,
): ReviewMetricsState => {
  if (!connection?.entity_id || connection.status === PUBLISHER_STATUS.disconnect)
    return { status: 'not_connected', synced_at: null };
  if (!sync?.first_synced_at) return { status: 'not_synced', synced_at: null };
  return { status: 'ready', synced_at: sync.synced_at };
};

export type ReviewMetricsRepo = ReturnType<typeof createReviewMetricsRepo>;

/**
 * The reads of the review metrics (issue 25 item 7) over the `reviews` copy (ADR 0090): a store's
 * reviews of a period for the dashboard and the report, and the overview's per-store summary.
 * `created_at` is Google's ISO createTime, so a range of instants is a range of text on the
 * (store_id, created_at) index.
 */
export function createReviewMetricsRepo(db: Db) {
  return {
    async state(storeId: number): Promise<ReviewMetricsState> {
      const [connection, sync] = await Promise.all([
        db
          .selectFrom('publisher_connections')
          .select(['entity_id', 'status'])
          .where('user_id', '=', storeId)
          .where('publisher_key', '=', GOOGLE)
          .executeTakeFirst(),
        db
          .selectFrom('review_syncs')
          .select(['first_synced_at', 'synced_at'])
          .where('store_id', '=', storeId)
          .executeTakeFirst(),
      ]);
      return stateOf(connection, sync);
    },

    /** The reviews held that were written before `beforeIso`: their count and stars summed. */
    async before(storeId: number, beforeIso: string): Promise<ReviewsBefore> {
      const r = await db
        .selectFrom('reviews')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('n'),
          eb.fn.sum<number | string | null>('star_rating').as('stars'),
        ])
        .where('store_id', '=', storeId)
        .where('created_at', '<', beforeIso)
        .executeTakeFirst();
      return { count: num(r?.n), stars: num(r?.stars) };
    },

    /** The reviews written from `fromIso` (included) to `toIso` (excluded). */
    async written(storeId: number, fromIso: string, toIso: string): Promise<ReviewMetricRow[]> {
      const rows = await db
        .selectFrom('reviews')
        .select(['star_rating', 'created_at', 'has_reply', 'reply_updated_at'])
        .where('store_id', '=', storeId)
        .where('created_at', '>=', fromIso)
        .where('created_at', '<', toIso)
        .execute();
      return rows.map((r) => ({
        star_rating: Number(r.star_rating),
        created_at: r.created_at,
        has_reply: Number(r.has_reply) === 1,
        reply_updated_at: r.reply_updated_at,
      }));
    },

    /**
     * The overview's figures of some stores (a page of a list): the average of every review held,
     * their count, and how many have no reply (the inbox's 未返信). Three queries whatever the
     * number of stores; the reviews' one reads the inbox index alone.
     */
    async summaries(storeIds: readonly number[]): Promise<Map<number, StoreReviewSummary>> {
      const out = new Map<number, StoreReviewSummary>();
      if (storeIds.length === 0) return out;
      const ids = [...storeIds];
      const [connections, syncs, figures] = await Promise.all([
        db
          .selectFrom('publisher_connections')
          .select(['user_id', 'entity_id', 'status'])
          .where('publisher_key', '=', GOOGLE)
          .where('user_id', 'in', ids)
          .execute(),
        db
          .selectFrom('review_syncs')
          .select(['store_id', 'first_synced_at', 'synced_at'])
          .where('store_id', 'in', ids)
          .execute(),
        db
          .selectFrom('reviews')
          .select((eb) => [
            'store_id',
            eb.fn.countAll<number | string>().as('n'),
            eb.fn.sum<number | string | null>('star_rating').as('stars'),
            sql<number | string>`sum(case when has_reply = 0 then 1 else 0 end)`.as('unreplied'),
          ])
          .where('store_id', 'in', ids)
          .groupBy('store_id')
          .execute(),
      ]);
      const connectionOf = new Map(connections.map((c) => [c.user_id, c]));
      const syncOf = new Map(syncs.map((s) => [s.store_id, s]));
      const figuresOf = new Map(figures.map((f) => [Number(f.store_id), f]));
      for (const id of ids) {
        const { status } = stateOf(connectionOf.get(id), syncOf.get(id));
        const f = figuresOf.get(id);
        const n = status === 'ready' ? num(f?.n) : 0;
        out.set(id, {
          status,
          average_rating: n === 0 ? null : Math.round((num(f?.stars) / n) * 100) / 100,
          review_count: n,
          unreplied_count: status === 'ready' ? num(f?.unreplied) : 0,
        });
      }
      return out;
    },
  };
}
