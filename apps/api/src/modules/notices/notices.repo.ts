import { sql, type Insertable, type Selectable } from 'kysely';
import type { ReviewMailMode } from '@tenpo/domain';
import type { Db } from '../../db/kysely';
import type { NoticesTable } from '../../db/types';

export type NoticeRow = Selectable<NoticesTable>;
export type NewNotice = Omit<Insertable<NoticesTable>, 'id' | 'read_at'>;
export type NoticesRepo = ReturnType<typeof createNoticesRepo>;
export type NoticesQueries = ReturnType<typeof queries>;
export type Person = { id: number; email: string };

const queries = (db: Db) => {
  const peopleOfStores = async (storeIds: readonly number[]): Promise<Map<number, Person[]>> => {
    const out = new Map<number, Person[]>();
    if (storeIds.length === 0) return out;
    const rows = await db
      .selectFrom('users as s')
      .leftJoin('users as a', 'a.id', 's.agency_id')
      .select(['s.id as sid', 's.email as semail', 'a.id as aid', 'a.email as aemail'])
      .where('s.id', 'in', [...new Set(storeIds)])
      .execute();
    for (const r of rows)
      out.set(r.sid, [
        { id: r.sid, email: r.semail },
        ...(r.aid !== null && r.aemail ? [{ id: r.aid, email: r.aemail }] : []),
      ]);
    return out;
  };
  return {
    /** Writes notices; one already written (same key: a retried job) is left as it is. */
    async add(rows: readonly NewNotice[], trx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      await trx
        .insertInto('notices')
        .values([...rows])
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    },

    async page(userId: number, unreadOnly: boolean, page: number, limit: number) {
      const mine = db.selectFrom('notices').where('user_id', '=', userId);
      const listed = unreadOnly ? mine.where('read_at', 'is', null) : mine;
      const [rows, total, unread] = await Promise.all([
        listed
          .selectAll()
          .orderBy('id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        listed.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        mine
          .where('read_at', 'is', null)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n), unread: Number(unread.n) };
    },

    /** Marks the user's notices read (only theirs: another user's ids change nothing). */
    async markRead(userId: number, ids: readonly number[] | undefined, now: string) {
      let q = db
        .updateTable('notices')
        .set({ read_at: now })
        .where('user_id', '=', userId)
        .where('read_at', 'is', null);
      if (ids) {
        if (ids.length === 0) return;
        q = q.where('id', 'in', [...ids]);
      }
      await q.execute();
    },

    /** Each user's review mail choice (no row: `immediate`). */
    async modesOf(userIds: readonly number[], trx: Db = db): Promise<Map<number, ReviewMailMode>> {
      if (userIds.length === 0) return new Map();
      const rows = await trx
        .selectFrom('notice_settings')
        .select(['user_id', 'review_mail'])
        .where('user_id', 'in', [...userIds])
        .execute();
      return new Map(rows.map((r) => [r.user_id, r.review_mail as ReviewMailMode]));
    },

    async setMode(userId: number, mode: ReviewMailMode, now: string): Promise<void> {
      // Switching to the digest starts it from now: what came before was already told.
      const until = mode === 'daily' ? now : null;
      await db
        .insertInto('notice_settings')
        .values({ user_id: userId, review_mail: mode, digest_until: until, updated_at: now })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            review_mail: mode,
            updated_at: now,
            digest_until: sql`coalesce(notice_settings.digest_until, ${until})`,
          }),
        )
        .execute();
    },

    /** Who hears of a store's reviews: the store, and its agency when it has one. */
    async peopleOfStore(storeId: number): Promise<Person[]> {
      return (await peopleOfStores([storeId])).get(storeId) ?? [];
    },

    /** Each store's people (itself and its agency), for many stores in one read. */
    peopleOfStores,

    /** The users on the daily digest, with how far their last digest went. */
    digestUsers: () =>
      db
        .selectFrom('notice_settings as n')
        .innerJoin('users as u', 'u.id', 'n.user_id')
        .select(['u.id', 'u.email', 'n.digest_until'])
        .where('n.review_mail', '=', 'daily')
        .orderBy('u.id')
        .execute(),

    /** The reviews first seen in (since, until] of the user's stores (its own, or its agency's). */
    digestReviews: (userId: number, since: string, until: string, limit: number) =>
      db
        .selectFrom('reviews as r')
        .innerJoin('users as s', 's.id', 'r.store_id')
        // Not the store's first reading of Google (its old reviews): only what came after it.
        .innerJoin('review_syncs as rs', 'rs.store_id', 'r.store_id')
        .whereRef('r.first_seen_at', '>', 'rs.first_synced_at')
        .select([
          'r.id',
          'r.star_rating',
          'r.reviewer_name',
          'r.comment',
          's.store_name',
          's.email as store_email',
        ])
        .where((eb) => eb.or([eb('r.store_id', '=', userId), eb('s.agency_id', '=', userId)]))
        .where('r.first_seen_at', '>', since)
        .where('r.first_seen_at', '<=', until)
        .orderBy('r.first_seen_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(limit)
        .execute(),

    async setDigestUntil(userId: number, until: string, from: string | null): Promise<boolean> {
      let q = db
        .updateTable('notice_settings')
        .set({ digest_until: until })
        .where('user_id', '=', userId);
      q = from === null ? q.where('digest_until', 'is', null) : q.where('digest_until', '=', from);
      return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
    },
  };
};

export function createNoticesRepo(db: Db) {
  return {
    ...queries(db),
    /** The same calls inside one transaction (a digest's mail and its mark). */
    transaction: <T>(fn: (repo: NoticesQueries, trx: Db) => Promise<T>) =>
      db.transaction().execute((trx) => fn(queries(trx), trx)),
  };
}
