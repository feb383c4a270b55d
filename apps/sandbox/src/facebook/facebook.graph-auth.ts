// The Graph API's token check, shared by every Facebook and Instagram route: token → caller,
// then injected faults and the per-hour call budget (with Meta's usage headers).
import { bearer, field, sleep } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import {
  deauthorized,
  expiredToken,
  graphError,
  accountFault,
  invalidToken,
  missingToken,
} from './facebook.errors';
import { fbPages, fbUsers } from './facebook.fixtures';
import type { GraphCtx } from './facebook.graph-common';
import type { FacebookState, FbToken } from './facebook.state';

/** Pages this token may act for. */

/**
 * Graph's rate-limit refusal: #32 for a page token, #17 for a user token (which a fault may mark
 * with its subcode), transient, with the usage headers.
 */
const limitReached = (page: boolean, headers: Record<string, string>, extra: object = {}) =>
  page
    ? graphError(
        400,
        32,
        '(#32) Page request limit reached',
        'OAuthException',
        { is_transient: true },
        headers,
      )
    : graphError(
        400,
        17,
        '(#17) User request limit reached',
        'OAuthException',
        { is_transient: true, ...extra },
        headers,
      );

export const pagesOf = (t: FbToken): string[] =>
  t.kind === 'page' && t.pageId
    ? [t.pageId]
    : t.pageIds.filter((id) => fbPages.some((p) => p.id === id && p.ownerId === t.userId));

export function graphAuth(rt: Runtime, store: JsonStore<FacebookState>): GraphCtx['auth'] {
  const s = () => store.data;
  return async (req, reply, provider, nodeKeys) => {
    const raw = field(req, 'access_token') ?? bearer(req);
    const token = raw ? s().tokens.find((t) => t.token === raw) : undefined;
    const user = token ? fbUsers.find((u) => u.id === token.userId) : undefined;
    const keys = [
      ...nodeKeys,
      ...(token ? [token.userId, token.pageId ?? ''] : []),
      ...(user ? [user.email] : []),
    ].filter(Boolean);
    const usageKey =
      token?.kind === 'page'
        ? `facebook:page:${token.pageId}`
        : `facebook:user:${token?.userId ?? 'anon'}`;
    const limit =
      token?.kind === 'page'
        ? rt.settings().facebook.pageCallsPerHour
        : rt.settings().facebook.userCallsPerHour;
    const usageHeaders = (pct: number, minutes: number): Record<string, string> => {
      const usage = {
        call_count: Math.min(100, Math.round(pct)),
        total_cputime: Math.round(pct / 3),
        total_time: Math.round(pct / 2),
      };
      if (token?.kind === 'page' || provider === 'instagram') {
        const id =
          provider === 'instagram' ? (nodeKeys[0] ?? token?.pageId ?? '') : (token?.pageId ?? '');
        return {
          'x-business-use-case-usage': JSON.stringify({
            [id]: [
              {
                type: provider === 'instagram' ? 'instagram' : 'pages',
                ...usage,
                estimated_time_to_regain_access: minutes,
              },
            ],
          }),
        };
      }
      return { 'x-app-usage': JSON.stringify(usage) };
    };

    for (const f of rt.faults.take(provider, keys, req)) {
      if (f.kind === 'slow') await sleep(f.delay_ms);
      else if (f.kind === 'expired_token') throw expiredToken(rt.now() - 60_000, rt.now());
      else if (f.kind === 'rate_limit') {
        const minutes = Math.max(1, Math.ceil(f.retry_after_seconds / 60));
        const headers = usageHeaders(100, minutes);
        if (provider === 'instagram')
          throw graphError(
            400,
            4,
            '(#4) Application request limit reached',
            'OAuthException',
            { is_transient: true },
            headers,
          );
        throw limitReached(token?.kind === 'page', headers, { error_subcode: 2446079 });
      } else if (f.kind === 'server_error')
        throw f.status >= 502
          ? graphError(
              f.status,
              2,
              'An unexpected error has occurred. Please retry your request later.',
              'OAuthException',
              { is_transient: true },
            )
          : graphError(f.status, 1, 'An unknown error has occurred.', 'OAuthException', {
              is_transient: true,
            });
      else {
        const e = accountFault(f.kind);
        if (e) throw e;
      }
    }
    if (!raw) throw missingToken();
    if (!token) throw invalidToken();
    if (token.revoked) throw deauthorized();
    if (token.expiresAt !== 0 && token.expiresAt <= rt.now())
      throw expiredToken(token.expiresAt, rt.now());
    const hit = rt.hit(usageKey, 3600_000, limit);
    const minutes = Math.ceil((hit.resetAt - rt.now()) / 60_000);
    if (!hit.allowed) {
      const headers = usageHeaders(100, minutes);
      throw limitReached(token.kind === 'page', headers);
    }
    reply.headers(usageHeaders((hit.count / limit) * 100, 0));
    return token;
  };
}
