import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ja } from '@tenpo/domain';
import type { SessionRow, UserRow } from '../db/types';
import type { Clock } from '../lib/clock';
import { unauthenticated } from '../lib/errors';
import { hashToken } from '../lib/tokens';
import type { AuthRepo } from '../modules/auth/auth.repo';
import { liveSuccessor } from '../modules/auth/rotation';

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
 * Resolves the session of a Bearer token: unknown, revoked and expired tokens all answer 401
 * (an expired one with the spec's "access token expired" text), and a disabled account too.
 * With `followRotation` (the rotation call only), a token rotated within the grace of ADR 0012
 * resolves to the live session its rotations lead to.
 */
export function createAuthenticate(
  repo: AuthRepo,
  clock: Clock,
  opts: { followRotation?: boolean } = {},
) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const token = bearerToken(request);
    if (!token) throw unauthenticated();
    let found = await repo.sessionByHash(hashToken(token));
    if (found && found.session.revoked_at !== null && opts.followRotation) {
      found = await liveSuccessor(repo, clock.now(), found.session);
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
