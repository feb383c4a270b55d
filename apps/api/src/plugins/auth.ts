import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ja } from '@tenpo/domain';
import type { SessionRow, UserRow } from '../db/types';
import type { Clock } from '../lib/clock';
import { unauthenticated } from '../lib/errors';
import { hashToken } from '../lib/tokens';
import type { AuthRepo } from '../modules/auth/auth.repo';

export type Actor = { user: UserRow; session: SessionRow };

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

/** The logged-in actor of a request that passed `authenticate`. */
export const actorOf = (request: FastifyRequest): Actor => {
  if (!request.actor) throw unauthenticated();
  return request.actor;
};

export const bearerToken = (request: FastifyRequest): string | null => {
  const h = request.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1] ?? null;
};

/**
 * How long a rotated token may still ask `/refresh-token` for a new one. A page reloaded (or
 * closed) while its rotation was travelling never stored the new token; without this, the
 * next load would present the old one and be logged out. Only rotations get it, not logouts.
 */
export const ROTATION_GRACE_MS = 30_000;

/** Longest chain of rotations followed from a presented token to its live successor. */
const MAX_ROTATION_HOPS = 5;

/**
 * Resolves the session of a Bearer token: unknown, revoked and expired tokens all answer 401
 * (an expired one with the spec's "access token expired" text), and a disabled account too.
 * With `followRotation` (the rotation call only), a token rotated within ROTATION_GRACE_MS
 * resolves to the live session its rotations lead to.
 */
export function createAuthenticate(
  repo: AuthRepo,
  clock: Clock,
  opts: { followRotation?: boolean } = {},
) {
  const successor = async (found: Actor): Promise<Actor | undefined> => {
    const { revoked_at, replaced_by } = found.session;
    if (revoked_at === null || replaced_by === null) return undefined;
    if (clock.now().getTime() - Date.parse(revoked_at) > ROTATION_GRACE_MS) return undefined;
    let next = replaced_by;
    for (let hop = 0; hop < MAX_ROTATION_HOPS; hop += 1) {
      const s = await repo.sessionById(next);
      if (!s) return undefined;
      if (s.session.revoked_at === null) return s;
      if (s.session.replaced_by === null) return undefined;
      next = s.session.replaced_by;
    }
    return undefined;
  };

  return async function authenticate(request: FastifyRequest): Promise<void> {
    const token = bearerToken(request);
    if (!token) throw unauthenticated();
    let found = await repo.sessionByHash(hashToken(token));
    if (found && found.session.revoked_at !== null && opts.followRotation) {
      found = await successor(found);
    }
    if (!found || found.session.revoked_at !== null) throw unauthenticated();
    if (found.session.expires_at <= clock.now().toISOString())
      throw unauthenticated(ja.accessTokenExpired);
    if (found.user.status === 0) throw unauthenticated();
    request.actor = found;
  };
}

export function registerAuthDecorator(app: FastifyInstance): void {
  app.decorateRequest('actor', null);
}
