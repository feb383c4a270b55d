import { ja } from '@tenpo/domain';
import { addMs, HOUR, iso, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { AuthRepo } from './auth.repo';

/**
 * Back-off on failed sign-ins per e-mail address (ADR 0065; OWASP ASVS 5.0 6.3.1, 6.1.1):
 * five failures in a row cost nothing; each one after locks the address for 15 s, doubling, at
 * most 15 minutes, so a guesser gets a handful of guesses an hour while an owner whom someone
 * else locked out waits minutes at worst (or resets the password, which clears the count).
 * While locked, no password is checked, right or wrong, and the refusal does not count.
 * A run of failures older than a day starts again from nothing.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
export const FREE_FAILURES = 5;
export const FIRST_LOCK_MS = 15 * SECOND;
export const MAX_LOCK_MS = 15 * MINUTE;
const RUN_MS = 24 * HOUR;
/** Compare-and-set attempts against concurrent sign-ins to the same address. */
const MAX_CLAIMS = 10;

export const lockMsAfter = (failures: number): number =>
  failures <= FREE_FAILURES
    ? 0
    : Math.min(FIRST_LOCK_MS * 2 ** (failures - FREE_FAILURES - 1), MAX_LOCK_MS);

const lockedError = (until: Date, now: Date): AppError => {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / MINUTE));
  const message = ja.loginLocked(minutes);
  return new AppError(429, 'login_locked', message, { email: [message] });
};

export type Claim = {
  /** Failures in this run, this attempt counted as one. */
  failures: number;
  /** True when this attempt is the one that locks the address (the owner is mailed then). */
  locks: boolean;
};

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export function createLoginThrottle(repo: AuthRepo, clock: Clock) {
  return {
    /**
     * Counts this attempt as a failure before its password is checked (and sets the lock it
     * would cause), so that concurrent guesses, on one process or many, cannot all pass a check
     * made before any of them was counted. Throws 429 while the address is locked.
     */
    async claim(email: string): Promise<Claim> {
      for (let i = 0; i < MAX_CLAIMS; i++) {
        const now = clock.now();
        const at = iso(now);
        const row = await repo.throttleOf(email);
        if (!row) {
          if (await repo.throttleStart(email, at)) return { failures: 1, locks: false };
          continue;
        }
        if (row.locked_until !== null && row.locked_until > at)
          throw lockedError(new Date(row.locked_until), now);
        const restart = row.last_failed_at < iso(addMs(now, -RUN_MS));
        const failures = (restart ? 0 : row.failures) + 1;
        const lockMs = lockMsAfter(failures);
        const next = {
          failures,
          last_failed_at: at,
          locked_until: lockMs > 0 ? iso(addMs(now, lockMs)) : null,
        };
        if (await repo.throttleNext(email, row, next, restart))
          return { failures, locks: failures === FREE_FAILURES + 1 };
      }
      // Lost every race: a burst of attempts on one address. Refuse this one as locked.
      throw lockedError(addMs(clock.now(), FIRST_LOCK_MS), clock.now());
    },

    /** The right password: the run is over. */
    succeeded: (email: string) => repo.throttleClear(email),

    /** The owner is mailed once per run; true for the one attempt that should send it. */
    shouldNotify: (email: string) => repo.throttleNotify(email),
  };
}
