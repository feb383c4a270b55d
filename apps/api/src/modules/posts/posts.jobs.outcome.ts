import { ja, type PublisherKey } from '@tenpo/domain';
import {
  ChannelError,
  type CredentialHandle,
  type PublishedPost,
  type PublishPending,
} from '../../channels/channel';
import type { PostTargetRow } from '../../db/types';
import type { JobContext } from '../../jobs/engine';
import { AppError } from '../../lib/errors';
import {
  jobOf,
  RESUME_QUEUE,
  REVIEW_GIVE_UP_MS,
  reviewWaitMs,
  SETTLE_AFTER_MS,
  type PostJobContext,
} from './posts.jobs.context';
import { partsJson, type TargetPart } from './posts.parts';
import { failureLines, labelOf } from './posts.present';
import type { TargetPatch } from './posts.repo';

/** A wait when a provider says "too many" without saying how long. */
const RATE_WAIT_MS = 60_000;
const QUOTA_WAIT_MS = 60 * 60_000;
/** The shortest wait after a limit, whatever the provider said. */
const MIN_WAIT_MS = 1000;

/**
 * One part is live: recorded with its id. The target is published once every part is; until
 * then it stays publishing and the job runs again at once for the next part (a run makes
 * one provider post, so the limiters count posts). The target shows the first part's link.
 */
export async function partPublished(
  c: PostJobContext,
  t: PostTargetRow,
  parts: TargetPart[],
  i: number,
  post: PublishedPost,
  ctx: JobContext,
): Promise<void> {
  const { repo, now, stamp } = c;
  if (post.review === 'processing') return underReview(c, t, parts, i, post, ctx);
  if (post.review === 'rejected') return rejected(c, t, parts, i, post);
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

export const lines = (l: string[]) => JSON.stringify(l);

/**
 * The provider is still preparing the part (an Instagram reel's container): nothing is
 * posted, so the send is not counted and nothing needs settling. What it made is kept on the
 * part, and the job comes back after the provider's wait instead of holding a worker slot
 * for minutes (ADR 0063); the next run resumes the same container.
 */
export async function stillPreparing(
  c: PostJobContext,
  t: PostTargetRow,
  parts: TargetPart[],
  i: number,
  pending: PublishPending,
  ctx: JobContext,
): Promise<void> {
  const { queue, repo, now, stamp } = c;
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
  c: PostJobContext,
  t: PostTargetRow,
  parts: TargetPart[],
  i: number,
  post: PublishedPost,
  ctx: JobContext,
): Promise<void> {
  const { repo, now, stamp } = c;
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
      error_lines: lines([ja.postPublishFailed(labelOf(key)), ja.postReviewTimedOut(labelOf(key))]),
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
  c: PostJobContext,
  t: PostTargetRow,
  parts: TargetPart[],
  i: number,
  post: PublishedPost,
): Promise<void> {
  const { repo, stamp } = c;
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
export async function readReview(
  c: PostJobContext,
  t: PostTargetRow,
  handle: CredentialHandle,
  part: TargetPart,
  ctx: JobContext,
): Promise<PublishedPost | 'gone'> {
  const { registry } = c;
  const still: PublishedPost = {
    id: part.id as string,
    text: '',
    createdAt: null,
    url: part.url,
    review: 'processing',
  };
  try {
    return await registry.require(handle.publisher, 'readPost').readPost(handle, part.id as string);
  } catch (err) {
    if (err instanceof ChannelError && err.status === 404) return 'gone';
    ctx.log.warn({ err, target: t.id }, 'reading a post under review failed');
    return still;
  }
}

/**
 * Acts on a failure by its class; throws what the engine must see (retry, back-off). For a
 * publish, `parts`/`part` name the part that was being sent: unless the outcome is unknown
 * the provider refused it, so its send time is cleared (nothing to settle next time).
 */
export async function failed(
  c: PostJobContext,
  t: PostTargetRow,
  err: unknown,
  ctx: JobContext,
  what: 'publish' | 'remove' | 'settle',
  sending?: { parts: TargetPart[]; part: number },
): Promise<void> {
  const { repo, now, stamp } = c;
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
        what === 'remove' ? ja.postRemoveFailed(labelOf(key)) : ja.postPublishFailed(labelOf(key)),
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
  ctx.log.warn({ target: t.id, publisher: key, kind: err.kind }, `${what} of a post target failed`);
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
