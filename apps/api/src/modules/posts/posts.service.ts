import {
  ja,
  type KeysetPage,
  type PostTopicType,
  type PostView,
  type PublisherKey,
} from '@tenpo/domain';
import type { StoredTopic } from './posts.draft';
import type { UserRow } from '../../db/types';
import { iso } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { jobOf, PUBLISH_QUEUE, retryKeyOf } from './posts.jobs';
import { isRetryable } from './posts.present';
import type { KeysetRequest } from '../../lib/keyset';
import type { PostBundle, PostListFilter } from './posts.repo';
import type { PostRequest } from './posts.validate';
import { createSubmit, type Submitted } from './posts.submit';
import { createPostsContext, onePost, type PostsDeps } from './posts.context';
import { checkStoresConnected, createPosts, type ResolvedMedium } from './posts.create';
import { removeTopic, updateTopic } from './posts.topics';
import type { AuditActor } from '../audit/audit.repo';

export type PostsService = ReturnType<typeof createPostsService>;

export function createPostsService(deps: PostsDeps) {
  const c = createPostsContext(deps);
  const { repo, queue, storage, clock } = c;
  const now = c.now;
  const present = c.present;
  const checkConnected = (stores: UserRow[], channels: PublisherKey[]) =>
    checkStoresConnected(c, stores, channels);

  const service = {
    checkConnected,

    /**
     * One submission: a post per store with its media and a target per channel, and their
     * jobs, in one transaction (ADR 0026). A channel that cannot remove posts keeps no removal
     * date; `notes` says so.
     */
    create: (
      actor: UserRow,
      stores: UserRow[],
      input: PostRequest,
      media: ResolvedMedium[],
      kind?: { type: PostTopicType; topic: StoredTopic | null },
      /** From `checkConnected` when the caller ran it already. */
      known?: Map<string, string | null>,
    ): Promise<Submitted> => createPosts(c, actor, stores, input, media, kind, known),

    /**
     * A page of the stores' posts, newest first: by `page`, or next to a page shown by its
     * cursor (ADR 0098); the spec's paging fields and the two cursors.
     */
    async page(
      storeIds: readonly number[],
      filter: PostListFilter,
      req: KeysetRequest,
    ): Promise<KeysetPage<PostView>> {
      const list = await repo.page(storeIds, filter, req);
      return {
        data: await Promise.all(list.rows.map(present)),
        current_page: list.current_page,
        last_page: list.last_page,
        total: list.total,
        per_page: req.perPage,
        from: list.from,
        to: list.to,
        next_cursor: list.next_cursor,
        prev_cursor: list.prev_cursor,
      };
    },

    /** The post, if it belongs to one of these stores (404 otherwise, as for a foreign store). */
    one: (id: number, storeIds: readonly number[]): Promise<PostView> => onePost(c, id, storeIds),

    /** An offer, event or news post of one of these stores (404 for any other post). */
    async topicPost(id: number, type: PostTopicType, storeIds: readonly number[]) {
      const b = await repo.one(id);
      if (!b || b.post.post_type !== type || !storeIds.includes(b.post.store_id)) throw notFound();
      return b;
    },

    /**
     * Edits an offer, event or news post (ADR 0030): see posts.topics.ts.
     */
    updateTopic: (
      b: PostBundle,
      patch: { content: string; topic: StoredTopic | null },
      actor: AuditActor | null = null,
    ): Promise<PostView> => updateTopic(c, b, patch, actor),

    /** Removes an offer, event or news post at Google now (or stops one not yet sent). */
    removeTopic: async (b: PostBundle, actor: AuditActor | null = null): Promise<PostView> => {
      const view = await removeTopic(c, b, actor);
      // A held post deleted: nobody is asked to approve it any more (ADR 0095).
      await c.approvals?.removed(b.post.id);
      return view;
    },

    /** May a post for these stores name this stored medium by its URL? Only their own. */
    mediaOwnedBy: (key: string, stores: readonly UserRow[]): Promise<boolean> =>
      repo.mediaOwnedBy(
        key,
        stores.map((s) => s.id),
      ),

    storeOf: async (postId: number): Promise<number> => {
      const b = await repo.one(postId);
      if (!b) throw notFound();
      return b.post.store_id;
    },

    /**
     * Sends a failed target again (or settles, then sends, one whose outcome is unknown): a new
     * job named by the target's key and its retry count, written with the target's reset.
     */
    async retry(postId: number, targetId: number): Promise<PostView> {
      const t = await repo.target(targetId);
      if (!t || t.post_id !== postId) throw notFound();
      if (!isRetryable(t)) throw new AppError(422, 'not_retryable', ja.postRetryNotFailed);
      await repo.transaction(async (tx, trx) => {
        const n = t.retries + 1;
        const changed = await tx.updateTarget(
          t.id,
          {
            // An unknown outcome keeps its send time, so the job settles before sending.
            state: t.state === 'unknown' ? 'unknown' : 'scheduled',
            ...(t.state === 'unknown' ? {} : { sent_at: null }),
            attempts: 0,
            retries: n,
            error_kind: null,
            error_lines: '[]',
            updated_at: iso(now()),
          },
          [t.state],
        );
        if (!changed) throw new AppError(422, 'not_retryable', ja.postRetryNotFailed);
        await queue.enqueue(PUBLISH_QUEUE, jobOf(t), {
          key: retryKeyOf(t.idempotency_key, n),
          runAt: now(),
          trx,
        });
      });
      return onePost(c, postId, [t.store_id]);
    },
  };

  return {
    ...service,
    /** The post form after its route: see posts.submit.ts. */
    submit: createSubmit({
      storage,
      clock,
      publicUrl: deps.publicUrl,
      checkConnected,
      mediaOwnedBy: service.mediaOwnedBy,
      create: service.create,
    }),
  };
}
