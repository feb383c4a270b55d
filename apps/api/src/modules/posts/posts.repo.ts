import { amongIds, isPostgres } from '../../db/among-ids';
import type { Db } from '../../db/kysely';
import type {
  PostMediaRow,
  PostMediaTable,
  PostRow,
  PostsTable,
  PostTargetRow,
  PostTargetsTable,
} from '../../db/types';
import { sql, type Insertable, type Updateable } from 'kysely';
import { statementBatches } from '../../db/batches';
import { keysetPage, type KeysetList, type KeysetRequest, type Seek } from '../../lib/keyset';
import { seekRows, type KeysetOrder } from '../../lib/keyset.repo';
import type { PostApprovalRow } from './posts.approvals.repo';

export type NewPost = Omit<Insertable<PostsTable>, 'id'>;
export type NewPostMedia = Omit<Insertable<PostMediaTable>, 'id' | 'post_id'>;
export type NewTarget = Omit<Insertable<PostTargetsTable>, 'id' | 'post_id'>;
export type TargetPatch = Updateable<PostTargetsTable>;

/**
 * A post with its media and targets, as the screens and the jobs read it; with its request for
 * approval while it waits or after it was not approved (ADR 0095).
 */
export type PostBundle = {
  post: PostRow;
  media: PostMediaRow[];
  targets: PostTargetRow[];
  approval?: PostApprovalRow | null;
};

/** What narrows the posts list besides its stores: a text in the content, a post type. */
export type PostListFilter = { search?: string | undefined; postType?: PostRow['post_type'] };

/**
 * The posts lists' order (ADR 0098, its amendment of 2026-11-29): newest first, ties (the posts
 * of one submission to many stores share their creation time) by id the same way. The cursor's
 * order names the list, so another list's cursor is refused.
 */
const NEWEST: KeysetOrder = { keys: [sql.ref('created_at'), sql.ref('id')], direction: 'desc' };
const NEWEST_NAME = 'posts:created_at,desc';

export type PostsQueries = ReturnType<typeof queries>;
export type PostsRepo = ReturnType<typeof createPostsRepo>;

const queries = (db: Db) => {
  const postgres = isPostgres(db);

  const bundles = async (posts: PostRow[]): Promise<PostBundle[]> => {
    if (posts.length === 0) return [];
    const ids = posts.map((p) => p.id);
    const [media, targets] = await Promise.all([
      db
        .selectFrom('post_media')
        .selectAll()
        .where('post_id', 'in', ids)
        .orderBy('post_id')
        .orderBy('position')
        .execute(),
      db
        .selectFrom('post_targets')
        .selectAll()
        .where('post_id', 'in', ids)
        .orderBy('post_id')
        .orderBy('id')
        .execute(),
    ]);
    // Only a post held or not approved reads its request: an ordinary page costs no query more.
    const held = [
      ...new Set(
        targets
          .filter((t) => t.state === 'awaiting_approval' || t.state === 'not_approved')
          .map((t) => t.post_id),
      ),
    ];
    const approvals = held.length
      ? await db
          .selectFrom('post_approvals')
          .selectAll()
          .where('post_id', 'in', held)
          .orderBy('id', 'desc')
          .execute()
      : [];
    return posts.map((post) => ({
      post,
      media: media.filter((m) => m.post_id === post.id),
      targets: targets.filter((t) => t.post_id === post.id),
      approval: approvals.find((a) => a.post_id === post.id) ?? null,
    }));
  };

  return {
    /**
     * Is this stored object one of these stores' own: a medium of one of their posts, or a photo
     * of their library? A post may name an existing medium by its URL only then (issue 22 item 9).
     */
    async mediaOwnedBy(key: string, storeIds: readonly number[]): Promise<boolean> {
      if (storeIds.length === 0) return false;
      const posted = await db
        .selectFrom('post_media')
        .innerJoin('posts', 'posts.id', 'post_media.post_id')
        .select('post_media.id')
        .where('post_media.storage_key', '=', key)
        .where('posts.store_id', 'in', storeIds)
        .executeTakeFirst();
      if (posted) return true;
      const photo = await db
        .selectFrom('photos')
        .select('id')
        .where('storage_key', '=', key)
        .where('store_id', 'in', storeIds)
        .executeTakeFirst();
      return photo !== undefined;
    },

    /** One store's post, its media and its targets, in one go (the transaction's writes). */
    /**
     * Many stores' posts of one submission, with their media and targets, in one statement per
     * table (as many as the databases' limit on parameters needs): a post to 1,000 stores costs
     * the round trips of a post to one. Each post is for another store; the posts come back
     * with their targets in the order given.
     */
    async insertMany(
      items: readonly { post: NewPost; media: NewPostMedia[]; targets: NewTarget[] }[],
    ): Promise<{ post: PostRow; targets: PostTargetRow[] }[]> {
      if (items.length === 0) return [];
      const posts = new Map<number, PostRow>();
      for (const batch of statementBatches(items.map((i) => i.post)))
        for (const row of await db.insertInto('posts').values(batch).returningAll().execute())
          posts.set(row.store_id, row);
      if (posts.size !== items.length) throw new Error('insertMany: one post per store');
      const idOf = (item: (typeof items)[number]) => (posts.get(item.post.store_id) as PostRow).id;
      const media = items.flatMap((i) => i.media.map((m) => ({ ...m, post_id: idOf(i) })));
      for (const batch of statementBatches(media))
        await db.insertInto('post_media').values(batch).execute();
      const targets = new Map<number, PostTargetRow[]>();
      for (const batch of statementBatches(
        items.flatMap((i) => i.targets.map((t) => ({ ...t, post_id: idOf(i) }))),
      ))
        for (const row of await db
          .insertInto('post_targets')
          .values(batch)
          .returningAll()
          .execute())
          targets.set(row.post_id, [...(targets.get(row.post_id) ?? []), row]);
      return items.map((i) => {
        const post = posts.get(i.post.store_id) as PostRow;
        const rows = targets.get(post.id) ?? [];
        // In the order given (the channels'), whatever order RETURNING gave.
        const order = i.targets.map((t) => t.publisher_key);
        rows.sort((a, b) => order.indexOf(a.publisher_key) - order.indexOf(b.publisher_key));
        return { post, targets: rows };
      });
    },

    bundles,

    /**
     * A page of the stores' posts, newest first, by number or next to a page shown (`after` /
     * `before`, ADR 0098): the cursor's keys seek posts_created or posts_store_created (migration
     * 0031), the stores and the filter are always the caller's.
     */
    async page(
      storeIds: readonly number[],
      filter: PostListFilter,
      req: KeysetRequest,
    ): Promise<KeysetList<PostBundle> & { total: number }> {
      let q = db.selectFrom('posts').where(amongIds(postgres, 'store_id', storeIds));
      if (filter.postType) q = q.where('post_type', '=', filter.postType);
      // A literal search: % and _ in it are escaped (ESCAPE works alike on both databases).
      const search = filter.search;
      if (search)
        q = q.where(
          sql<boolean>`content like ${`%${search.replace(/[\\%_]/g, '\\$&')}%`} escape '\\'`,
        );
      const total = Number(
        (await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0,
      );
      const rows = q.selectAll();
      const list = await keysetPage(req, {
        total,
        order: NEWEST_NAME,
        keyTypes: ['string', 'number'],
        keyOf: (r) => [r.created_at, r.id],
        read: (seek: Seek) => seekRows(rows, NEWEST, seek),
      });
      return { ...list, total, rows: await bundles(list.rows) };
    },

    async one(id: number): Promise<PostBundle | undefined> {
      const post = await db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
      return post ? (await bundles([post]))[0] : undefined;
    },

    async updatePost(id: number, patch: Updateable<PostsTable>): Promise<void> {
      await db.updateTable('posts').set(patch).where('id', '=', id).execute();
    },

    /**
     * The provider post ids the other recent targets of this store (or of its provider account)
     * on this channel recorded: settling one target must never take another's post.
     */
    async recordedNear(
      t: Pick<PostTargetRow, 'id' | 'store_id' | 'publisher_key' | 'account'>,
      limit = 200,
    ): Promise<string[]> {
      const rows = await db
        .selectFrom('post_targets')
        .select(['external_id', 'parts'])
        .where('publisher_key', '=', t.publisher_key)
        .where('id', '!=', t.id)
        .where((eb) =>
          t.account
            ? eb.or([eb('store_id', '=', t.store_id), eb('account', '=', t.account)])
            : eb('store_id', '=', t.store_id),
        )
        .where((eb) => eb.or([eb('external_id', 'is not', null), eb('parts', 'is not', null)]))
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      const ids = new Set<string>();
      for (const r of rows) {
        if (r.external_id) ids.add(r.external_id);
        if (r.parts)
          for (const p of JSON.parse(r.parts) as { id: string | null; past_ids?: string[] }[]) {
            if (p.id) ids.add(p.id);
            for (const x of p.past_ids ?? []) ids.add(x);
          }
      }
      return [...ids];
    },

    target: (id: number): Promise<PostTargetRow | undefined> =>
      db.selectFrom('post_targets').selectAll().where('id', '=', id).executeTakeFirst(),

    /**
     * Changes a target; with `from`, only while it is in one of those states (a guard against a
     * second worker or a retry racing this one). True when the row changed.
     */
    /**
     * Writes `patch` when the target is in one of `from` and, with `unchanged`, still has the
     * sends and parts read before (a compare-and-set: of two runs of one job, one writes).
     */
    async updateTarget(
      id: number,
      patch: TargetPatch,
      from?: readonly string[],
      unchanged?: Pick<PostTargetRow, 'attempts' | 'parts'>,
    ) {
      let q = db.updateTable('post_targets').set(patch).where('id', '=', id);
      if (from) q = q.where('state', 'in', from as PostTargetRow['state'][]);
      if (unchanged) {
        const { attempts, parts } = unchanged;
        q = q.where('attempts', '=', attempts).where('parts', parts === null ? 'is' : '=', parts);
      }
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
};

export function createPostsRepo(db: Db) {
  return {
    ...queries(db),
    /** One unit of work: every write in `fn` commits together or not at all; `trx` for enqueues. */
    transaction: <T>(fn: (repo: PostsQueries, trx: Db) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => fn(queries(trx), trx)),
  };
}
