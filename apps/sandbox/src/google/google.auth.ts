import type { FastifyRequest } from 'fastify';
import { bearer, sleep } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import {
  errorInfo,
  gError,
  locationSuspended,
  quotaExceeded,
  unauthenticated,
} from './google.errors';
import type { GAccess, GoogleState } from './google.state';

export const BUSINESS_MANAGE = 'https://www.googleapis.com/auth/business.manage';
export const PLUS_BUSINESS_MANAGE = 'https://www.googleapis.com/auth/plus.business.manage';

export type GoogleCaller = { email: string; token: GAccess; accountIds: string[] };

/**
 * Every GBP API call: bearer token → caller, then the fault switches, the scope check and the
 * per-API queries-per-minute quota, in the order Google's front end applies them.
 */
export async function authenticate(
  req: FastifyRequest,
  rt: Runtime,
  store: JsonStore<GoogleState>,
  service: string,
  opts: { legacyScope?: boolean } = {},
): Promise<GoogleCaller> {
  const raw =
    bearer(req) ?? ((req.query as Record<string, unknown>).access_token as string | undefined);
  const token = raw ? store.data.accessTokens.find((t) => t.token === raw) : undefined;
  const accountIds = token
    ? store.data.accounts.filter((a) => a.ownerEmail === token.email).map((a) => a.id)
    : [];

  const faults = rt.faults.take('google', token ? [token.email, ...accountIds] : [], req);
  for (const f of faults) {
    if (f.kind === 'slow') await sleep(f.delay_ms);
    else if (f.kind === 'expired_token') throw unauthenticated(service, 'ACCESS_TOKEN_EXPIRED');
    else if (f.kind === 'rate_limit')
      throw quotaExceeded(
        service,
        'Requests',
        'Requests per minute',
        rt.settings().google.queriesPerMinute,
        f.retry_after_seconds,
      );
    else if (f.kind === 'server_error')
      throw f.status === 503
        ? gError(503, 'The service is currently unavailable.')
        : gError(
            f.status,
            'Internal error encountered.',
            undefined,
            undefined,
            f.status === 500 ? 'INTERNAL' : undefined,
          );
    else if (f.kind === 'suspended') throw locationSuspended();
  }

  if (!raw) throw unauthenticated(service, 'CREDENTIALS_MISSING');
  if (!token || token.revoked || token.expiresAt <= rt.now())
    throw unauthenticated(service, 'ACCESS_TOKEN_EXPIRED');
  const scopes = token.scope.split(' ');
  const ok =
    scopes.includes(BUSINESS_MANAGE) || (opts.legacyScope && scopes.includes(PLUS_BUSINESS_MANAGE));
  if (!ok)
    throw gError(403, 'Request had insufficient authentication scopes.', [
      errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT', service, {
        method: `google.mybusiness.${service.split('.')[0]}`,
      }),
    ]);

  const qpm = rt.settings().google.queriesPerMinute;
  const q = rt.hit(`google:qpm:${service}`, 60_000, qpm);
  if (!q.allowed)
    throw quotaExceeded(
      service,
      'Requests',
      'Requests per minute',
      qpm,
      Math.ceil((q.resetAt - rt.now()) / 1000),
    );
  return { email: token.email, token, accountIds };
}
