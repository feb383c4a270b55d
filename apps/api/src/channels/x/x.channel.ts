import { PUBLISHER_STATUS } from '@tenpo/domain';
import { ChannelError, type Channel, type TokenSet } from '../channel';
import type { XClient, XToken } from './x.client';

const MINUTE = 60_000;

export function createXChannel(client: XClient, now: () => Date): Channel {
  const tokenSet = (t: XToken, user?: { id: string; username?: string }): TokenSet => ({
    accessToken: t.access_token,
    refreshToken: t.refresh_token ?? null,
    expiresAt: t.expires_in ? new Date(now().getTime() + t.expires_in * 1000) : null,
    scope: t.scope ?? null,
    providerUserId: user?.id ?? null,
    providerUserName: user?.username ? `@${user.username}` : null,
  });
  return {
    key: 'twitter',
    connectAs: 'twitter',
    // Nothing to choose after consent: the account is the channel.
    afterConnect: { path: '/connect-account', status: PUBLISHER_STATUS.connected },
    refreshMarginMs: 5 * MINUTE,
    connectUrl: (req) => client.authorizeUrl(req),
    async exchangeCode(code, redirectUri, verifier) {
      const t = await client.exchangeCode(code, redirectUri, verifier);
      const me = await client.me(t.access_token);
      return tokenSet(t, me.data);
    },
    // X rotates refresh tokens: the new one replaces the old, which stops working.
    async refresh({ refreshToken }) {
      if (!refreshToken) throw new ChannelError('reauth', 'x: no refresh token');
      return tokenSet(await client.refresh(refreshToken));
    },
    revoke: ({ accessToken, refreshToken }) =>
      refreshToken
        ? client.revoke(refreshToken, 'refresh_token')
        : client.revoke(accessToken, 'access_token'),
  };
}
