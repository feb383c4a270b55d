import { AppError } from '../lib/errors';
import { ChannelError } from './channel';

/** A wait when a provider says "too many" without saying how long. */
const RATE_WAIT_MS = 60_000;
const MIN_WAIT_MS = 1000;

/** How a store's sync (metrics, reviews) ended when it did not finish. */
export type SyncStop =
  | { state: 'skipped'; reason: 'not_connected' }
  | { state: 'stopped'; reason: 'reauth' | 'invalid' }
  | { state: 'wait'; until: Date; reason: string };

/**
 * A store sync's failure by its class (ADR 0035): what the sync row records, the outcome the job
 * acts on, and whether the job engine must see the error again (`rethrow`: a 5xx or our own bug
 * retries with the engine's back-off). Not connected skips; a revoked grant or a refused call
 * stops the store (`warn`); a rate limit or a spent quota waits for its reset.
 */
export function syncFailureOf(
  err: unknown,
  now: Date,
): {
  record: { state: 'idle' | 'error'; error: string };
  outcome: SyncStop | null;
  warn: boolean;
} {
  if (err instanceof AppError && err.code === 'channel_not_connected')
    return {
      record: { state: 'idle', error: 'not_connected' },
      outcome: { state: 'skipped', reason: 'not_connected' },
      warn: false,
    };
  if (!(err instanceof ChannelError))
    return { record: { state: 'error', error: 'internal' }, outcome: null, warn: false };
  switch (err.kind) {
    case 'reauth':
    case 'invalid':
      return {
        record: { state: 'error', error: err.kind },
        outcome: { state: 'stopped', reason: err.kind },
        warn: true,
      };
    case 'rate_limited':
    case 'quota': {
      const wait = Math.max(MIN_WAIT_MS, err.retryAfterMs ?? RATE_WAIT_MS);
      return {
        record: { state: 'idle', error: err.kind },
        outcome: { state: 'wait', until: new Date(now.getTime() + wait), reason: err.kind },
        warn: false,
      };
    }
    default:
      return { record: { state: 'error', error: err.kind }, outcome: null, warn: false };
  }
}
