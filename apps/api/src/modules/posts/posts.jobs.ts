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
} from '../../channels/channel';
import { settle } from '../../channels/settle';
import type { PostTargetRow } from '../../db/types';
import type { JobContext, Queue, RateLimit } from '../../jobs/engine';
import { iso, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { MediaStorage } from '../../storage';
import { draftFor, textFor } from './posts.draft';
import { failureLines, labelOf } from './posts.present';
import type { PostBundle, PostsRepo, TargetPatch } from './posts.repo';

export const PUBLISH_QUEUE = 'post.publish';
export const REMOVE_QUEUE = 'post.remove';

/** What a delivery job carries: the target, and what its limiters count by. */
export type TargetJob = { targetId: number; publisher: PublisherKey; storeId: number };

/** Publishes sent for one target before it is given up as failed (settled re-sends included). */
export const MAX_SENDS = 5;
/** How long after a publish with no answer the provider is read (it may still be finishing). */
export const SETTLE_AFTER_MS = 30_000;
/** A wait when a provider says "too many" without saying how long. */
const RATE_WAIT_MS = 60_000;
const QUOTA_WAIT_MS = 60 * 60_000;
/** A removal whose post is still on its way waits this long between looks, for at most a day. */
const REMOVE_WAIT_MS = 60_000;
const REMOVE_GIVE_UP_MS = 24 * 60 * 60_000;
/** Media URLs handed to providers live this long (they fetch them within the publish call). */
const MEDIA_URL_TTL_S = 24 * 3600;

export const removeKeyOf = (idempotencyKey: string) => `${idempotencyKey}:remove`;
export const retryKeyOf = (idempotencyKey: string, n: number) => `${idempotencyKey}:retry:${n}`;

/**
 * The job engine's limiters for one kind of call, from the per-channel table in domain
 * (CHANNEL_LIMITS): per account counts by store (a store holds one grant per channel), per app
 * counts every store together.
 */
export const limitersFor = (call: ChannelRateLimit['call']): RateLimit<TargetJob>[] =>
  PUBLISHER_KEYS.flatMap((key) =>
    rateLimitsFor(key, call).map((r) => ({
      key: (p: TargetJob) =>
        p.publisher === key
          ? `channel:${key}:${r.call}:${r.windowMs}:${r.per === 'account' ? `store:${p.storeId}` : 'app'}`
          : null,
      max: r.limit,
      perMs: r.windowMs,
    })),
  );

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

  /** Media as the channel takes them: a URL it fetches, uploaded first where it uploads. */
  async function mediaFor(b: PostBundle, handle: CredentialHandle): Promise<MediaItem[]> {
    const uploader = registry.get(handle.publisher).can.uploadMedia;
    const out: MediaItem[] = [];
    for (const m of b.media) {
      const kind = m.kind === 'video' ? 'video' : 'photo';
      const url = await storage.url(m.storage_key, { expiresInSeconds: MEDIA_URL_TTL_S });
      if (!uploader) {
        out.push({ kind, url });
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const c of await storage.open(m.storage_key)) chunks.push(c as Buffer);
      try {
        out.push(
          await uploader.uploadMedia(handle, {
            kind,
            contentType: m.mime,
            bytes: new Uint8Array(Buffer.concat(chunks)),
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

  const published = (t: PostTargetRow, post: PublishedPost) =>
    repo.updateTarget(t.id, {
      state: 'published',
      external_id: post.id,
      external_url: post.url,
      error_kind: null,
      error_lines: '[]',
      published_at: stamp(),
      updated_at: stamp(),
    });

  const lines = (l: string[]) => JSON.stringify(l);

  /** Acts on a failure by its class; throws what the engine must see (retry, back-off). */
  async function failed(
    t: PostTargetRow,
    err: unknown,
    ctx: JobContext,
    what: 'publish' | 'remove' | 'settle',
  ): Promise<void> {
    const key = t.publisher_key as PublisherKey;
    const lastAttempt = ctx.attempt >= ctx.maxAttempts;
    const pending = what === 'remove' ? 'published' : 'scheduled';
    const finalState = what === 'remove' ? 'published' : what === 'settle' ? 'unknown' : 'failed';
    const set = (patch: TargetPatch) => repo.updateTarget(t.id, { ...patch, updated_at: stamp() });
    const kindWhat = what === 'remove' ? 'remove' : 'publish';
    if (err instanceof AppError && err.code === 'channel_not_connected') {
      // Disconnected since the post was made: no retry can help until the user reconnects.
      await set({
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
        const wait = err.retryAfterMs ?? (err.kind === 'quota' ? QUOTA_WAIT_MS : RATE_WAIT_MS);
        await set({
          ...(what === 'settle' ? {} : { state: pending, sent_at: null }),
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
          await set({ state: finalState, error_kind: err.kind, error_lines: errorLines });
          return;
        }
        await set({
          ...(what === 'settle' ? {} : { state: pending, sent_at: null }),
          error_kind: err.kind,
          error_lines: errorLines,
        });
        throw err;
      case 'reauth':
      case 'invalid':
        await set({ state: finalState, error_kind: err.kind, error_lines: errorLines });
        return;
    }
  }

  queue.work<TargetJob>(
    PUBLISH_QUEUE,
    async (p, ctx) => {
      const t = await repo.target(p.targetId);
      if (!t || !['scheduled', 'publishing', 'unknown'].includes(t.state)) return;
      const b = await repo.one(t.post_id);
      if (!b) return;
      const key = t.publisher_key as PublisherKey;
      const handle = credentialHandle(t.store_id, key);
      const text = textFor(b.post, key, b.media.length);

      // A send that may have taken effect (no answer, or a worker that died mid-call) is
      // settled with the provider's recent posts before anything is sent again.
      if (t.sent_at && (t.state === 'publishing' || t.state === 'unknown')) {
        let found;
        try {
          found = await settle(registry, handle, { text, media: [] }, new Date(t.sent_at));
        } catch (err) {
          return failed(t, err, ctx, 'settle');
        }
        if (found.outcome === 'published') {
          await published(t, found.post);
          return;
        }
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
      const claimed = await repo.updateTarget(
        t.id,
        { state: 'publishing', sent_at: null, attempts: t.attempts + 1, updated_at: stamp() },
        ['scheduled', 'publishing', 'unknown'],
      );
      if (!claimed) return;
      const fresh = { ...t, state: 'publishing' as const, attempts: t.attempts + 1 };
      try {
        const publisher = registry.require(key, 'publish');
        const draft = draftFor(b.post, key, await mediaFor(b, handle));
        ctx.signal.throwIfAborted();
        await repo.updateTarget(t.id, { sent_at: iso(wallNow()) });
        const post = await publisher.publish(handle, draft);
        await published(fresh, post);
      } catch (err) {
        return failed(fresh, err, ctx, 'publish');
      }
    },
    { concurrency: deps.concurrency ?? 4, limiter: limitersFor('publish') },
  );

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
      if ((t.state !== 'published' && t.state !== 'removing') || !t.external_id) return;
      const key = t.publisher_key as PublisherKey;
      await repo.updateTarget(t.id, { state: 'removing', updated_at: stamp() });
      try {
        await registry
          .require(key, 'remove')
          .remove(credentialHandle(t.store_id, key), t.external_id);
      } catch (err) {
        return failed(t, err, ctx, 'remove');
      }
      await repo.updateTarget(t.id, {
        state: 'removed',
        removed_at: stamp(),
        error_kind: null,
        error_lines: '[]',
        updated_at: stamp(),
      });
    },
    { concurrency: deps.concurrency ?? 4, limiter: limitersFor('remove') },
  );
}
