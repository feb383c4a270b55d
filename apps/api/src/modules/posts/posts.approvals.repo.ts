import { sql, type Selectable, type Transaction } from 'kysely';
import type { PostApprovalListQuery, PostApprovalState } from '@tenpo/domain';
import { amongIds, isPostgres } from '../../db/among-ids';
import type { Db } from '../../db/kysely';
import type { Database, PostApprovalsTable, PostRow, PostTargetRow } from '../../db/types';
import { keysetPage, type KeysetList, type Seek } from '../../lib/keyset';
import { seekRows, type KeysetOrder } from '../../lib/keyset.repo';

export type PostApprovalRow = Selectable<PostApprovalsTable>;
export type PostApprovalListRow = PostApprovalRow & { store_name: string | null; post: PostRow };
export type PostApprovalsRepo = ReturnType<typeof createPostApprovalsRepo>;
export type PostApprovalsQueries = ReturnType<typeof postApprovalQueries>;

/**
 * The queue's order (ADR 0098, amended 2026-11-29): newest first, ties by id the same way;
 * post_approvals_state_created or post_approvals_store (migration 0031) serve the seek.
 */
const NEWEST: KeysetOrder = {
  keys: [sql.ref('a.created_at'), sql.ref('a.id')],
  direction: 'desc',
};
const NEWEST_NAME = 'post_approvals:created_at,desc';

export const postApprovalQueries = (db: Db) => ({
  byId: (id: number) =>
    db.selectFrom('post_approvals').selectAll().where('id', '=', id).executeTakeFirst(),

  postsOf: (ids: readonly number[]): Promise<PostRow[]> =>
    ids.length
      ? db
          .selectFrom('posts')
          .selectAll()
          .where('id', 'in', [...ids])
          .execute()
      : Promise.resolve([]),

  /** A post's media keys, in order. */
  async mediaOf(postId: number): Promise<string[]> {
    const rows = await db
      .selectFrom('post_media')
      .select('storage_key')
      .where('post_id', '=', postId)
      .orderBy('position')
      .execute();
    return rows.map((r) => r.storage_key);
  },

  /** The latest request of each post (any state). */
  async latestFor(postIds: readonly number[]): Promise<Map<number, PostApprovalRow>> {
    if (postIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('post_approvals')
      .selectAll()
      .where('post_id', 'in', [...postIds])
      .orderBy('id', 'desc')
      .execute();
    const out = new Map<number, PostApprovalRow>();
    for (const r of rows) if (!out.has(r.post_id)) out.set(r.post_id, r);
    return out;
  },

  async insert(row: Omit<PostApprovalRow, 'id'>): Promise<number> {
    const r = await db
      .insertInto('post_approvals')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },

  /**
   * Moves a request from `pending` to `to` with the patch; true when this call moved it. The one
   * claim of a decision: of two approvers (or tabs) at once, one wins.
   */
  async move(
    id: number,
    to: Exclude<PostApprovalState, 'pending'>,
    patch: Partial<Omit<PostApprovalRow, 'id' | 'state'>>,
  ): Promise<boolean> {
    const r = await db
      .updateTable('post_approvals')
      .set({ ...patch, state: to })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /** Requests still pending past their expiry, oldest first (a round's worth). */
  stale: (now: string, limit = 200) =>
    db
      .selectFrom('post_approvals')
      .selectAll()
      .where('state', '=', 'pending')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute(),

  /**
   * The requests of the stores in a state (`open`: pending), newest first, with their posts: by
   * `page`, or next to a page shown by its cursor (ADR 0098); the filter is always the caller's.
   */
  async page(
    storeIds: readonly number[],
    q: PostApprovalListQuery,
  ): Promise<KeysetList<PostApprovalListRow> & { total: number }> {
    const state = q.state === 'open' ? 'pending' : q.state;
    const where = db
      .selectFrom('post_approvals as a')
      .where(amongIds(isPostgres(db), 'a.store_id', storeIds))
      .where('a.state', '=', state);
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
        keyOf: (r) => [r.created_at, r.id],
        read: (seek: Seek) =>
          seekRows(
            where
              .innerJoin('users as u', 'u.id', 'a.store_id')
              .selectAll('a')
              .select('u.store_name'),
            NEWEST,
            seek,
          ),
      },
    );
    const rows = list.rows;
    const posts = rows.length
      ? await db
          .selectFrom('posts')
          .selectAll()
          .where(
            'id',
            'in',
            rows.map((r) => r.post_id),
          )
          .execute()
      : [];
    const byId = new Map(posts.map((p) => [p.id, p]));
    return {
      ...list,
      rows: rows.flatMap((r) => {
        const post = byId.get(r.post_id);
        return post ? [{ ...r, post }] : [];
      }),
      total,
    };
  },

  /** Schedules (or gives up) the post's targets still waiting; the targets moved. */
  async moveTargets(
    postId: number,
    to: 'scheduled' | 'not_approved',
    now: string,
  ): Promise<PostTargetRow[]> {
    return db
      .updateTable('post_targets')
      .set({ state: to, updated_at: now })
      .where('post_id', '=', postId)
      .where('state', '=', 'awaiting_approval')
      .returningAll()
      .execute();
  },
});

export function createPostApprovalsRepo(db: Db) {
  return {
    ...postApprovalQueries(db),
    /** The queries inside a caller's transaction (the post form's). */
    within: (trx: Db) => postApprovalQueries(trx),
    transaction: <T>(fn: (repo: PostApprovalsQueries, trx: Transaction<Database>) => Promise<T>) =>
      db.transaction().execute((trx) => fn(postApprovalQueries(trx), trx)),
  };
}
