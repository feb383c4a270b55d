import { sql, type Selectable, type Transaction } from 'kysely';
import { OPEN_APPROVAL_STATES, type ApprovalListQuery, type ApprovalState } from '@tenpo/domain';
import { amongIds, isPostgres } from '../../db/among-ids';
import type { Db } from '../../db/kysely';
import type { Database, ReplyApprovalsTable } from '../../db/types';
import { keysetPage, type KeysetList, type Seek } from '../../lib/keyset';
import { seekRows, type KeysetOrder } from '../../lib/keyset.repo';

export type ApprovalRow = Selectable<ReplyApprovalsTable>;
export type ApprovalListRow = ApprovalRow & {
  store_name: string | null;
  star_rating: number;
  review_comment: string | null;
  reviewer_name: string;
  reply_state: string | null;
};
export type ApprovalsRepo = ReturnType<typeof createApprovalsRepo>;
export type ApprovalsQueries = ReturnType<typeof queries>;

const OPEN = [...OPEN_APPROVAL_STATES];

/**
 * The queue's order (ADR 0098, amended 2026-11-29): newest first, ties by id the same way;
 * reply_approvals_created (migration 0032) or reply_approvals_store serve the seek.
 */
const NEWEST: KeysetOrder = {
  keys: [sql.ref('a.created_at'), sql.ref('a.id')],
  direction: 'desc',
};
const NEWEST_NAME = 'reply_approvals:created_at,desc';

const queries = (db: Db) => ({
  /** The agencies among `agencyIds` whose stores' replies (or posts) need approval. */
  async requiring(
    agencyIds: readonly number[],
    rule: 'replies' | 'posts' = 'replies',
  ): Promise<Set<number>> {
    if (agencyIds.length === 0) return new Set();
    const rows = await db
      .selectFrom('approval_settings')
      .select('agency_id')
      .where('agency_id', 'in', [...new Set(agencyIds)])
      .where(rule, '=', 1)
      .execute();
    return new Set(rows.map((r) => r.agency_id));
  },

  /** Sets either rule (or both); one left out keeps its value. */
  async setRules(
    agencyId: number,
    rules: { replies?: boolean | undefined; posts?: boolean | undefined },
    now: string,
  ): Promise<void> {
    const set: { replies?: number; posts?: number; updated_at: string } = { updated_at: now };
    if (rules.replies !== undefined) set.replies = rules.replies ? 1 : 0;
    if (rules.posts !== undefined) set.posts = rules.posts ? 1 : 0;
    await db
      .insertInto('approval_settings')
      .values({
        agency_id: agencyId,
        replies: set.replies ?? 0,
        posts: set.posts ?? 0,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('agency_id').doUpdateSet(set))
      .execute();
  },

  byId: (id: number) =>
    db.selectFrom('reply_approvals').selectAll().where('id', '=', id).executeTakeFirst(),

  /** The latest request per review (any state), for the inbox's cards. */
  async latestFor(reviewIds: readonly number[]): Promise<Map<number, ApprovalRow>> {
    if (reviewIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('reply_approvals')
      .selectAll()
      .where('review_id', 'in', [...reviewIds])
      .orderBy('id', 'desc')
      .execute();
    const out = new Map<number, ApprovalRow>();
    for (const r of rows) if (!out.has(r.review_id)) out.set(r.review_id, r);
    return out;
  },

  openFor: (reviewId: number) =>
    db
      .selectFrom('reply_approvals')
      .selectAll()
      .where('review_id', '=', reviewId)
      .where('state', 'in', OPEN)
      .executeTakeFirst(),

  async insert(row: Omit<ApprovalRow, 'id'>): Promise<number> {
    const r = await db
      .insertInto('reply_approvals')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },

  /**
   * Moves a request from one of `from` to `to` with the patch; true when this call moved it.
   * The one claim of a decision: two approvers at once, one wins (the other gets false).
   */
  async move(
    id: number,
    from: readonly ApprovalState[],
    to: ApprovalState,
    patch: Partial<Omit<ApprovalRow, 'id' | 'state'>>,
  ): Promise<boolean> {
    const r = await db
      .updateTable('reply_approvals')
      .set({ ...patch, state: to })
      .where('id', '=', id)
      .where('state', 'in', [...from])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /** Requests still pending past their expiry, oldest first (a round's worth). */
  stale: (now: string, limit = 200) =>
    db
      .selectFrom('reply_approvals')
      .selectAll()
      .where('state', '=', 'pending')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute(),

  /** Requests claimed for sending (`approved`) whose claim is older than `before`. */
  stuckApproved: (before: string, limit = 50) =>
    db
      .selectFrom('reply_approvals')
      .selectAll()
      .where('state', '=', 'approved')
      .where('updated_at', '<', before)
      .orderBy('updated_at')
      .limit(limit)
      .execute(),

  /** Takes over a stuck `approved` request: true for the one caller that moved its claim. */
  async reclaim(id: number, claimedAt: string, now: string): Promise<boolean> {
    const r = await db
      .updateTable('reply_approvals')
      .set({ updated_at: now })
      .where('id', '=', id)
      .where('state', '=', 'approved')
      .where('updated_at', '=', claimedAt)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /**
   * The requests of the stores in a state (`open`: pending or failed), newest first: by `page`,
   * or next to a page shown by its cursor (ADR 0098, amended 2026-11-29); the stores and the
   * state are always the caller's, whatever the cursor says.
   */
  async page(
    storeIds: readonly number[],
    q: ApprovalListQuery,
  ): Promise<KeysetList<ApprovalListRow> & { total: number }> {
    const states: string[] = q.state === 'open' ? OPEN : [q.state];
    const where = db
      .selectFrom('reply_approvals as a')
      .where(amongIds(isPostgres(db), 'a.store_id', storeIds))
      .where('a.state', 'in', states);
    const count = await where
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(count.n);
    const list = await keysetPage(
      { page: q.page, perPage: q.limit, after: q.after, before: q.before },
      {
        total,
        order: NEWEST_NAME,
        keyTypes: ['string', 'number'],
        keyOf: (r: ApprovalListRow) => [r.created_at, r.id],
        read: (seek: Seek) =>
          seekRows(
            where
              .innerJoin('reviews as r', 'r.id', 'a.review_id')
              .innerJoin('users as u', 'u.id', 'a.store_id')
              .selectAll('a')
              .select([
                'u.store_name',
                'r.star_rating',
                'r.comment as review_comment',
                'r.reviewer_name',
                'r.reply_state',
              ]),
            NEWEST,
            seek,
          ) as Promise<ApprovalListRow[]>,
      },
    );
    return { ...list, total };
  },
});

export function createApprovalsRepo(db: Db) {
  return {
    ...queries(db),
    transaction: <T>(fn: (repo: ApprovalsQueries, trx: Transaction<Database>) => Promise<T>) =>
      db.transaction().execute((trx) => fn(queries(trx), trx)),
  };
}
