import { PUBLISHER_STATUS } from '@tenpo/domain';
import {
  ChannelError,
  type Capabilities,
  type Channel,
  type Grant,
  type GrantAccess,
  type TokenSet,
} from '../channel';
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

const userOf = (g: Grant): string => {
  if (!g.providerUserId) throw new ChannelError('reauth', 'x: the grant names no user');
  return g.providerUserId;
};

/**
 * X's capabilities (providers.md §4.2–4.3): tweets create, delete and the user's timeline,
 * and one-shot image upload. Create and upload are sent once only.
 */
export function createXCapabilities(client: XClient, access: GrantAccess): Capabilities {
  return {
    publish: {
      publish: (h, draft) =>
        access.use(h, async (g) => {
          const ids = draft.media.map((m) => m.providerId).filter((x): x is string => !!x);
          const r = await client.createTweet(g.accessToken, {
            ...(draft.text ? { text: draft.text } : {}),
            ...(ids.length ? { media: { media_ids: ids } } : {}),
          });
          return { id: r.data.id, text: r.data.text, createdAt: null, url: null };
        }),
    },
    remove: {
      remove: (h, postId) => access.use(h, (g) => client.deleteTweet(g.accessToken, postId)),
    },
    listRecent: {
      listRecent: (h, { since, limit = 20 }) =>
        access.use(h, async (g) => {
          const page = await client.userTweets(g.accessToken, userOf(g), since, limit);
          return (page.data ?? []).map((t) => ({
            id: t.id,
            text: t.text,
            createdAt: t.created_at ? new Date(t.created_at) : null,
            url: null,
          }));
        }),
    },
    uploadMedia: {
      uploadMedia: (h, media) =>
        access.use(h, async (g) => {
          if (media.kind !== 'photo')
            throw new ChannelError('invalid', 'x: only photos are uploaded in one shot');
          const r = await client.uploadImage(g.accessToken, media.bytes, media.contentType);
          return { kind: 'photo', url: '', providerId: r.data.id };
        }),
    },
  };
}
