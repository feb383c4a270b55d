import { randomUUID } from 'node:crypto';
import { ja, type PostView, type PublisherKey } from '@tenpo/domain';
import { ChannelError, credentialHandle, type PostReview } from '../../channels/channel';
import { draftFor, type StoredTopic } from './posts.draft';
import type { PostTargetRow } from '../../db/types';
import { iso } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { jobOf, PUBLISH_QUEUE } from './posts.jobs';
import { partsJson, partsOf } from './posts.parts';
import type { PostBundle } from './posts.repo';
import type { AuditActor } from '../audit/audit.repo';
import { onePost, postFields, type PostsContext } from './posts.context';

/** A failed target whose post Google holds after refusing its edit (ADR 0060). */
const editRefused = (t: PostTargetRow): boolean =>
  t.state === 'failed' && partsOf(t, 1).some((x) => x.edit_review && !!x.id);

/**
 * Edits an offer, event or news post (ADR 0030): the row always; at Google too when it is
 * live (PATCH with an updateMask). One still scheduled is sent as edited when due; one on
 * its way (publishing, unknown) is refused until it settles.
 */
export async function updateTopic(
  c: PostsContext,
  b: PostBundle,
  patch: { content: string; topic: StoredTopic | null },
  actor: AuditActor | null = null,
): Promise<PostView> {
  const { repo, queue, registry, now } = c;
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
  await c.audit?.recordUpdate(
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
  return onePost(c, b.post.id, [b.post.store_id]);
}

/** Removes an offer, event or news post at Google now (or stops one not yet sent). */
export async function removeTopic(
  c: PostsContext,
  b: PostBundle,
  actor: AuditActor | null = null,
): Promise<PostView> {
  const { repo, registry, now } = c;
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
  await c.audit?.record({
    actor,
    entity: 'post',
    entityId: b.post.id,
    storeId: b.post.store_id,
    action: 'delete',
    summary: '投稿を削除',
    before: postFields(b.post),
  });
  return onePost(c, b.post.id, [b.post.store_id]);
}
