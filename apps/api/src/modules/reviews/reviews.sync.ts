import { noticeJa } from '@tenpo/domain';
import {
  ChannelError,
  credentialHandle,
  type ChannelRegistry,
  type ProviderReview,
} from '../../channels/channel';
import { syncFailureOf, type SyncStop } from '../../channels/sync-failure';
import { iso, type Clock } from '../../lib/clock';
import { newReviewsMail } from '../../mail/templates';
import type { NoticesService } from '../notices/notices.service';
import type { SpikeCheck } from './reviews.spikes';
import type { ReviewsRepo } from './reviews.repo';

const GOOGLE = 'google_my_business' as const;
/** A first sync reads at most this many pages (50 reviews each): the newest 5,000 reviews. */
export const FIRST_SYNC_MAX_PAGES = 100;

export type ReviewSyncOutcome = { state: 'done'; pages: number; added: number } | SyncStop;

export type ReviewsSyncDeps = {
  repo: ReviewsRepo;
  registry: ChannelRegistry;
  clock: Clock;
  publicUrl: string;
  log: { warn: (obj: object, msg: string) => void };
  /** In-app notices and each user's mail choice (ADR 0094). */
  notices: Pick<NoticesService, 'tell' | 'peopleOfStore'>;
  spikes?: SpikeCheck;
};

export type ReviewsSync = ReturnType<typeof createReviewsSync>;

/**
 * One store's Google reviews brought up to date (ADR 0090). Google lists them newest first
 * (`updateTime desc`): pages are read until one reaches the newest `updateTime` already held,
 * and the replies Google still moderates are read again one by one. Each page is written in its
 * own transaction (a crash loses at most a page, which the next run reads again). A review first
 * seen after the store's first sync is new: one mail per run to the store and its agency, keyed
 * so that a re-run after a crash does not mail twice.
 */
export function createReviewsSync(deps: ReviewsSyncDeps) {
  const { repo, registry, clock } = deps;
  const now = () => iso(clock.now());

  async function syncStore(storeId: number, signal?: AbortSignal): Promise<ReviewSyncOutcome> {
    const location = await repo.googleLocation(storeId);
    if (!location) return { state: 'skipped', reason: 'not_connected' };
    let sync = await repo.syncOf(storeId);
    if (sync?.location_id && sync.location_id !== location) {
      // Another listing was chosen: the reviews held were the old one's.
      await repo.transaction(async (r) => {
        await r.clearStore(storeId);
        await r.saveSync(
          storeId,
          { location_id: location, newest_update: null, first_synced_at: null },
          now(),
        );
      });
      sync = await repo.syncOf(storeId);
    }
    const firstRun = !sync?.first_synced_at;
    await repo.saveSync(storeId, { location_id: location, state: 'running', error: null }, now());
    const handle = credentialHandle(storeId, GOOGLE);
    const reviews = registry.require(GOOGLE, 'reviews');
    const held = sync?.newest_update ?? null;
    let newest = held;
    let pages = 0;
    const added: number[] = [];
    try {
      let token: string | null = null;
      do {
        signal?.throwIfAborted();
        const page = await reviews.list(handle, { pageToken: token });
        pages += 1;
        const fresh = page.reviews.filter((r) => held === null || r.updateTime > held);
        const ids = await repo.transaction(async (r) => {
          const inserted = await r.upsert(storeId, fresh, now());
          if (pages === 1)
            await r.saveSync(
              storeId,
              {
                average_rating: page.averageRating,
                total_review_count: page.totalReviewCount,
              },
              now(),
            );
          return inserted;
        });
        added.push(...ids);
        for (const r of fresh) if (newest === null || r.updateTime > newest) newest = r.updateTime;
        const reachedHeld = fresh.length < page.reviews.length;
        token = reachedHeld || pages >= FIRST_SYNC_MAX_PAGES ? null : page.nextPageToken;
      } while (token);
      await refreshPending(storeId, handle, reviews.get.bind(reviews));
    } catch (err) {
      return failed(storeId, err);
    }
    await repo.saveSync(
      storeId,
      {
        state: 'done',
        error: null,
        newest_update: newest,
        synced_at: now(),
        ...(firstRun ? { first_synced_at: now() } : {}),
      },
      now(),
    );
    if (!firstRun) {
      await mailNew(storeId, added);
      // A burst of low ratings among them (issue 25 item 9): told once a day per store.
      if (added.length > 0) await deps.spikes?.(storeId);
    } else await repo.markNotified(added, now());
    return { state: 'done', pages, added: added.length };
  }

  /** Replies Google still moderates: read again, one review each (few at a time). */
  async function refreshPending(
    storeId: number,
    handle: ReturnType<typeof credentialHandle>,
    get: (h: typeof handle, name: string) => Promise<ProviderReview>,
  ) {
    for (const row of await repo.pendingReplies(storeId)) {
      const review = await get(handle, row.name);
      await repo.upsert(storeId, [review], now());
    }
  }

  async function mailNew(storeId: number, ids: readonly number[]) {
    const rows = await repo.unnotified(ids);
    if (rows.length === 0) return;
    const storeName = rows[0]?.store_name ?? '';
    const mail = newReviewsMail({
      storeName,
      reviews: rows.map((r) => ({
        stars: r.star_rating,
        reviewer: r.reviewer_name,
        comment: r.comment,
      })),
      link: `${deps.publicUrl}/reviews?replied=unreplied`,
    });
    const first = Math.min(...rows.map((r) => r.id));
    const people = await deps.notices.peopleOfStore(storeId);
    const newest = rows.reduce((a, b) => (b.created_at > a.created_at ? b : a));
    await repo.transaction(async (r, trx) => {
      // A notice to each, a mail to those who chose it at once (ADR 0094).
      await deps.notices.tell(
        people,
        {
          kind: 'reviews_new',
          storeId,
          title: noticeJa.reviewsNew(storeName, rows.length),
          body: `${'★'.repeat(newest.star_rating)} ${(newest.comment ?? noticeJa.noComment).slice(0, 80)}`,
          link: `/reviews?user_id=${storeId}&replied=unreplied`,
          key: `reviews-new:${storeId}:${first}`,
          mail,
          mailOnly: 'immediate',
        },
        trx,
      );
      await r.markNotified(
        rows.map((x) => x.id),
        now(),
      );
    });
  }

  /** Acts on a failure by its class (as the metrics sync); what must retry is thrown again. */
  async function failed(storeId: number, err: unknown): Promise<ReviewSyncOutcome> {
    const f = syncFailureOf(err, clock.now());
    if (f.warn && err instanceof ChannelError)
      deps.log.warn({ store: storeId, kind: err.kind }, 'reviews sync stopped for this store');
    await repo.saveSync(storeId, f.record, now());
    if (!f.outcome) throw err;
    return f.outcome;
  }

  return { syncStore };
}
