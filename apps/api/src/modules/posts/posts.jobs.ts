import {
  ja,
  PUBLISHER_KEYS,
  rateLimitsFor,
  type PublisherKey,
  type RateLimit as ChannelRateLimit,
} from '@tenpo/domain';
import {
  ChannelError,
  credentialHandle,
  type ChannelRegistry,
  type CredentialHandle,
  type MediaItem,
  type PublishedPost,
  PublishPending,
} from '../../channels/channel';
import { settle } from '../../channels/settle';
import type { PostMediaRow, PostRow, PostTargetRow } from '../../db/types';
import type { JobContext, JobHandler, Queue, RateLimit } from '../../jobs/engine';
import { iso, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { prepareMedia, readStored } from '../../media/convert';
import type { MediaStorage } from '../../storage';
import { draftFor, textFor } from './posts.draft';
import { liveIds, partsJson, partsOf, recordedIds, splitOf, type TargetPart } from './posts.parts';
import { failureLines, labelOf } from './posts.present';
import type { PostsRepo, TargetPatch } from './posts.repo';

export const PUBLISH_QUEUE = 'post.publish';
export const REMOVE_QUEUE = 'post.remove';
/** A publish whose provider was still preparing it (an Instagram container), run again. */
export const RESUME_QUEUE = 'post.publish.resume';

/**
 * What a delivery job carries: the target, and what its limiters count by. `account` is the
 * provider account the store's grant posts as (`<channel>:<entity id>`: the Instagram
 * business account, the X user, the Facebook page, the Google location), so that stores
 * sharing one account share its per-account limits; absent (jobs written before it, or a
 * connection that names none), the store counts as the account.
 */
export type TargetJob = {
  targetId: number;
  publisher: PublisherKey;
  storeId: number;
  account?: string | null;
};

/** Publishes sent for one target before it is given up as failed (settled re-sends included). */
export const MAX_SENDS = 5;
/** How long after a publish with no answer the provider is read (it may still be finishing). */
export const SETTLE_AFTER_MS = 30_000;
/** A wait when a provider says "too many" without saying how long. */
const RATE_WAIT_MS = 60_000;
const QUOTA_WAIT_MS = 60 * 60_000;
/** The shortest wait after a limit, whatever the provider said. */
const MIN_WAIT_MS = 1000;
/** A removal whose post is still on its way waits this long between looks, for at most a day. */
const REMOVE_WAIT_MS = 60_000;
const REMOVE_GIVE_UP_MS = 24 * 60 * 60_000;
/**
 * A post the provider reviews after taking it (Google; ADR 0060) is read once at once, then
 * again by this job rescheduled (no worker slot is held while Google reviews): after 15 s,
 * doubling, at most 15 minutes apart, for 24 hours; then the target fails, and a retry from
 * the screen reads the review again instead of sending a second post.
 */
export const REVIEW_FIRST_WAIT_MS = 15_000;
const REVIEW_MAX_WAIT_MS = 15 * 60_000;
export const REVIEW_GIVE_UP_MS = 24 * 60 * 60_000;
export const reviewWaitMs = (checks: number): number =>
  Math.min(REVIEW_MAX_WAIT_MS, REVIEW_FIRST_WAIT_MS * 2 ** Math.min(checks, 16));
/** Media URLs handed to providers live this long (they fetch them within the publish call). */
const MEDIA_URL_TTL_S = 24 * 3600;

export const removeKeyOf = (idempotencyKey: string) => `${idempotencyKey}:remove`;
export const retryKeyOf = (idempotencyKey: string, n: number) => `${idempotencyKey}:retry:${n}`;

/** The bucket of a per-account limit: the provider account, else the store. */
export const accountKeyOf = (p: TargetJob): string =>
  p.account ? `account:${p.account}` : `store:${p.storeId}`;

/**
 * The job engine's limiters for one kind of call, from the per-channel table in domain
 * (CHANNEL_LIMITS): per account counts by the provider account the grant posts as (two stores
 * on one Instagram account share its 25 a day), per app counts every store together. A job
 * makes one provider post (one part of a split post), so a start is a post.
 */
export const limitersFor = (call: ChannelRateLimit['call']): RateLimit<TargetJob>[] =>
  PUBLISHER_KEYS.flatMap((key) =>
    rateLimitsFor(key, call).map((r) => ({
      key: (p: TargetJob) =>
        p.publisher === key
          ? `channel:${key}:${r.call}:${r.windowMs}:${r.per === 'account' ? accountKeyOf(p) : 'app'}`
          : null,
      max: r.limit,
      perMs: r.windowMs,
    })),
  );

/** The job of a target, as its row names it. */
export const jobOf = (
  t: Pick<PostTargetRow, 'id' | 'publisher_key' | 'store_id' | 'account'>,
): TargetJob => ({
  targetId: t.id,
  publisher: t.publisher_key as PublisherKey,
  storeId: t.store_id,
  account: t.account,
});

/**
 * Provider calls in flight per worker process and queue. A publish mostly waits on the provider
 * (uploads, Instagram's container, X's video processing): with 4, a burst of due posts left the
 * worker idle a third of the time (bench/delivery.ts). The channels' own limits still apply.
 */
export const POST_JOB_CONCURRENCY = 16;

export type PostJobDeps = {
  repo: PostsRepo;
  registry: ChannelRegistry;
  storage: MediaStorage;
  clock: Clock;
  /** The wall clock, for what is compared with the provider's own times (settling). */
  wallNow?: () => Date;
  concurrency?: number;
};

/**
 * Delivery (ADR 0026): one `post.publish` job per target, and a `post.remove` job at the
 * removal date. Each job acts on its own target only, so one channel's failure never touches
 * its siblings; every outcome is written to the target with the failure's class and lines.
 */
export function registerPostJobs(queue: Queue, deps: PostJobDeps): void {
  const { repo, registry, storage, clock } = deps;
  const wallNow = deps.wallNow ?? (() => new Date());
  const now = () => clock.now();
  const stamp = () => iso(now());

  /**
   * Media as the channel takes them (ADR 0062): each in a format the channel accepts (the
   * original, or its JPEG rendition made once and kept in storage), then a URL it fetches, or
   * uploaded first where it uploads. A picture that cannot be made fit fails the target with
   * its Japanese line (`MediaPrepError`, class invalid).
   */
  async function mediaFor(
    media: readonly PostMediaRow[],
    handle: CredentialHandle,
  ): Promise<MediaItem[]> {
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
   * One part is live: recorded with its id. The target is published once every part is; until
   * then it stays publishing and the job runs again at once for the next part (a run makes
   * one provider post, so the limiters count posts). The target shows the first part's link.
   */
  async function partPublished(
    t: PostTargetRow,
    parts: TargetPart[],
    i: number,
    post: PublishedPost,
    ctx: JobContext,
  ): Promise<void> {
    if (post.review === 'processing') return underReview(t, parts, i, post, ctx);
    if (post.review === 'rejected') return rejected(t, parts, i, post);
    const edited = !!parts[i]?.edit_review;
    parts[i] = {
      ...(parts[i] as TargetPart),
      id: post.id,
      url: post.url,
      state: 'published',
      sent_at: null,
      review: null,
      review_since: null,
      review_checks: 0,
      edit_review: null,
    };
    const first = parts[0] as TargetPart;
    const patch: TargetPatch = {
      parts: partsJson(parts),
      external_id: first.id,
      external_url: first.url,
      // Each part has its own sends (MAX_SENDS).
      attempts: 0,
      sent_at: null,
      error_kind: null,
      error_lines: '[]',
      updated_at: stamp(),
    };
    if (parts.every((x) => x.state !== 'pending')) {
      // An edit that passed Google's review keeps the post's first publication time.
      const at = edited && t.published_at ? t.published_at : stamp();
      await repo.updateTarget(t.id, { ...patch, state: 'published', published_at: at });
      return;
    }
    await repo.updateTarget(t.id, { ...patch, state: 'publishing' });
    ctx.retryAt(now(), 'next part');
  }

  const lines = (l: string[]) => JSON.stringify(l);

  /**
   * The provider is still preparing the part (an Instagram reel's container): nothing is
   * posted, so the send is not counted and nothing needs settling. What it made is kept on the
   * part, and the job comes back after the provider's wait instead of holding a worker slot
   * for minutes (ADR 0063); the next run resumes the same container.
   */
  async function stillPreparing(
    t: PostTargetRow,
    parts: TargetPart[],
    i: number,
    pending: PublishPending,
    ctx: JobContext,
  ): Promise<void> {
    parts[i] = { ...(parts[i] as TargetPart), sent_at: null, resume: pending.resume };
    const at = new Date(now().getTime() + Math.max(MIN_WAIT_MS, pending.waitMs));
    // Queued before the target says so: a run that stops in between leaves at worst a look
    // that makes the container again, never a target waiting with no job.
    await queue.enqueue(RESUME_QUEUE, jobOf(t), {
      runAt: at,
      key: `post-resume:${t.id}:${t.attempts}:${at.toISOString()}`,
    });
    await repo.updateTarget(t.id, {
      state: 'publishing',
      parts: partsJson(parts),
      sent_at: null,
      attempts: t.attempts,
      error_kind: null,
      error_lines: '[]',
      updated_at: stamp(),
    });
    ctx.log.info({ target: t.id, waitMs: pending.waitMs }, 'provider still preparing the post');
  }

  /**
   * The post was taken and the provider is still reviewing it (Google PROCESSING): its id is
   * recorded (never sent again), the target stays publishing, and this job reads it again
   * later with back-off. Past the bound it fails; a retry then reads the review again.
   */
  async function underReview(
    t: PostTargetRow,
    parts: TargetPart[],
    i: number,
    post: PublishedPost,
    ctx: JobContext,
  ): Promise<void> {
    const part = parts[i] as TargetPart;
    const since = part.id === post.id && part.review_since ? part.review_since : stamp();
    const checks = part.id === post.id ? (part.review_checks ?? 0) : 0;
    const key = t.publisher_key as PublisherKey;
    const base = {
      ...part,
      id: post.id,
      url: post.url,
      sent_at: null,
      review: 'processing' as const,
    };
    if (now().getTime() - new Date(since).getTime() >= REVIEW_GIVE_UP_MS) {
      parts[i] = { ...base, review_since: null, review_checks: 0 };
      await repo.updateTarget(t.id, {
        parts: partsJson(parts),
        state: 'failed',
        sent_at: null,
        error_kind: 'transient',
        error_lines: lines([
          ja.postPublishFailed(labelOf(key)),
          ja.postReviewTimedOut(labelOf(key)),
        ]),
        updated_at: stamp(),
      });
      return;
    }
    parts[i] = { ...base, review_since: since, review_checks: checks + 1 };
    await repo.updateTarget(t.id, {
      parts: partsJson(parts),
      state: 'publishing',
      sent_at: null,
      updated_at: stamp(),
    });
    ctx.retryAt(new Date(now().getTime() + reviewWaitMs(checks)), 'provider review');
  }

  /**
   * The provider refused the post after taking it (Google REJECTED): the target fails with the
   * reason (Google gives none in its API: the lines name its content policy). The post stays
   * recorded on the part, so a retry (after an edit) sends a new one and never settles as it.
   */
  async function rejected(
    t: PostTargetRow,
    parts: TargetPart[],
    i: number,
    post: PublishedPost,
  ): Promise<void> {
    const key = t.publisher_key as PublisherKey;
    parts[i] = {
      ...(parts[i] as TargetPart),
      id: post.id,
      url: post.url,
      sent_at: null,
      review: 'rejected',
      review_since: null,
      review_checks: 0,
    };
    await repo.updateTarget(t.id, {
      parts: partsJson(parts),
      state: 'failed',
      sent_at: null,
      error_kind: 'invalid',
      error_lines: lines([ja.postPublishFailed(labelOf(key)), ja.postRejected(labelOf(key))]),
      updated_at: stamp(),
    });
  }

  /**
   * A post under review, read again (Google localPosts.get). A read that fails leaves the
   * review as it was (the post exists; only its state is unknown): the next read is scheduled
   * as usual. A post gone from the provider (deleted there) fails the target, and a retry
   * sends it anew.
   */
  async function readReview(
    t: PostTargetRow,
    handle: CredentialHandle,
    part: TargetPart,
    ctx: JobContext,
  ): Promise<PublishedPost | 'gone'> {
    const still: PublishedPost = {
      id: part.id as string,
      text: '',
      createdAt: null,
      url: part.url,
      review: 'processing',
    };
    try {
      return await registry
        .require(handle.publisher, 'readPost')
        .readPost(handle, part.id as string);
    } catch (err) {
      if (err instanceof ChannelError && err.status === 404) return 'gone';
      ctx.log.warn({ err, target: t.id }, 'reading a post under review failed');
      return still;
    }
  }

  /**
   * A post whose edit Google refused, edited again and retried: PATCHed in place (repeatable:
   * the mask's fields replace Google's), then followed as after a create (a read at once, the
   * job rescheduled while Google reviews). A PATCH Google refuses fails the target by its class.
   */
  async function editAgain(
    t: PostTargetRow,
    post: PostRow,
    parts: TargetPart[],
    i: number,
    ctx: JobContext,
  ): Promise<void> {
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
      return failed(fresh, err, ctx, 'publish');
    }
    if (answer.review === 'processing') {
      const read = await readReview(fresh, handle, parts[i] as TargetPart, ctx);
      if (read !== 'gone') answer = { ...answer, review: read.review, url: read.url ?? answer.url };
    }
    return partPublished(fresh, parts, i, { ...answer, id: part.id as string }, ctx);
  }

  /**
   * Acts on a failure by its class; throws what the engine must see (retry, back-off). For a
   * publish, `parts`/`part` name the part that was being sent: unless the outcome is unknown
   * the provider refused it, so its send time is cleared (nothing to settle next time).
   */
  async function failed(
    t: PostTargetRow,
    err: unknown,
    ctx: JobContext,
    what: 'publish' | 'remove' | 'settle',
    sending?: { parts: TargetPart[]; part: number },
  ): Promise<void> {
    const key = t.publisher_key as PublisherKey;
    const lastAttempt = ctx.attempt >= ctx.maxAttempts;
    // A removal that fails leaves the target as it was (published, or failed with live parts).
    const before = t.state === 'failed' ? 'failed' : 'published';
    const pending = what === 'remove' ? before : 'scheduled';
    const finalState = what === 'remove' ? before : what === 'settle' ? 'unknown' : 'failed';
    // A refused container (ERROR) is not resumed by a retry: the next send makes a new one.
    const dropResume =
      err instanceof ChannelError && (err.kind === 'invalid' || err.kind === 'blocked');
    const notSent: TargetPatch = sending
      ? {
          parts: partsJson(
            sending.parts.map((x, j) =>
              j === sending.part
                ? { ...x, sent_at: null, media_ids: [], ...(dropResume ? { resume: null } : {}) }
                : x,
            ),
          ),
        }
      : {};
    const set = (patch: TargetPatch) => repo.updateTarget(t.id, { ...patch, updated_at: stamp() });
    const kindWhat = what === 'remove' ? 'remove' : 'publish';
    if (err instanceof AppError && err.code === 'channel_not_connected') {
      // Disconnected since the post was made: no retry can help until the user reconnects.
      await set({
        ...notSent,
        state: finalState,
        error_kind: 'reauth',
        error_lines: lines([
          what === 'remove'
            ? ja.postRemoveFailed(labelOf(key))
            : ja.postPublishFailed(labelOf(key)),
          ja.channelNotConnected(labelOf(key)),
        ]),
      });
      return;
    }
    if (!(err instanceof ChannelError)) {
      ctx.log.error({ err, target: t.id }, `${what} of a post target failed`);
      if (lastAttempt)
        await set({
          state: finalState,
          error_kind: 'transient',
          error_lines: lines(failureLines(key, { kind: 'transient' }, kindWhat)),
        });
      throw err;
    }
    const errorLines = lines(failureLines(key, err, kindWhat));
    ctx.log.warn(
      { target: t.id, publisher: key, kind: err.kind },
      `${what} of a post target failed`,
    );
    switch (err.kind) {
      case 'outcome_unknown':
        // Never sent again blind: read the provider first, a little later (ADR 0022).
        await set({ state: 'unknown', error_kind: err.kind, error_lines: errorLines });
        return ctx.retryAt(new Date(now().getTime() + SETTLE_AFTER_MS), 'settle first');
      case 'rate_limited':
      case 'quota': {
        // Never at once: a limit that says "now" again would be asked in a loop.
        const wait = Math.max(
          MIN_WAIT_MS,
          err.retryAfterMs ?? (err.kind === 'quota' ? QUOTA_WAIT_MS : RATE_WAIT_MS),
        );
        await set({
          ...(what === 'settle' ? {} : { state: pending, sent_at: null }),
          ...notSent,
          // A publish the provider refused for its limits was not sent: it does not count
          // towards MAX_SENDS (else a busy day's 429s would fail a target that only had to wait).
          ...(what === 'publish' ? { attempts: Math.max(0, t.attempts - 1) } : {}),
          error_kind: err.kind,
          error_lines: errorLines,
        });
        return ctx.retryAt(new Date(now().getTime() + wait), err.kind);
      }
      case 'transient':
        if (lastAttempt) {
          await set({
            ...notSent,
            state: finalState,
            error_kind: err.kind,
            error_lines: errorLines,
          });
          return;
        }
        await set({
          ...(what === 'settle' ? {} : { state: pending, sent_at: null }),
          ...notSent,
          error_kind: err.kind,
          error_lines: errorLines,
        });
        throw err;
      case 'reauth':
      case 'invalid':
      case 'blocked':
        await set({ ...notSent, state: finalState, error_kind: err.kind, error_lines: errorLines });
        return;
    }
  }

  // The publish run, also registered on RESUME_QUEUE (below).
  let publishRun: JobHandler<TargetJob> = async () => undefined;
  queue.work<TargetJob>(
    PUBLISH_QUEUE,
    (publishRun = async (p, ctx) => {
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
      if (part.review === 'processing' && part.id) {
        const read = await readReview(t, handle, part, ctx);
        if (read === 'gone') {
          parts[i] = {
            ...part,
            id: null,
            url: null,
            review: null,
            review_since: null,
            review_checks: 0,
            edit_review: null,
            past_ids: [...(part.past_ids ?? []), part.id],
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
        return partPublished(t, parts, i, read, ctx);
      }
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
          return failed(t, err, ctx, 'settle');
        }
        if (found.outcome === 'published') return partPublished(t, parts, i, found.post, ctx);
      }
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
        return editAgain(t, b.post, parts, i, ctx);
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
        const media = await mediaFor(spec.media, handle);
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
        if (err instanceof PublishPending) return stillPreparing(t, parts, i, err, ctx);
        return failed(fresh, err, ctx, 'publish', { parts, part: i });
      }
      // Taken, and under the provider's review (Google answers PROCESSING): one read at once
      // catches a review that is already over; a longer one is followed by the job rescheduled.
      if (post.review === 'processing') {
        const read = await readReview(
          fresh,
          handle,
          { ...(parts[i] as TargetPart), id: post.id },
          ctx,
        );
        if (read !== 'gone') post = { ...post, review: read.review, url: read.url ?? post.url };
      }
      // Outside the try: a failure to record a post that went out must not count as a refusal
      // (the engine runs the job again, and the part is settled, not sent twice).
      return partPublished(fresh, parts, i, post, ctx);
    }),
    { concurrency: deps.concurrency ?? POST_JOB_CONCURRENCY, limiter: limitersFor('publish') },
  );
  // A part the provider is still preparing comes back here: the same run, outside the publish
  // limiters (its start was counted when it was first sent; a reel's looks must not spend
  // Instagram's 25 posts a day).
  queue.work<TargetJob>(RESUME_QUEUE, publishRun, {
    concurrency: deps.concurrency ?? POST_JOB_CONCURRENCY,
  });

  queue.work<TargetJob>(
    REMOVE_QUEUE,
    async (p, ctx) => {
      const t = await repo.target(p.targetId);
      if (!t || !t.remove_at) return;
      if (['scheduled', 'publishing', 'unknown'].includes(t.state)) {
        // Not live yet (a late or retried publish): look again soon, for at most a day.
        if (now().getTime() - new Date(t.remove_at).getTime() < REMOVE_GIVE_UP_MS)
          ctx.retryAt(new Date(now().getTime() + REMOVE_WAIT_MS), 'not published yet');
        return;
      }
      // Published, being removed, or failed with some parts live (a split post whose later
      // part was refused): every live part comes down, one per run, each recorded as it goes.
      if (!['published', 'removing', 'failed'].includes(t.state)) return;
      const parts = partsOf(t, 1);
      // A post whose edit Google refused is still there (REJECTED; ADR 0060): it comes down too.
      const live = parts.findIndex(
        (x) => (x.state === 'published' || !!x.edit_review) && x.state !== 'removed' && !!x.id,
      );
      if (live < 0) {
        if (t.state === 'removing')
          await repo.updateTarget(t.id, {
            state: 'removed',
            removed_at: stamp(),
            updated_at: stamp(),
          });
        return;
      }
      const key = t.publisher_key as PublisherKey;
      if (t.state !== 'failed')
        await repo.updateTarget(t.id, { state: 'removing', updated_at: stamp() });
      try {
        await registry
          .require(key, 'remove')
          .remove(credentialHandle(t.store_id, key), (parts[live] as TargetPart).id as string);
      } catch (err) {
        return failed(t, err, ctx, 'remove');
      }
      parts[live] = { ...(parts[live] as TargetPart), state: 'removed', removed_at: stamp() };
      if (liveIds(parts).length > 0) {
        await repo.updateTarget(t.id, { parts: partsJson(parts), updated_at: stamp() });
        ctx.retryAt(now(), 'next part');
      }
      await repo.updateTarget(t.id, {
        state: 'removed',
        parts: partsJson(parts),
        removed_at: stamp(),
        error_kind: null,
        error_lines: '[]',
        updated_at: stamp(),
      });
    },
    { concurrency: deps.concurrency ?? POST_JOB_CONCURRENCY, limiter: limitersFor('remove') },
  );
}
