import { ChannelError } from '../channel';

type GraphError = {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    is_transient?: boolean;
  };
};

/** Graph throttling codes (reference/providers.md §2.4–2.5, §3.4). */
const THROTTLED = new Set([4, 17, 32, 613, 80001]);
/** Token invalid or expired (190 and its subcodes), or the user's session gone (102). */
const REAUTH = new Set([102, 190]);

/**
 * Graph has no Retry-After: the usage headers carry `estimated_time_to_regain_access` in
 * minutes (X-Business-Use-Case-Usage), and X-App-Usage only percentages.
 */
const regainMs = (headers: Headers): number | null => {
  const raw = headers.get('x-business-use-case-usage');
  if (!raw) return null;
  try {
    const usage = JSON.parse(raw) as Record<string, { estimated_time_to_regain_access?: number }[]>;
    const minutes = Object.values(usage)
      .flat()
      .map((u) => u.estimated_time_to_regain_access ?? 0);
    return minutes.length > 0 ? Math.max(...minutes) * 60_000 : null;
  } catch {
    return null;
  }
};

/**
 * Graph API errors (Facebook and Instagram share them), classified on `code`, not on the
 * HTTP status, which is 400 for nearly everything.
 */
export function classifyGraph(status: number, body: unknown, headers: Headers): ChannelError {
  const e = ((body ?? {}) as GraphError).error ?? {};
  const code = e.code ?? 0;
  const text = `${status} ${e.type ?? ''} ${code}/${e.error_subcode ?? ''}: ${e.message ?? ''}`;
  if (REAUTH.has(code)) return new ChannelError('reauth', text, null, status);
  // Missing permission (10, 200–299): only a new consent with the permission fixes it.
  if (code === 10 || (code >= 200 && code <= 299))
    return new ChannelError('reauth', text, null, status);
  // Instagram's posts per rolling 24 h (§3.2): a budget, not a short window. The usage
  // headers speak of the call rate, not of this budget (they say 0 minutes while it is spent),
  // so no wait is taken from them: the caller waits its own quota time.
  if (code === 9 && e.error_subcode === 2207042)
    return new ChannelError('quota', text, null, status);
  // Temporarily blocked for policy violations (error-handling guide: 368, "wait and retry"):
  // its own class, so the user reads why instead of "the request was refused".
  if (code === 368) return new ChannelError('blocked', text, null, status);
  if (THROTTLED.has(code)) return new ChannelError('rate_limited', text, regainMs(headers), status);
  if (code === 1 || code === 2 || e.is_transient || status >= 500)
    return new ChannelError('transient', text, null, status);
  return new ChannelError('invalid', text, null, status);
}

/**
 * Graph's answer for an object that does not exist or is not visible (`100`/`33`, or the older
 * bare `33`): on a DELETE, the post is already gone (fixtures/meta-graph-errors).
 */
export const isGoneAnswer = (body: unknown): boolean => {
  const e = ((body ?? {}) as GraphError).error ?? {};
  return (e.code === 100 && e.error_subcode === 33) || e.code === 33;
};
