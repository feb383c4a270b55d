import { mybusinessaccountmanagement } from '@googleapis/mybusinessaccountmanagement';
import { mybusinessbusinessinformation } from '@googleapis/mybusinessbusinessinformation';
import type { mybusinessbusinessinformation_v1 } from '@googleapis/mybusinessbusinessinformation';
import type { ChannelsConfig } from '../../config';
import { form, requestJson, withQuery, type HttpDeps } from '../http';
import { classifyGaxios, classifyGoogle } from './google.errors';

export type GoogleLocationResource = mybusinessbusinessinformation_v1.Schema$Location;

export type GoogleTokenResponse = {
  access_token: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  token_type?: string;
};

export const GOOGLE_SCOPE = 'https://www.googleapis.com/auth/business.manage openid email';

/** The Location fields the picker and the publisher row need (readMask is required). */
export const LOCATION_READ_MASK =
  'name,title,storeCode,phoneNumbers,storefrontAddress,websiteUri,openInfo';

/**
 * Google over HTTP. OAuth is two form POSTs over fetch (we keep the tokens, so the auth
 * library's own refresh loop would fight ours); Account Management and Business Information
 * go through the official clients with `rootUrl` from config (ADR 0009).
 */
export function createGoogleClient(cfg: ChannelsConfig['google'], http: HttpDeps) {
  // The clients' own retry is off: retries, and waits on 429, are ours (channels/http.ts).
  // `rootUrl` goes on each call, not on the client: a client-wide rootUrl keeps only its
  // origin (googleapis-common resolves the method's absolute path against it), which loses a
  // path prefix such as the sandbox's /sandbox/google/…; a per-call one is prepended as is.
  const options = (rootUrl: string, accessToken: string) => ({
    rootUrl: `${rootUrl}/`,
    headers: { authorization: `Bearer ${accessToken}` },
    retry: false,
    fetchImplementation: http.fetch,
  });
  const accounts = mybusinessaccountmanagement({ version: 'v1' });
  const info = mybusinessbusinessinformation({ version: 'v1' });
  const official = async <T>(call: () => Promise<{ data: T }>): Promise<T> => {
    try {
      return (await call()).data;
    } catch (err) {
      throw classifyGaxios(err);
    }
  };
  const token = (params: Record<string, string | undefined>) =>
    requestJson<GoogleTokenResponse>(
      http,
      `${cfg.oauth2Url}/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ client_id: cfg.clientId, client_secret: cfg.clientSecret, ...params }),
      },
      classifyGoogle,
    );

  return {
    authUrl: (p: { state: string; redirectUri: string; codeChallenge: string }): string =>
      withQuery(`${cfg.accountsUrl}/o/oauth2/v2/auth`, {
        client_id: cfg.clientId,
        redirect_uri: p.redirectUri,
        response_type: 'code',
        scope: GOOGLE_SCOPE,
        state: p.state,
        // offline + consent: a refresh token on every connect, also a reconnect.
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        code_challenge: p.codeChallenge,
        code_challenge_method: 'S256',
      }),

    exchangeCode: (code: string, redirectUri: string, codeVerifier: string) =>
      token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      }),

    refresh: (refreshToken: string) =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken }),

    async revoke(tokenValue: string): Promise<void> {
      await requestJson(
        http,
        `${cfg.oauth2Url}/revoke`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ token: tokenValue }),
        },
        classifyGoogle,
      );
    },

    /** The signed-in user's e-mail (OpenID userinfo lives on the oauth2 host's sibling). */
    async tokenInfo(accessToken: string): Promise<{ email?: string; sub?: string }> {
      return requestJson(
        http,
        withQuery(`${cfg.oauth2Url}/tokeninfo`, { access_token: accessToken }),
        { method: 'GET' },
        classifyGoogle,
      );
    },

    async listAccounts(accessToken: string): Promise<{ name: string; accountName: string }[]> {
      const out: { name: string; accountName: string }[] = [];
      let pageToken: string | undefined;
      do {
        const page = await official(() =>
          accounts.accounts.list(
            { pageSize: 20, pageToken },
            options(cfg.accountManagementUrl, accessToken),
          ),
        );
        for (const a of page.accounts ?? [])
          if (a.name) out.push({ name: a.name, accountName: a.accountName ?? '' });
        pageToken = page.nextPageToken ?? undefined;
      } while (pageToken);
      return out;
    },

    async listLocations(accessToken: string, account: string): Promise<GoogleLocationResource[]> {
      const out: GoogleLocationResource[] = [];
      let pageToken: string | undefined;
      do {
        const page = await official(() =>
          info.accounts.locations.list(
            { parent: account, readMask: LOCATION_READ_MASK, pageSize: 100, pageToken },
            options(cfg.businessInformationUrl, accessToken),
          ),
        );
        out.push(...(page.locations ?? []));
        pageToken = page.nextPageToken ?? undefined;
      } while (pageToken);
      return out;
    },

    getLocation: (accessToken: string, locationId: string): Promise<GoogleLocationResource> =>
      official(() =>
        info.locations.get(
          { name: `locations/${locationId}`, readMask: LOCATION_READ_MASK },
          options(cfg.businessInformationUrl, accessToken),
        ),
      ),
  };
}

export type GoogleClient = ReturnType<typeof createGoogleClient>;
