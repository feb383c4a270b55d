import { PUBLISHER_STATUS, type Location } from '@tenpo/domain';
import { ChannelError, type Channel, type TokenSet } from '../channel';
import type { GoogleClient, GoogleLocationResource, GoogleTokenResponse } from './google.client';

/** A chosen location with what the publisher row shows of it. */
export type LocationDetail = Location & { postalCode: string | null; storeCode: string | null };

/** The business-listing side of Google, beyond the OAuth every channel has. */
export interface GoogleBusinessChannel extends Channel {
  listLocations(accessToken: string): Promise<LocationDetail[]>;
  getLocation(accessToken: string, locationId: string): Promise<LocationDetail>;
}

const MINUTE = 60_000;

export const locationOf = (l: GoogleLocationResource): LocationDetail => ({
  id: (l.name ?? '').replace(/^locations\//, ''),
  title: l.title ?? '',
  openInfo: { canReopen: l.openInfo?.canReopen ?? null, status: l.openInfo?.status ?? null },
  phoneNumbers: { primaryPhone: l.phoneNumbers?.primaryPhone ?? null },
  storefrontAddress: {
    addressLines: l.storefrontAddress?.addressLines ?? [],
    locality: l.storefrontAddress?.locality ?? null,
    administrativeArea: l.storefrontAddress?.administrativeArea ?? null,
    regionCode: l.storefrontAddress?.regionCode ?? null,
  },
  websiteUri: l.websiteUri ?? null,
  postalCode: l.storefrontAddress?.postalCode ?? null,
  storeCode: l.storeCode ?? null,
});

export function createGoogleChannel(client: GoogleClient, now: () => Date): GoogleBusinessChannel {
  const tokenSet = async (t: GoogleTokenResponse, withUser: boolean): Promise<TokenSet> => {
    const user = withUser ? await client.tokenInfo(t.access_token) : null;
    return {
      accessToken: t.access_token,
      refreshToken: t.refresh_token ?? null,
      expiresAt: t.expires_in ? new Date(now().getTime() + t.expires_in * 1000) : null,
      scope: t.scope ?? null,
      providerUserId: user?.email ?? user?.sub ?? null,
      providerUserName: user?.email ?? null,
    };
  };
  return {
    key: 'google_my_business',
    connectAs: 'google_my_business',
    // Tokens first; the row is connected once a location is chosen on /connect-location.
    afterConnect: { path: '/connect-location', status: PUBLISHER_STATUS.requesting },
    refreshMarginMs: 5 * MINUTE,
    connectUrl: (req) => client.authUrl(req),
    exchangeCode: async (code, redirectUri, verifier) =>
      tokenSet(await client.exchangeCode(code, redirectUri, verifier), true),
    // Google keeps the refresh token valid and sends no new one.
    refresh: async ({ refreshToken }) => {
      if (!refreshToken) throw new ChannelError('reauth', 'google: no refresh token');
      return tokenSet(await client.refresh(refreshToken), false);
    },
    // Revoking the refresh token ends the whole grant.
    revoke: ({ accessToken, refreshToken }) => client.revoke(refreshToken ?? accessToken),
    async listLocations(accessToken) {
      const out: LocationDetail[] = [];
      for (const account of await client.listAccounts(accessToken))
        for (const l of await client.listLocations(accessToken, account.name))
          out.push(locationOf(l));
      return out;
    },
    getLocation: async (accessToken, locationId) =>
      locationOf(await client.getLocation(accessToken, locationId)),
  };
}
