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
    if (status === 429) {
      const reset = Number(headers.get('x-rate-limit-reset') ?? '');
      const wait = Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - now()) : null;
      // The monthly usage cap is a budget, not a window: nothing comes back within minutes.
      if ((b.type ?? '').endsWith('/usage-capped'))
        return new ChannelError('quota', text, wait, status);
      return new ChannelError('rate_limited', text, wait, status);
    }
    if (status >= 500) return new ChannelError('transient', text, null, status);
    return new ChannelError('invalid', text, null, status);
  };
}
