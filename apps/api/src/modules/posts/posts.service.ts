import { randomUUID } from 'node:crypto';
import {
  CONNECTED_PUBLISHER_STATUSES,
  ja,
  mayUsePublisher,
  pageOf,
  type PostTopicType,
  type PostView,
  type PublisherKey,
} from '@tenpo/domain';
import {
  ChannelError,
  credentialHandle,
  type ChannelRegistry,
  type PostReview,
} from '../../channels/channel';
import { draftFor, type StoredTopic } from './posts.draft';
import type { PostTargetRow, UserRow } from '../../db/types';
import type { Queue } from '../../jobs/engine';
import { iso, type Clock } from '../../lib/clock';
import { AppError, notFound, validationError } from '../../lib/errors';
import type { MediaStorage } from '../../storage';
import type { PublisherService } from '../publisher/publisher.service';
import { jobOf, PUBLISH_QUEUE, REMOVE_QUEUE, removeKeyOf, retryKeyOf } from './posts.jobs';
import { partsJson, partsOf } from './posts.parts';
import { isRetryable, labelOf, presentPost } from './posts.present';
import type { NewPostMedia, PostBundle, PostsRepo } from './posts.repo';
import type { PostRequest } from './posts.validate';
import { createSubmit } from './posts.submit';
import type { AuditActor, AuditLog } from '../audit/audit.repo';

/** A failed target whose post Google holds after refusing its edit (ADR 0060). */
const editRefused = (t: PostTargetRow): boolean =>
  t.state === 'failed' && partsOf(t, 1).some((x) => x.edit_review && !!x.id);

/** A post's fields as the audit log shows them (ADR 0047). */
const postFields = (p: {
  content: string;
  channels: string;
  publish_at: string;
  delete_at: string | null;
  post_type: string;
  topic: string | null;
}) => ({
  content: p.content,
  channels: JSON.parse(p.channels) as unknown,
  publish_at: p.publish_at,
  delete_at: p.delete_at,
  post_type: p.post_type,
  topic: p.topic ? (JSON.parse(p.topic) as unknown) : null,
});

/** A medium ready to be attached to every post of a submission. */
export type ResolvedMedium = Omit<NewPostMedia, 'position' | 'created_at'>;

export type PostsService = ReturnType<typeof createPostsService>;

export function createPostsService(deps: {
  repo: PostsRepo;
  publishers: Pick<PublisherService, 'row'>;
  registry: ChannelRegistry;
  queue: Queue;
  storage: MediaStorage;
  clock: Clock;
  /** This install's address: a `medias[n]` URL under it names one of our own objects. */
  publicUrl: string;
  /** Each post made, edited or deleted is recorded, per store (ADR 0047). */
  audit?: AuditLog;
}) {
  const { repo, queue, storage, clock, registry } = deps;
  const now = () => clock.now();
  const present = (b: Parameters<typeof presentPost>[0]) => presentPost(b, storage);

  /**
   * Every store × channel must be connected (and allowed for the store's plan): 422 otherwise.
   * Returns the provider account each store × channel posts as (`<channel>:<entity id>`,
   * keyed `<store id>:<channel>`), what the per-account limits count by.
   */
  async function checkConnected(
    stores: UserRow[],
    channels: PublisherKey[],
  ): Promise<Map<string, string | null>> {
    const lines: string[] = [];
    const accounts = new Map<string, string | null>();
    for (const store of stores)
      for (const key of channels) {
        const row = await deps.publishers.row(store, key);
        accounts.set(`${store.id}:${key}`, row.entity_id ? `${key}:${row.entity_id}` : null);
        if (
          !mayUsePublisher(store.role, key) ||
          !(CONNECTED_PUBLISHER_STATUSES as readonly number[]).includes(row.status)
        )
          lines.push(
            ja.postChannelNotConnected(
              store.store_name ?? store.name ?? String(store.id),
              labelOf(key),
            ),
          );
      }
    if (lines.length) throw validationError({ shared_sns_type: lines });
    return accounts;
  }

  const service = {
    checkConnected,

    /**
     * One submission: a post per store with its media and a target per channel, and their
     * jobs, in one transaction (ADR 0026). A channel that cannot remove posts keeps no removal
     * date; `notes` says so.
     */
    async create(
      actor: UserRow,
      stores: UserRow[],
      input: PostRequest,
      media: ResolvedMedium[],
      kind?: { type: PostTopicType; topic: StoredTopic | null },
      /** From `checkConnected` when the caller ran it already. */
      known?: Map<string, string | null>,
    ): Promise<{ submission_id: string; posts: PostView[]; notes: string[] }> {
      const submission = randomUUID();
      const at = iso(now());
      const removable = (key: PublisherKey) => !!registry.get(key).can.remove;
      const notes = input.deleteAt
        ? input.channels.filter((k) => !removable(k)).map((k) => ja.postNoRemoval(labelOf(k)))
        : [];
      // The accounts are read when the post is made: a store that reconnects to another
      // account later keeps the earlier account's count for the jobs already queued.
      const accounts = known ?? (await checkConnected(stores, input.channels));
      const ids = await repo.transaction(async (tx, trx) => {
        const out: number[] = [];
        for (const store of stores) {
          const { post, targets } = await tx.insert(
            {
              submission_id: submission,
              store_id: store.id,
              author_id: actor.id,
              content: input.content,
              button_type: input.buttonType,
              button_link: input.buttonLink,
              phone_number: input.phoneNumber,
              channels: JSON.stringify(input.channels),
              publish_at: iso(input.publishAt),
              delete_at: input.deleteAt ? iso(input.deleteAt) : null,
              post_type: kind?.type ?? 'news',
              topic: kind?.topic ? JSON.stringify(kind.topic) : null,
              created_at: at,
              updated_at: at,
            },
            media.map((m, i) => ({ ...m, position: i, created_at: at })),
            input.channels.map((key) => ({
              store_id: store.id,
              publisher_key: key,
              state: 'scheduled',
              idempotency_key: `post-target:${randomUUID()}`,
              external_id: null,
              external_url: null,
              error_kind: null,
              error_lines: '[]',
              attempts: 0,
              retries: 0,
              sent_at: null,
              published_at: null,
              remove_at: input.deleteAt && removable(key) ? iso(input.deleteAt) : null,
              removed_at: null,
              created_at: at,
              updated_at: at,
              parts: null,
              account: accounts.get(`${store.id}:${key}`) ?? null,
            })),
          );
          for (const t of targets) {
            const job = jobOf(t);
            await queue.enqueue(PUBLISH_QUEUE, job, {
              key: t.idempotency_key,
              runAt: input.publishAt,
              trx,
            });
            if (t.remove_at)
              await queue.enqueue(REMOVE_QUEUE, job, {
                key: removeKeyOf(t.idempotency_key),
                runAt: new Date(t.remove_at),
                trx,
              });
          }
          await deps.audit?.record(
            {
              actor,
              entity: 'post',
              entityId: post.id,
              storeId: store.id,
              agencyId: store.agency_id,
              action: 'create',
              summary: `投稿を作成（${input.channels.map(labelOf).join('、')}）`,
              after: postFields(post),
            },
            trx,
          );
          out.push(post.id);
        }
        return out;
      });
      const bundles = await Promise.all(ids.map((id) => repo.one(id)));
      return {
        submission_id: submission,
        posts: await Promise.all(bundles.filter((b) => !!b).map(present)),
        notes,
      };
    },

    async page(
      storeIds: number[],
      search: string | undefined,
      page: number,
      perPage: number,
      postType?: PostTopicType,
    ) {
      const { total, rows } = await repo.page(storeIds, search, page, perPage, postType);
      return pageOf(await Promise.all(rows.map(present)), total, page, perPage);
    },

    /** The post, if it belongs to one of these stores (404 otherwise, as for a foreign store). */
    async one(id: number, storeIds: readonly number[]): Promise<PostView> {
      const b = await repo.one(id);
      if (!b || !storeIds.includes(b.post.store_id)) throw notFound();
      return present(b);
    },

    /** An offer, event or news post of one of these stores (404 for any other post). */
    async topicPost(id: number, type: PostTopicType, storeIds: readonly number[]) {
      const b = await repo.one(id);
      if (!b || b.post.post_type !== type || !storeIds.includes(b.post.store_id)) throw notFound();
      return b;
    },

    /**
     * Edits an offer, event or news post (ADR 0030): the row always; at Google too when it is
     * live (PATCH with an updateMask). One still scheduled is sent as edited when due; one on
     * its way (publishing, unknown) is refused until it settles.
     */
    async updateTopic(
      b: PostBundle,
      patch: { content: string; topic: StoredTopic | null },
      actor: AuditActor | null = null,
    ): Promise<PostView> {
      const t = b.targets.find((x) => x.publisher_key === 'google_my_business');
      if (t?.state === 'removed' || t?.state === 'removing')
        throw new AppError(422, 'removed', ja.topicRemoved);
      if (t && ['publishing', 'unknown'].includes(t.state))
        throw new AppError(409, 'busy', ja.topicBusy);
      const row = {
        content: patch.content,
        topic: patch.topic ? JSON.stringify(patch.topic) : null,
        updated_at: iso(now()),
      };
      let review: PostReview | null = null;
      if (t?.state === 'published' && t.external_id) {
        const post = { ...b.post, ...row };
        try {
          review =
            (
              await registry
                .require('google_my_business', 'update')
                .update(
                  credentialHandle(t.store_id, 'google_my_business'),
                  t.external_id,
                  draftFor(post, 'google_my_business', []),
                )
            ).review ?? null;
        } catch (err) {
          if (err instanceof ChannelError)
            throw new AppError(502, 'provider_failed', ja.topicProviderFailed);
          throw err;
        }
      }
      await repo.updatePost(b.post.id, row);
      // Google reviews the edited post again (PROCESSING, or REJECTED at once; ADR 0060): the
      // target is under review, followed by its publish job as after a create (a read at once,
      // then rescheduled); it ends published again, or failed with the reason. The post stays
      // the one Google holds: an edit's review never makes a new one.
      if (t && (review === 'processing' || review === 'rejected'))
        await repo.transaction(async (tx, trx) => {
          const parts = partsOf(t, 1).map((x) =>
            x.id === t.external_id
              ? {
                  ...x,
                  state: 'pending' as const,
                  sent_at: null,
                  review: 'processing' as const,
                  review_since: null,
                  review_checks: 0,
                  edit_review: true,
                }
              : x,
          );
          await tx.updateTarget(t.id, {
            state: 'publishing',
            parts: partsJson(parts),
            attempts: 0,
            error_kind: null,
            error_lines: '[]',
            updated_at: iso(now()),
          });
          await queue.enqueue(PUBLISH_QUEUE, jobOf(t), {
            key: `${t.idempotency_key}:edit:${randomUUID()}`,
            runAt: now(),
            trx,
          });
        });
      await deps.audit?.recordUpdate(
        {
          actor,
          entity: 'post',
          entityId: b.post.id,
          storeId: b.post.store_id,
          summary: '投稿を編集',
        },
        postFields(b.post),
        postFields({ ...b.post, ...row }),
      );
      return this.one(b.post.id, [b.post.store_id]);
    },

    /** Removes an offer, event or news post at Google now (or stops one not yet sent). */
    async removeTopic(b: PostBundle, actor: AuditActor | null = null): Promise<PostView> {
      for (const t of b.targets) {
        if (t.state === 'removed') continue;
        if (['publishing', 'unknown', 'removing'].includes(t.state))
          throw new AppError(409, 'busy', ja.topicBusy);
        // A post whose edit Google refused is still Google's post (REJECTED): removed there too.
        if (t.external_id && (t.state === 'published' || editRefused(t))) {
          try {
            await registry
              .require(t.publisher_key as PublisherKey, 'remove')
              .remove(credentialHandle(t.store_id, t.publisher_key as PublisherKey), t.external_id);
          } catch (err) {
            if (err instanceof ChannelError)
              throw new AppError(502, 'provider_failed', ja.topicProviderFailed);
            throw err;
          }
        }
        // A scheduled or failed target is stopped: its job skips a removed target.
        await repo.updateTarget(t.id, {
          state: 'removed',
          removed_at: iso(now()),
          updated_at: iso(now()),
        });
      }
      await deps.audit?.record({
        actor,
        entity: 'post',
        entityId: b.post.id,
        storeId: b.post.store_id,
        action: 'delete',
        summary: '投稿を削除',
        before: postFields(b.post),
      });
      return this.one(b.post.id, [b.post.store_id]);
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
      return this.one(postId, [t.store_id]);
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
