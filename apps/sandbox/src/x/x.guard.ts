// The X API's gate, shared by every v2 route: token → user, faults, scope, and the endpoint's
// rate-limit windows (every answer carries x-rate-limit-*).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearer, sleep } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { problem, unauthorized, userSuspended } from './x.errors';
import { xUsers, type XState, type XToken } from './x.state';

const WINDOW = 15 * 60_000;

export type Endpoint = {
  key: string;
  limit: (rt: Runtime) => number;
  scopes: string[];
  app24h?: (rt: Runtime) => number;
  /** The per-user 24-hour cap (`x-user-limit-24hour-*`, POST /2/tweets). */
  user24h?: (rt: Runtime) => number;
};
export const ENDPOINTS: Record<string, Endpoint> = {
  createTweet: {
    key: 'tweets:create',
    limit: (rt) => rt.settings().x.tweetsPer15MinPerUser,
    scopes: ['tweet.read', 'tweet.write', 'users.read'],
    app24h: (rt) => rt.settings().x.tweetsPer24hPerApp,
    user24h: (rt) => rt.settings().x.tweetsPer24hPerUser,
  },
  deleteTweet: {
    key: 'tweets:delete',
    limit: (rt) => rt.settings().x.deletesPer15MinPerUser,
    scopes: ['tweet.read', 'tweet.write', 'users.read'],
  },
  getTweet: { key: 'tweets:get', limit: () => 900, scopes: ['tweet.read', 'users.read'] },
  userTweets: { key: 'users:tweets', limit: () => 900, scopes: ['tweet.read', 'users.read'] },
  me: { key: 'users:me', limit: () => 75, scopes: ['tweet.read', 'users.read'] },
  media: { key: 'media', limit: () => 500, scopes: ['media.write'] },
};

/** Token → user, faults, scope and the endpoint's window; every answer carries x-rate-limit-*. */
export type XGuard = (req: FastifyRequest, reply: FastifyReply, ep: Endpoint) => Promise<XToken>;

/** What the X API's route groups share. */
export type XCtx = { rt: Runtime; store: JsonStore<XState>; guard: XGuard };

export function xGuard(rt: Runtime, store: JsonStore<XState>): XGuard {
  const s = () => store.data;
  return async (req, reply, ep) => {
    const raw = bearer(req);
    const token = raw ? s().tokens.find((t) => t.token === raw) : undefined;
    const user = token ? xUsers.find((u) => u.id === token.userId) : undefined;
    const limit = ep.limit(rt);
    for (const f of rt.faults.take(
      'x',
      user ? [user.id, user.username, `@${user.username}`, user.email] : [],
      req,
    )) {
      if (f.kind === 'slow') await sleep(f.delay_ms);
      else if (f.kind === 'expired_token') throw unauthorized();
      else if (f.kind === 'rate_limit') {
        const reset = Math.ceil(rt.now() / 1000) + f.retry_after_seconds;
        throw problem(
          429,
          'Too Many Requests',
          'Too Many Requests',
          'about:blank',
          {},
          {
            'x-rate-limit-limit': String(limit),
            'x-rate-limit-remaining': '0',
            'x-rate-limit-reset': String(reset),
          },
        );
      } else if (f.kind === 'server_error')
        throw problem(
          f.status,
          f.status === 503 ? 'Service Unavailable' : 'Internal Server Error',
          f.status === 503 ? 'Service Unavailable' : 'Internal Server Error',
        );
      else if (f.kind === 'suspended') throw userSuspended();
    }
    if (!token || token.revoked || token.expiresAt <= rt.now()) throw unauthorized();
    const have = token.scope.split(' ');
    const missing = ep.scopes.filter((sc) => !have.includes(sc));
    if (missing.length)
      throw problem(
        403,
        'Forbidden',
        `Missing required OAuth 2.0 scopes: ${missing.join(', ')}`,
        'https://api.x.com/2/problems/oauth2-insufficient-scope',
      );
    const hit = rt.hit(`x:${ep.key}:${token.userId}`, WINDOW, limit);
    const headers: Record<string, string> = {
      'x-rate-limit-limit': String(limit),
      'x-rate-limit-remaining': String(hit.remaining),
      'x-rate-limit-reset': String(Math.ceil(hit.resetAt / 1000)),
    };
    if (ep.app24h && hit.allowed) {
      const day = rt.hit(`x:${ep.key}:app24h`, 24 * 3600_000, ep.app24h(rt));
      Object.assign(headers, {
        'x-app-limit-24hour-limit': String(ep.app24h(rt)),
        'x-app-limit-24hour-remaining': String(day.remaining),
        'x-app-limit-24hour-reset': String(Math.ceil(day.resetAt / 1000)),
      });
      if (!day.allowed)
        throw problem(429, 'Too Many Requests', 'Too Many Requests', 'about:blank', {}, headers);
    }
    if (ep.user24h && hit.allowed) {
      // The user's own 24-hour cap (as X answers POST /2/tweets; node-twitter-api-v2 reads it
      // as `rateLimit.userDay`): a 429 once spent, whose reset is the 24-hour one.
      const cap = ep.user24h(rt);
      const day = rt.hit(`x:${ep.key}:user24h:${token.userId}`, 24 * 3600_000, cap);
      Object.assign(headers, {
        'x-user-limit-24hour-limit': String(cap),
        'x-user-limit-24hour-remaining': String(day.remaining),
        'x-user-limit-24hour-reset': String(Math.ceil(day.resetAt / 1000)),
      });
      if (!day.allowed)
        throw problem(429, 'Too Many Requests', 'Too Many Requests', 'about:blank', {}, headers);
    }
    if (!hit.allowed)
      throw problem(429, 'Too Many Requests', 'Too Many Requests', 'about:blank', {}, headers);
    reply.headers(headers);
    return token;
  };
}
