import { ChannelError, type FieldViolation } from '../channel';
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
          metadata?: Record<string, string>;
          fieldViolations?: { field?: string; description?: string }[];
          errorDetails?: {
            code?: number;
            field?: string;
            message?: string;
            value?: string;
            fieldIndex?: number;
          }[];
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
  return new ChannelError('invalid', text, null, status, null, fieldViolationsOf(e.details));
}

type Detail = NonNullable<Exclude<GoogleApiError['error'], string | undefined>['details']>[number];

/** ErrorInfo metadata keys that have been seen to carry the field (UNCONFIRMED, ADR 0061). */
const INFO_FIELD_KEYS = ['field', 'field_mask', 'fieldMask', 'field_path'];

/**
 * The fields a refusal names, from each detail type Google uses (reference/providers.md §1.2,
 * fixtures/google-errors/): v1 `google.rpc.BadRequest.fieldViolations[{field, description}]`,
 * v4 `google.mybusiness.v4.ValidationError.errorDetails[{code, field, message, value,
 * fieldIndex}]`, and v1 `google.rpc.ErrorInfo{reason, metadata}` when its metadata names a field.
 * A repeated field's index (`fieldIndex`) is kept in the path as `field[i]`.
 */
export function fieldViolationsOf(details: readonly Detail[] | undefined): FieldViolation[] {
  const out: FieldViolation[] = [];
  for (const d of details ?? []) {
    const type = d['@type'] ?? '';
    if (type.endsWith('google.rpc.BadRequest') || (!type && d.fieldViolations))
      for (const v of d.fieldViolations ?? [])
        out.push({ field: v.field ?? '', description: v.description ?? '' });
    else if (type.endsWith('google.mybusiness.v4.ValidationError'))
      for (const v of d.errorDetails ?? [])
        out.push({
          field:
            typeof v.fieldIndex === 'number' && v.field
              ? `${v.field}[${v.fieldIndex}]`
              : (v.field ?? ''),
          description: v.message ?? '',
          ...(typeof v.code === 'number' ? { code: v.code } : {}),
          ...(v.value !== undefined ? { value: v.value } : {}),
        });
    else if (type.endsWith('google.rpc.ErrorInfo') && d.reason) {
      const key = INFO_FIELD_KEYS.find((k) => d.metadata?.[k]);
      if (key)
        out.push({
          field: d.metadata?.[key] ?? '',
          description: d.reason,
          reason: d.reason,
          ...(d.metadata?.value !== undefined ? { value: d.metadata.value } : {}),
        });
    }
  }
  return out;
}

/** The v1 ErrorInfo reason of a refusal, when Google gave one (e.g. `PIN_DROP_REQUIRED`). */
export function errorReasonOf(body: unknown): string | null {
  const e = (body as GoogleApiError | null)?.error;
  if (!e || typeof e === 'string') return null;
  return e.details?.find((d) => d['@type']?.endsWith('google.rpc.ErrorInfo'))?.reason ?? null;
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
