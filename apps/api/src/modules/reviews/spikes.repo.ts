import type { Db } from '../../db/kysely';

export type SpikesRepo = ReturnType<typeof createSpikesRepo>;

/** The reads of the low-rating burst check (reviews.spikes.ts). */
export function createSpikesRepo(db: Db) {
  const low = (storeId: number) =>
    db.selectFrom('reviews').where('store_id', '=', storeId).where('star_rating', '<=', 2);
  return {
    /** ★1–2 reviews written since `since`, newest first. */
    recentLow: (storeId: number, since: string) =>
      low(storeId)
        .select(['id', 'star_rating', 'reviewer_name', 'comment', 'created_at'])
        .where('created_at', '>=', since)
        .orderBy('created_at', 'desc')
        .limit(200)
        .execute(),
    /** How many ★1–2 reviews were written in [from, to). */
    async lowBetween(storeId: number, from: string, to: string): Promise<number> {
      const r = await low(storeId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** The store's name and address, for its label (reviews.service `storeLabel`). */
    store: (storeId: number) =>
      db
        .selectFrom('users')
        .select(['store_name', 'email'])
        .where('id', '=', storeId)
        .executeTakeFirstOrThrow(),
    transaction: <T>(fn: (trx: Db) => Promise<T>) => db.transaction().execute(fn),
  };
}
