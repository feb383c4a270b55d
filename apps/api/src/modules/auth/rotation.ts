import type { SessionRow, UserRow } from '../../db/types';
import type { AuthRepo } from './auth.repo';

/**
 * How long a rotated token may still lead to its successor (ADR 0012). A page reloaded (or
 * closed) while its rotation was travelling never stored the new token; without this, the
 * next load would present the old one and be logged out. Only rotations get it, not logouts.
 */
export const ROTATION_GRACE_MS = 30_000;

/** Longest chain of rotations followed from a presented token to its live successor. */
const MAX_ROTATION_HOPS = 5;

/**
 * The live session that the rotations of `session` lead to, while its rotation is recent;
 * undefined when it was revoked otherwise (logout, password change), too long ago, or the
 * chain ends in such a revocation.
 */
export async function liveSuccessor(
  repo: Pick<AuthRepo, 'sessionById'>,
  now: Date,
  session: SessionRow,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const { revoked_at, replaced_by } = session;
  if (revoked_at === null || replaced_by === null) return undefined;
  if (now.getTime() - Date.parse(revoked_at) > ROTATION_GRACE_MS) return undefined;
  let next = replaced_by;
  for (let hop = 0; hop < MAX_ROTATION_HOPS; hop += 1) {
    const s = await repo.sessionById(next);
    if (!s) return undefined;
    if (s.session.revoked_at === null) return s;
    if (s.session.replaced_by === null) return undefined;
    next = s.session.replaced_by;
  }
  return undefined;
}
