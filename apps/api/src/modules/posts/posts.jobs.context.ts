import {
  PUBLISHER_KEYS,
  rateLimitsFor,
  type PublisherKey,
  type RateLimit as ChannelRateLimit,
} from '@tenpo/domain';
import type { ChannelRegistry } from '../../channels/channel';
import type { PostTargetRow } from '../../db/types';
import type { Queue, RateLimit } from '../../jobs/engine';
import { iso, type Clock } from '../../lib/clock';
import type { MediaStorage } from '../../storage';
import type { PostsRepo } from './posts.repo';

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

/** What the delivery jobs' parts run on (posts.jobs.ts puts them together). */
export type PostJobContext = {
  queue: Queue;
  repo: PostsRepo;
  registry: ChannelRegistry;
  storage: MediaStorage;
  /** The wall clock, for what is compared with the provider's own times (settling). */
  wallNow: () => Date;
  now: () => Date;
  stamp: () => string;
};

export function createPostJobContext(queue: Queue, deps: PostJobDeps): PostJobContext {
  const { repo, registry, storage, clock } = deps;
  const now = () => clock.now();
  return {
    queue,
    repo,
    registry,
    storage,
    wallNow: deps.wallNow ?? (() => new Date()),
    now,
    stamp: () => iso(now()),
  };
}
