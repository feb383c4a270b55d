import { ProviderError } from '../shared/http';

/** Canonical codes of google.rpc.Code by HTTP status, as Google's JSON error envelope spells them. */
const canonical: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export const gError = (
  code: number,
  message: string,
  details?: unknown[],
  headers?: Record<string, string>,
  status?: string,
): ProviderError =>
  new ProviderError(
    code,
    {
      error: {
        code,
        message,
        status: status ?? canonical[code] ?? 'UNKNOWN',
        ...(details ? { details } : {}),
      },
    },
    headers,
  );

export const badRequest = (
  violations: { field: string; description: string }[],
  message = 'Request contains an invalid argument.',
): ProviderError =>
  gError(400, message, [
    { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations },
  ]);

/**
 * v4 (mybusiness.googleapis.com) validation errors carry their own detail type: ErrorDetail
 * {code (ErrorCode), field?, message, value?, fieldIndex?}; Google leaves `field` out when the
 * failure is not one field's (a photo it could not fetch: fixtures/google-errors/).
 */
export const v4ValidationError = (
  errors: { code: number; field?: string; message: string; value?: string; fieldIndex?: number }[],
): ProviderError =>
  gError(400, 'Request contains an invalid argument.', [
    { '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError', errorDetails: errors },
  ]);

export const errorInfo = (
  reason: string,
  service: string,
  metadata: Record<string, string> = {},
) => ({
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
  reason,
  domain: 'googleapis.com',
  metadata: { service, ...metadata },
});

const UNAUTH_MESSAGE =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

export const unauthenticated = (
  service: string,
  reason: 'ACCESS_TOKEN_EXPIRED' | 'CREDENTIALS_MISSING' | 'ACCESS_TOKEN_TYPE_UNSUPPORTED',
): ProviderError =>
  gError(
    401,
    reason === 'CREDENTIALS_MISSING'
      ? 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.'
      : UNAUTH_MESSAGE,
    [errorInfo(reason, service)],
    { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
  );

export const quotaExceeded = (
  service: string,
  metric: string,
  limitName: string,
  limit: number,
  retryAfterSeconds: number,
): ProviderError =>
  gError(
    429,
    `Quota exceeded for quota metric '${metric}' and limit '${limitName}' of service '${service}' for consumer 'project_number:100000000001'.`,
    [
      errorInfo('RATE_LIMIT_EXCEEDED', service, {
        quota_metric: `${service}/${metric.toLowerCase().replace(/\s+/g, '_')}`,
        quota_limit: limitName.replace(/\s+/g, ''),
        quota_limit_value: String(limit),
        consumer: 'projects/100000000001',
        quota_location: 'global',
      }),
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfterSeconds}s` },
      {
        '@type': 'type.googleapis.com/google.rpc.Help',
        links: [
          {
            description: 'Request a higher quota limit.',
            url: 'https://cloud.google.com/docs/quota#requesting_higher_quota',
          },
        ],
      },
    ],
  );

export const notFound = (): ProviderError => gError(404, 'Requested entity was not found.');
export const permissionDenied = (message = 'The caller does not have permission'): ProviderError =>
  gError(403, message);

/**
 * A suspended or unverified location: Google's plain PERMISSION_DENIED envelope with its
 * canonical message, no details (fixtures/google-errors/permission-denied-location.json).
 */
export const locationSuspended = (): ProviderError =>
  gError(403, 'The caller does not have permission', undefined, undefined, 'PERMISSION_DENIED');

/** Google's front end answers an unknown path with an HTML page, not the JSON envelope. */
export const unknownPath = (path: string): ProviderError =>
  new ProviderError(
    404,
    `<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error 404 (Not Found)!!1</title>\n  <p><b>404.</b> <ins>That’s an error.</ins>\n  <p>The requested URL <code>/${path.replace(/[<>&]/g, '')}</code> was not found on this server.  <ins>That’s all we know.</ins>\n`,
    { 'content-type': 'text/html; charset=UTF-8' },
  );
