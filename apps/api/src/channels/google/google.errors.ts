import { ChannelError } from '../channel';
import { retryAfterMs } from '../http';

type GoogleApiError = {
  error?:
    | {
        code?: number;
        message?: string;
        status?: string;
        details?: {
          '@type'?: string;
          retryDelay?: string;
          reason?: string;
          fieldViolations?: { field?: string; description?: string }[];
        }[];
      }
    | string;
  error_description?: string;
};

/** `"30s"` / `"1.5s"` of google.rpc.RetryInfo. */
const durationMs = (d: string | undefined): number | null => {
  const m = d ? /^(\d+(?:\.\d+)?)s$/.exec(d) : null;
  return m ? Math.round(Number(m[1]) * 1000) : null;
};

/**
 * Google's answers, classified once: the OAuth token endpoint's `{error, error_description}`
 * and the APIs' `{error: {code, status, details}}` envelope (reference/providers.md §1.1–1.2).
 */
export function classifyGoogle(status: number, body: unknown, headers: Headers): ChannelError {
  const b = (body ?? {}) as GoogleApiError;
  if (typeof b.error === 'string') {
    // OAuth endpoint: invalid_grant is a revoked or expired grant; invalid_client is our config.
    const text = `${b.error}: ${b.error_description ?? ''}`;
    if (b.error === 'invalid_grant' || b.error === 'unauthorized_client')
      return new ChannelError('reauth', text, null, status);
    if (status >= 500) return new ChannelError('transient', text, null, status);
    return new ChannelError('invalid', text, null, status);
  }
  const e = b.error ?? {};
  const text = `${status} ${e.status ?? ''}: ${e.message ?? ''}`.trim();
  if (status === 401) return new ChannelError('reauth', text, null, status);
  if (status === 403) {
    // A missing business.manage scope needs a new consent; other refusals are not fixed by one.
    const scope = e.details?.some((d) => d.reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT');
    return new ChannelError(scope ? 'reauth' : 'invalid', text, null, status);
  }
  if (status === 429) {
    const info = e.details?.find((d) => d['@type']?.endsWith('google.rpc.RetryInfo'));
    const wait = retryAfterMs(headers, Date.now()) ?? durationMs(info?.retryDelay);
    return new ChannelError('rate_limited', text, wait, status);
  }
  if (status >= 500 || status === 408) return new ChannelError('transient', text, null, status);
  // google.rpc.BadRequest names the refused fields (a 400 INVALID_ARGUMENT).
  const fields = (e.details ?? [])
    .flatMap((d) => d.fieldViolations ?? [])
    .map((v) => ({ field: v.field ?? '', description: v.description ?? '' }));
  return new ChannelError('invalid', text, null, status, null, fields);
}

/** The official clients throw a GaxiosError with the response; classify it the same way. */
export function classifyGaxios(err: unknown): ChannelError {
  if (err instanceof ChannelError) return err;
  const res = (err as { response?: { status?: number; data?: unknown; headers?: unknown } })
    .response;
  if (!res?.status) return new ChannelError('transient', `network: ${(err as Error).message}`);
  const headers = res.headers instanceof Headers ? res.headers : new Headers();
  return classifyGoogle(res.status, res.data, headers);
}
