import { PUBLISHER_STATUS, type FacebookPage } from '@tenpo/domain';
import type { Channel, TokenSet } from '../channel';
import type { FacebookClient, GraphPage, GraphToken } from './facebook.client';

/** A page the user manages, with its page token and linked Instagram account. */
export type PageGrant = FacebookPage & { pageToken: string | null; igUserId: string | null };

export interface FacebookPagesChannel extends Channel {
  listPages(userToken: string): Promise<PageGrant[]>;
  instagramUsername(igUserId: string, pageToken: string): Promise<string | null>;
}

const DAY = 24 * 60 * 60_000;

const pageOf = (p: GraphPage): PageGrant => ({
  id: p.id,
  name: p.name,
  is_connected_instagram: p.instagram_business_account !== undefined,
  pageToken: p.access_token ?? null,
  igUserId: p.instagram_business_account?.id ?? null,
});

export function createFacebookChannel(
  client: FacebookClient,
  now: () => Date,
): FacebookPagesChannel {
  const tokenSet = (t: GraphToken, userId: string | null): TokenSet => ({
    accessToken: t.access_token,
    refreshToken: null,
    expiresAt: t.expires_in ? new Date(now().getTime() + t.expires_in * 1000) : null,
    scope: null,
    providerUserId: userId,
    providerUserName: null,
  });
  return {
    key: 'facebook',
    connectAs: 'facebook',
    // Tokens first; the row is connected once a page is chosen on /facebook/connect-page.
    afterConnect: { path: '/facebook/connect-page', status: PUBLISHER_STATUS.requesting },
    // Long-lived user tokens last ~60 days and cannot be exchanged once expired: renew early.
    refreshMarginMs: 7 * DAY,
    connectUrl: (req) => client.dialogUrl(req),
    // The login dialog has no PKCE; the state, kept server-side, ties the return to the store.
    async exchangeCode(code, redirectUri) {
      const short = await client.exchangeCode(code, redirectUri);
      const long = await client.longLived(short.access_token);
      const me = await client.me(long.access_token);
      return tokenSet(long, me.id);
    },
    refresh: async ({ accessToken }) => tokenSet(await client.longLived(accessToken), null),
    revoke: ({ accessToken }) => client.revoke(accessToken),
    listPages: async (userToken) => (await client.pages(userToken)).map(pageOf),
    async instagramUsername(igUserId, pageToken) {
      return (await client.instagramUser(igUserId, pageToken)).username ?? null;
    },
  };
}
