import { noticeJa, tokyoDay } from '@tenpo/domain';
import type { Clock } from '../../lib/clock';
import { reviewSpikeMail } from '../../mail/templates';
import type { NoticesService } from '../notices/notices.service';
import type { SpikesRepo } from './spikes.repo';
import { storeLabel } from './reviews.service';

/** A burst: this many times the store's usual daily count of ★1–2 reviews, within a day… */
export const SPIKE_FACTOR = 3;
/** …and never fewer than this many (a store that rarely gets one is not alarmed by two). */
export const SPIKE_MIN = 3;
/** The usual count is the daily mean over this many days before the last 24 hours. */
export const SPIKE_BASELINE_DAYS = 90;
const DAY_MS = 86_400_000;
/** The alert lists at most this many reviews. */
const LISTED = 30;
/** Google's page on reporting policy-violating reviews (and its Reviews Management Tool). */
export const GOOGLE_REPORT_URL = 'https://support.google.com/business/answer/4596773?hl=ja';

export type SpikeCheck = (
  storeId: number,
) => Promise<{ alerted: boolean; count: number; threshold: number }>;

/** The number of ★1–2 reviews in the last day that makes a burst, from the usual daily count. */
export const spikeThreshold = (baselineCount: number, days = SPIKE_BASELINE_DAYS): number =>
  Math.max(SPIKE_MIN, Math.ceil((SPIKE_FACTOR * baselineCount) / days));

/**
 * Issue 25 item 9: after a sync brings new low ratings, compares the store's ★1–2 reviews of the
 * last 24 hours with its usual daily count (the mean of the 90 days before). A burst raises one
 * notice and mail per store and Tokyo day (keyed), to the store and its agency, listing the
 * reviews and how to report those that break Google's policies.
 */
export function createSpikeCheck(deps: {
  repo: SpikesRepo;
  clock: Clock;
  notices: Pick<NoticesService, 'tell' | 'peopleOfStore'>;
  publicUrl: string;
}): SpikeCheck {
  const { repo, clock } = deps;
  return async (storeId) => {
    const now = clock.now();
    const windowStart = new Date(now.getTime() - DAY_MS).toISOString();
    const baseStart = new Date(now.getTime() - (SPIKE_BASELINE_DAYS + 1) * DAY_MS).toISOString();
    const [recent, base] = await Promise.all([
      repo.recentLow(storeId, windowStart),
      repo.lowBetween(storeId, baseStart, windowStart),
    ]);
    const threshold = spikeThreshold(base);
    if (recent.length < threshold) return { alerted: false, count: recent.length, threshold };
    const people = await deps.notices.peopleOfStore(storeId);
    const name = storeLabel(await repo.store(storeId));
    const day = tokyoDay(now);
    const link = `/reviews?user_id=${storeId}&stars=1,2&date_from=${tokyoDay(new Date(now.getTime() - DAY_MS))}`;
    await repo.transaction((trx) =>
      deps.notices.tell(
        people,
        {
          kind: 'reviews_spike',
          storeId,
          title: noticeJa.reviewsSpike(name, recent.length),
          body: noticeJa.reviewsSpikeBody(threshold),
          link,
          key: `reviews-spike:${storeId}:${day}`,
          mail: reviewSpikeMail({
            storeName: name,
            count: recent.length,
            usual: base / SPIKE_BASELINE_DAYS,
            reviews: recent.slice(0, LISTED).map((r) => ({
              stars: r.star_rating,
              reviewer: r.reviewer_name,
              comment: r.comment,
              at: r.created_at,
            })),
            more: Math.max(0, recent.length - LISTED),
            link: `${deps.publicUrl}${link}`,
            reportUrl: GOOGLE_REPORT_URL,
          }),
        },
        trx,
      ),
    );
    return { alerted: true, count: recent.length, threshold };
  };
}
