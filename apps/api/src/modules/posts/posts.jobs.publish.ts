import type { PostPart, PublisherKey } from '@tenpo/domain';
import {
  ChannelError,
  credentialHandle,
  type CredentialHandle,
  type MediaItem,
  type PublishedPost,
  PublishPending,
} from '../../channels/channel';
import { settle } from '../../channels/settle';
import type { PostMediaRow, PostRow, PostTargetRow } from '../../db/types';
import type { JobContext } from '../../jobs/engine';
import { iso } from '../../lib/clock';
import { prepareMedia, readStored } from '../../media/convert';
import { draftFor, textFor } from './posts.draft';
import {
  MAX_SENDS,
  SETTLE_AFTER_MS,
  type PostJobContext,
  type TargetJob,
} from './posts.jobs.context';
import { failed, lines, partPublished, readReview, stillPreparing } from './posts.jobs.outcome';
import { partsJson, partsOf, recordedIds, splitOf, type TargetPart } from './posts.parts';
import { failureLines } from './posts.present';
import type { PostBundle } from './posts.repo';

/** Media URLs handed to providers live this long (they fetch them within the publish call). */
const MEDIA_URL_TTL_S = 24 * 3600;

/**
 * Media as the channel takes them (ADR 0062): each in a format the channel accepts (the
 * original, or its JPEG rendition made once and kept in storage), then a URL it fetches, or
 * uploaded first where it uploads. A picture that cannot be made fit fails the target with
 * its Japanese line (`MediaPrepError`, class invalid).
 */
async function mediaFor(
  c: PostJobContext,
  media: readonly PostMediaRow[],
  handle: CredentialHandle,
): Promise<MediaItem[]> {
  const { registry, storage } = c;
  const uploader = registry.get(handle.publisher).can.uploadMedia;
  const out: MediaItem[] = [];
  for (const m of media) {
    const kind = m.kind === 'video' ? 'video' : 'photo';
    const ready = await prepareMedia(storage, m, handle.publisher);
    if (!uploader) {
      const url = await storage.url(ready.key, { expiresInSeconds: MEDIA_URL_TTL_S });
      out.push({ kind, url });
      continue;
    }
    const bytes = await readStored(storage, ready.key);
    try {
      out.push(
        await uploader.uploadMedia(handle, {
          kind,
          contentType: ready.contentType,
          bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        }),
      );
    } catch (err) {
      // An upload with no answer leaves at most an unattached media object: no post, so
      // sending it again is safe.
      if (err instanceof ChannelError && err.kind === 'outcome_unknown')
        throw new ChannelError('transient', err.message, null, err.status, err.publisher);
      throw err;
    }
  }
  return out;
}

/**
 * A post whose edit Google refused, edited again and retried: PATCHed in place (repeatable:
 * the mask's fields replace Google's), then followed as after a create (a read at once, the
 * job rescheduled while Google reviews). A PATCH Google refuses fails the target by its class.
 */
async function editAgain(
  c: PostJobContext,
  t: PostTargetRow,
  post: PostRow,
  parts: TargetPart[],
  i: number,
  ctx: JobContext,
): Promise<void> {
  const { repo, registry, stamp } = c;
  const key = t.publisher_key as PublisherKey;
  const handle = credentialHandle(t.store_id, key);
  const part = parts[i] as TargetPart;
  parts[i] = { ...part, review: 'processing', review_since: null, review_checks: 0 };
  const fresh = { ...t, state: 'publishing' as const, attempts: t.attempts + 1 };
  const claimed = await repo.updateTarget(
    t.id,
    { state: 'publishing', attempts: fresh.attempts, updated_at: stamp() },
    ['scheduled', 'publishing', 'unknown'],
    { attempts: t.attempts, parts: t.parts },
  );
  if (!claimed) return;
  let answer: PublishedPost;
  try {
    answer = await registry
      .require(key, 'update')
      .update(handle, part.id as string, draftFor(post, key, []));
  } catch (err) {
    return failed(c, fresh, err, ctx, 'publish');
  }
  if (answer.review === 'processing') {
    const read = await readReview(c, fresh, handle, parts[i] as TargetPart, ctx);
    if (read !== 'gone') answer = { ...answer, review: read.review, url: read.url ?? answer.url };
  }
  return partPublished(c, fresh, parts, i, { ...answer, id: part.id as string }, ctx);
}

/**
 * A part taken by the provider and under its review: read, never sent again. A post gone from
 * the provider fails the target (a retry sends it anew); else the read is recorded.
 */
async function followReview(
  c: PostJobContext,
  t: PostTargetRow,
  parts: TargetPart[],
  i: number,
  /** The part's provider id (set while it is under review). */
  id: string,
  handle: CredentialHandle,
  ctx: JobContext,
): Promise<void> {
  const { repo, stamp } = c;
  const key = t.publisher_key as PublisherKey;
  const part = parts[i] as TargetPart;
  const read = await readReview(c, t, handle, part, ctx);
  if (read === 'gone') {
    parts[i] = {
      ...part,
      id: null,
      url: null,
      review: null,
      review_since: null,
      review_checks: 0,
      edit_review: null,
      past_ids: [...(part.past_ids ?? []), id],
    };
    await repo.updateTarget(t.id, {
      parts: partsJson(parts),
      state: 'failed',
      error_kind: 'invalid',
      error_lines: lines(failureLines(key, { kind: 'invalid' }, 'publish')),
      updated_at: stamp(),
    });
    return;
  }
  return partPublished(c, t, parts, i, read, ctx);
}

/**
 * A part that is not out: sent (or, an edit Google refused, PATCHed again), once the target
 * has sends left, after a compare-and-set claim so that of two runs at once only one sends.
 */
async function sendPart(
  c: PostJobContext,
  t: PostTargetRow,
  b: PostBundle,
  parts: TargetPart[],
  i: number,
  spec: PostPart<PostMediaRow>,
  handle: CredentialHandle,
  ctx: JobContext,
): Promise<void> {
  const { repo, registry, wallNow, stamp } = c;
  const key = t.publisher_key as PublisherKey;
  const part = parts[i] as TargetPart;
  if (t.attempts >= MAX_SENDS) {
    await repo.updateTarget(t.id, {
      state: 'failed',
      error_kind: t.error_kind ?? 'transient',
      error_lines:
        t.error_lines !== '[]'
          ? t.error_lines
          : lines(failureLines(key, { kind: 'transient' }, 'publish')),
      updated_at: stamp(),
    });
    return;
  }
  // An edit Google refused (ADR 0060): the same post is PATCHed with the row as it is now
  // (edited since), and its review followed again. Never made anew for an edit's review.
  if (part.review === 'rejected' && part.edit_review && part.id)
    return editAgain(c, t, b.post, parts, i, ctx);
  // A part refused after its review (rejected) is sent anew: its old post is kept aside,
  // never to be settled as this send.
  parts[i] = part.id
    ? {
        ...part,
        id: null,
        url: null,
        review: null,
        review_since: null,
        review_checks: 0,
        past_ids: [...(part.past_ids ?? []), part.id],
        sent_at: null,
        media_ids: [],
      }
    : { ...part, sent_at: null, media_ids: [] };
  const claimedParts = partsJson(parts);
  // Compare-and-set on the sends and parts read above: of two runs of this job at once (a
  // lease that lapsed under a stalled worker), only one claims this send.
  const claimed = await repo.updateTarget(
    t.id,
    {
      state: 'publishing',
      sent_at: null,
      attempts: t.attempts + 1,
      parts: claimedParts,
      updated_at: stamp(),
    },
    ['scheduled', 'publishing', 'unknown'],
    { attempts: t.attempts, parts: t.parts },
  );
  if (!claimed) return;
  const fresh = { ...t, state: 'publishing' as const, attempts: t.attempts + 1 };
  let post: PublishedPost;
  try {
    const publisher = registry.require(key, 'publish');
    const media = await mediaFor(c, spec.media, handle);
    const draft = draftFor(b.post, key, media, spec.withText);
    ctx.signal.throwIfAborted();
    // What the send is recognised by, written before it leaves.
    const sentAt = iso(wallNow());
    parts[i] = {
      ...(parts[i] as TargetPart),
      sent_at: sentAt,
      media_ids: media.map((m) => m.providerId).filter((x): x is string => !!x),
    };
    // Only if no other run claimed the target while the media went up (its claim moved
    // the sends on): else that run sends, and this one stops here.
    const ours = await repo.updateTarget(
      t.id,
      { sent_at: sentAt, parts: partsJson(parts), updated_at: stamp() },
      ['publishing'],
      { attempts: t.attempts + 1, parts: claimedParts },
    );
    if (!ours) return;
    post = await publisher.publish(handle, { ...draft, resume: part.resume ?? null });
  } catch (err) {
    if (err instanceof PublishPending) return stillPreparing(c, t, parts, i, err, ctx);
    return failed(c, fresh, err, ctx, 'publish', { parts, part: i });
  }
  // Taken, and under the provider's review (Google answers PROCESSING): one read at once
  // catches a review that is already over; a longer one is followed by the job rescheduled.
  if (post.review === 'processing') {
    const read = await readReview(
      c,
      fresh,
      handle,
      { ...(parts[i] as TargetPart), id: post.id },
      ctx,
    );
    if (read !== 'gone') post = { ...post, review: read.review, url: read.url ?? post.url };
  }
  // Outside the try: a failure to record a post that went out must not count as a refusal
  // (the engine runs the job again, and the part is settled, not sent twice).
  return partPublished(c, fresh, parts, i, post, ctx);
}

/**
 * One run of a target's publish job (also the resume of a part the provider was preparing):
 * the next pending part is read under review, settled if a send may have gone out, or sent.
 */
export async function publishTarget(
  c: PostJobContext,
  p: TargetJob,
  ctx: JobContext,
): Promise<void> {
  const { repo, registry, now, stamp } = c;
  const t = await repo.target(p.targetId);
  if (!t || !['scheduled', 'publishing', 'unknown'].includes(t.state)) return;
  const b = await repo.one(t.post_id);
  if (!b) return;
  const key = t.publisher_key as PublisherKey;
  const handle = credentialHandle(t.store_id, key);
  // The provider posts this target becomes (Facebook and X split photos from videos),
  // sent one per run, in order, each recorded as it goes out.
  const split = splitOf(key, b.media);
  const parts = partsOf(t, split.length);
  const i = parts.findIndex((x) => x.state === 'pending');
  const spec = split[i];
  if (i < 0 || !spec) {
    // Every part is out (a run that stopped before the last write): the target is too.
    await repo.updateTarget(t.id, {
      state: 'published',
      published_at: t.published_at ?? stamp(),
      updated_at: stamp(),
    });
    return;
  }
  const part = parts[i] as TargetPart;
  // Taken by the provider and under its review: read, never sent again.
  if (part.review === 'processing' && part.id)
    return followReview(c, t, parts, i, part.id, handle, ctx);
  const text = spec.withText ? textFor(b.post, key, spec.media.length) : '';
  const kind =
    spec.media.length === 0
      ? ('text' as const)
      : spec.media.some((m) => m.kind === 'video')
        ? ('video' as const)
        : ('photo' as const);

  // A send that may have taken effect (no answer, or a worker that died mid-call) is
  // settled with the provider's recent posts before anything is sent again: this part's
  // text, the media uploaded for that send, never a post already recorded as another part
  // of this target or by another target of the store or account (a split post's text-less
  // video parts look alike on Facebook).
  // A part's send time is cleared whenever the provider refused the send, so one still set
  // is settled whatever the target's state (a retry from the screen included).
  if (part.sent_at) {
    // The send may still be on its way: a run of this job whose lease lapsed while it
    // waited on the provider (a worker stalled, or killed and its job handed on), or a
    // provider still finishing a call we gave up on. Looked for before that call is surely
    // over, its post could be missed and sent again; so not before SETTLE_AFTER_MS (longer
    // than a call's time-out) since the send was written.
    const quietAt = new Date(t.updated_at).getTime() + SETTLE_AFTER_MS;
    if (now().getTime() < quietAt) return ctx.retryAt(new Date(quietAt), 'send in flight');
    let found;
    try {
      found = await settle(
        registry,
        handle,
        { text, mediaIds: part.media_ids, kind },
        new Date(part.sent_at),
        { exclude: [...recordedIds(parts), ...(await repo.recordedNear(t))] },
      );
    } catch (err) {
      return failed(c, t, err, ctx, 'settle');
    }
    if (found.outcome === 'published') return partPublished(c, t, parts, i, found.post, ctx);
  }
  return sendPart(c, t, b, parts, i, spec, handle, ctx);
}
