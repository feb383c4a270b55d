import type { Queue } from '../../jobs/engine';
import { EDITS_PER_MINUTE, LOCATION_EDIT_QUEUE, type StoreInfoService } from './store-info.service';

export type LocationEditJob = { storeId: number };

/**
 * Listing edits on their way to Google (ADR 0041): a job per save sends the store's oldest
 * queued edit. The limiter keeps a store within Google's 10 edits a minute per profile (counted
 * in the database, across processes): the 11th save of a minute waits for the window, without
 * counting an attempt. A 429 still waits for its reset; a refusal settles the edit with Google's
 * reasons; a lost grant leaves the edits queued until Google is connected again.
 */
export function registerStoreInfoJobs(queue: Queue, deps: { storeInfo: StoreInfoService }): void {
  queue.work<LocationEditJob>(
    LOCATION_EDIT_QUEUE,
    async (p, ctx) => {
      const out = await deps.storeInfo.sendNext(p.storeId);
      if (out.state === 'wait') ctx.retryAt(out.until, out.reason);
    },
    {
      limiter: {
        key: (p) => `google:location-edits:${p.storeId}`,
        max: EDITS_PER_MINUTE,
        perMs: 60_000,
      },
    },
  );
}
