import type { ChannelsConfig } from '../../config';
import { form, requestJson, withQuery, type HttpDeps } from '../http';
import { classifyX } from './x.errors';

/** Posting with media needs these; offline.access brings a refresh token (reference §4.1). */
export const X_SCOPE = 'tweet.read tweet.write users.read offline.access media.write';

export type XToken = {
  token_type?: string;
  expires_in?: number;
  access_token: string;
  scope?: string;
  refresh_token?: string;
};

/**
 * X API v2 over fetch (DESIGN §9: twitter-api-v2 hard-codes its hosts). A confidential
 * client: the token endpoint takes HTTP Basic with the client id and secret.
 */
export function createXClient(cfg: ChannelsConfig['x'], http: HttpDeps) {
  const classify = classifyX(http.now);
  const basic = `Basic ${Buffer.from(`${cfg.clientId}:${cfg.clientSecret}`).toString('base64')}`;
  const post = <T>(path: string, params: Record<string, string | undefined>) =>
    requestJson<T>(
      http,
      `${cfg.apiUrl}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        body: form({ client_id: cfg.clientId, ...params }),
      },
      classify,
    );

  return {
    authorizeUrl: (p: { state: string; redirectUri: string; codeChallenge: string }): string =>
      withQuery(`${cfg.wwwUrl}/i/oauth2/authorize`, {
        response_type: 'code',
        client_id: cfg.clientId,
        redirect_uri: p.redirectUri,
        scope: X_SCOPE,
        state: p.state,
        code_challenge: p.codeChallenge,
        code_challenge_method: 'S256',
      }),
    exchangeCode: (code: string, redirectUri: string, codeVerifier: string) =>
      post<XToken>('/2/oauth2/token', {
        code,
        grant_type: 'authorization_code',
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      }),
    refresh: (refreshToken: string) =>
      post<XToken>('/2/oauth2/token', { grant_type: 'refresh_token', refresh_token: refreshToken }),
    async revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void> {
      await post('/2/oauth2/revoke', { token, token_type_hint: hint });
    },
    me: (accessToken: string) =>
      requestJson<{ data?: { id: string; name?: string; username?: string } }>(
        http,
        withQuery(`${cfg.apiUrl}/2/users/me`, {}),
        { method: 'GET', headers: { authorization: `Bearer ${accessToken}` } },
        classify,
      ),
  };
}

export type XClient = ReturnType<typeof createXClient>;
