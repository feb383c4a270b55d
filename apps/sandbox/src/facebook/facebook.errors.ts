import { randomBytes } from 'node:crypto';
import { ProviderError } from '../shared/http';

export const fbtrace = (): string => randomBytes(8).toString('base64').replace(/[+/=]/g, 'A');

/** Graph's error object; the HTTP status is usually 400 even for token and throttling errors. */
export const graphError = (
  status: number,
  code: number,
  message: string,
  type = 'OAuthException',
  extra: {
    error_subcode?: number;
    is_transient?: boolean;
    error_user_title?: string;
    error_user_msg?: string;
  } = {},
  headers: Record<string, string> = {},
): ProviderError =>
  new ProviderError(
    status,
    { error: { message, type, code, ...extra, fbtrace_id: fbtrace() } },
    {
      ...(code === 190
        ? {
            'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${message.replace(/"/g, "'")}"`,
          }
        : {}),
      ...headers,
    },
  );

export const expiredToken = (expiredAt: number, now: number): ProviderError => {
  const fmt = (t: number) =>
    new Date(t).toLocaleString('en-US', {
      timeZone: 'America/Los_Angeles',
      weekday: 'long',
      day: '2-digit',
      month: 'short',
      year: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
    }) + ' PDT';
  return graphError(
    400,
    190,
    `Error validating access token: Session has expired on ${fmt(expiredAt)}. The current time is ${fmt(now)}.`,
    'OAuthException',
    { error_subcode: 463 },
  );
};

export const invalidToken = (): ProviderError =>
  graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token');
export const missingToken = (): ProviderError =>
  graphError(400, 104, 'An access token is required to request this resource.');
export const deauthorized = (): ProviderError =>
  graphError(
    400,
    190,
    'Error validating access token: The user has not authorized application tenpo-sandbox.',
    'OAuthException',
    { error_subcode: 458 },
  );

/**
 * Graph 190/460: the user changed their password (or Facebook reset the session); recorded in
 * fixtures/meta-graph-errors/password-changed-190-460.json.
 */
export const passwordChanged = (): ProviderError =>
  graphError(
    400,
    190,
    'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
    'OAuthException',
    { error_subcode: 460 },
  );

/** Graph 368, temporarily blocked for policy violations (fixtures/meta-graph-errors/blocked-368.json). */
export const policyBlocked = (): ProviderError =>
  graphError(
    400,
    368,
    "You recently posted something that violates Facebook policies, so you're temporarily blocked from using this feature.",
  );

/** The answer of an account fault switch (`kind`), or null when the kind is not an account one. */
export const accountFault = (kind: string): ProviderError | null =>
  kind === 'policy_block'
    ? policyBlocked()
    : kind === 'password_changed'
      ? passwordChanged()
      : kind === 'deauthorized'
        ? deauthorized()
        : null;

/** Graph's answer for an id that does not exist, is not visible to the token, or lacks the edge. */
export const unsupported = (method: string, id: string): ProviderError =>
  graphError(
    400,
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    'GraphMethodException',
    { error_subcode: 33 },
  );

export const invalidParam = (message: string, subcode?: number): ProviderError =>
  graphError(
    400,
    100,
    message.startsWith('(#') ? message : `(#100) ${message}`,
    'OAuthException',
    subcode ? { error_subcode: subcode } : {},
  );
