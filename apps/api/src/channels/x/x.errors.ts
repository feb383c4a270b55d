import { ChannelError } from '../channel';

type Problem = {
  title?: string;
  detail?: string;
  type?: string;
  status?: number;
  error?: string;
  error_description?: string;
};

/**
 * X's problem-details errors and its OAuth endpoint's `{error, error_description}`
 * (reference §4.1, §4.4). A 429 comes back after `x-rate-limit-reset` (epoch seconds).
 */
export function classifyX(now: () => number) {
  return (status: number, body: unknown, headers: Headers): ChannelError => {
    const b = (body ?? {}) as Problem;
    const text = `${status} ${b.error ?? b.title ?? ''}: ${b.error_description ?? b.detail ?? ''}`;
    if (b.error) {
      // A rotated, revoked or expired refresh token answers invalid_request / invalid_grant.
      if (['invalid_grant', 'invalid_request', 'unauthorized_client'].includes(b.error))
        return new ChannelError(status === 401 ? 'invalid' : 'reauth', text, null, status);
      return new ChannelError(status >= 500 ? 'transient' : 'invalid', text, null, status);
    }
    if (status === 401) return new ChannelError('reauth', text, null, status);
    // A suspended account (problem type `user-suspended`, fixtures/x-errors): X holds the
    // account back, so neither a retry nor a new consent helps; the user reads why (ADR 0063).
    if (status === 403 && (b.type ?? '').endsWith('/user-suspended'))
      return new ChannelError('blocked', text, null, status);
    if (status === 429) {
      const waitUntil = (name: string): number | null => {
        const reset = Number(headers.get(name) ?? '');
        return Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - now()) : null;
      };
      // A spent 24-hour cap (the user's, or the app's: docs.x.com rate limits; read by
      // node-twitter-api-v2 as `userDay` / `day`) is a budget: it comes back at its own reset,
      // not at the 15-minute window's.
      for (const cap of ['x-user-limit-24hour', 'x-app-limit-24hour'])
        if (headers.get(`${cap}-remaining`) === '0')
          return new ChannelError('quota', text, waitUntil(`${cap}-reset`), status);
      const wait = waitUntil('x-rate-limit-reset');
      // The monthly usage cap is a budget, not a window: nothing comes back within minutes.
      if ((b.type ?? '').endsWith('/usage-capped'))
        return new ChannelError('quota', text, wait, status);
      return new ChannelError('rate_limited', text, wait, status);
    }
    if (status >= 500) return new ChannelError('transient', text, null, status);
    return new ChannelError('invalid', text, null, status);
  };
}
