import { ProviderError } from '../shared/http';

/** X API v2 problem details. */
export const problem = (
  status: number,
  title: string,
  detail: string,
  type = 'about:blank',
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): ProviderError => new ProviderError(status, { title, detail, type, status, ...extra }, headers);

export const invalidRequest = (
  message: string,
  parameter: string,
  values: string[],
): ProviderError =>
  new ProviderError(400, {
    errors: [{ parameters: { [parameter]: values }, message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: 'https://api.x.com/2/problems/invalid-request',
  });

export const unauthorized = (): ProviderError => problem(401, 'Unauthorized', 'Unauthorized');
export const forbidden = (detail: string): ProviderError => problem(403, 'Forbidden', detail);

/** The OAuth endpoints answer RFC 6749 errors, not problem details. */
export const oauthError = (status: number, error: string, description: string): ProviderError =>
  new ProviderError(status, { error, error_description: description });

/**
 * A suspended user's token: 403 problem `user-suspended` (fixtures/x-errors/403-user-suspended.json,
 * recorded in akrherz/iembot#156).
 */
export const userSuspended = (): ProviderError =>
  problem(
    403,
    'Forbidden',
    'The user used for authentication is suspended',
    'https://api.twitter.com/2/problems/user-suspended',
  );
