import { PUBLISHER_STATUS } from '@tenpo/domain';
import {
  ChannelError,
  type Capabilities,
  type Channel,
  type Grant,
  type GrantAccess,
  type TokenSet,
} from '../channel';
import type { XClient, XProcessing, XToken } from './x.client';
import { LIST_PAGE_SIZE, pageBack } from '../paging';

const MINUTE = 60_000;
/** Segments of a chunked upload (X takes up to 5 MB per APPEND). */
export const X_SEGMENT_BYTES = 4 * 1024 * 1024;
/** How long a video may stay in X's processing before the upload is given up (transient). */
const PROCESSING_LIMIT_MS = 5 * MINUTE;

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
 * A post's link on X. `https://x.com/i/web/status/{id}` opens any post without its author's
 * @username (which the grant may not name), and redirects to `x.com/{username}/status/{id}`.
 */
export const xPostUrl = (id: string): string => `https://x.com/i/web/status/${id}`;

/**
 * X's capabilities (providers.md §4.2–4.3): tweets create, delete and the user's timeline
 * (with the media each carries), one-shot image upload and the chunked upload of videos and
 * GIFs. Create and upload are sent once only.
 */
export function createXCapabilities(
  client: XClient,
  access: GrantAccess,
  sleep: (ms: number) => Promise<void>,
): Capabilities {
  /**
   * A video (or GIF) by the chunked upload (§4.3): initialize, append the segments, finalize,
   * then STATUS until X has processed it. Only a succeeded media id may go into a post.
   */
  async function uploadChunked(
    accessToken: string,
    media: { contentType: string; bytes: Uint8Array },
    category: string,
  ): Promise<string> {
    const init = await client.initializeUpload(accessToken, {
      media_type: media.contentType,
      total_bytes: media.bytes.length,
      media_category: category,
    });
    const id = init.data.id;
    for (let i = 0, at = 0; at < media.bytes.length; i += 1, at += X_SEGMENT_BYTES)
      await client.appendUpload(accessToken, id, i, media.bytes.subarray(at, at + X_SEGMENT_BYTES));
    let info: XProcessing | undefined = (await client.finalizeUpload(accessToken, id)).data
      .processing_info;
    let waited = 0;
    while (info && (info.state === 'pending' || info.state === 'in_progress')) {
      if (waited >= PROCESSING_LIMIT_MS)
        throw new ChannelError('transient', `x: media ${id} still processing`);
      const wait = Math.max(1, info.check_after_secs ?? 1) * 1000;
      await sleep(wait);
      waited += wait;
      info = (await client.uploadStatus(accessToken, id)).data.processing_info;
    }
    if (info?.state === 'failed')
      throw new ChannelError(
        'invalid',
        `x: media ${id} failed: ${info.error?.message ?? info.error?.name ?? 'processing failed'}`,
      );
    return id;
  }

  return {
    publish: {
      publish: (h, draft) =>
        access.use(h, async (g) => {
          const ids = draft.media.map((m) => m.providerId).filter((x): x is string => !!x);
          const r = await client.createTweet(g.accessToken, {
            ...(draft.text ? { text: draft.text } : {}),
            ...(ids.length ? { media: { media_ids: ids } } : {}),
          });
          return { id: r.data.id, text: r.data.text, createdAt: null, url: xPostUrl(r.data.id) };
        }),
    },
    remove: {
      remove: (h, postId) => access.use(h, (g) => client.deleteTweet(g.accessToken, postId)),
    },
    listRecent: {
      listRecent: (h, { since }) =>
        access.use(h, async (g) =>
          // `start_time` ends the timeline at `since`; its pages follow `next_token`.
          pageBack(
            async (token) => {
              const page = await client.userTweets(
                g.accessToken,
                userOf(g),
                since,
                LIST_PAGE_SIZE,
                token,
              );
              const items = (page.data ?? []).map((t) => ({
                id: t.id,
                text: t.text,
                createdAt: t.created_at ? new Date(t.created_at) : null,
                url: xPostUrl(t.id),
                // A media key is `<type>_<media id>` (3 photo, 7 video, 16 GIF).
                mediaIds: (t.attachments?.media_keys ?? []).map((k) => k.replace(/^\d+_/, '')),
              }));
              return { items, next: page.meta?.next_token ?? null };
            },
            (p) => p.createdAt,
            since,
          ),
        ),
    },
    uploadMedia: {
      uploadMedia: (h, media) =>
        access.use(h, async (g) => {
          if (media.kind === 'video')
            return {
              kind: 'video',
              url: '',
              providerId: await uploadChunked(g.accessToken, media, 'tweet_video'),
            };
          if (media.contentType === 'image/gif')
            return {
              kind: 'photo',
              url: '',
              providerId: await uploadChunked(g.accessToken, media, 'tweet_gif'),
            };
          const r = await client.uploadImage(g.accessToken, media.bytes, media.contentType);
          return { kind: 'photo', url: '', providerId: r.data.id };
        }),
    },
  };
}
