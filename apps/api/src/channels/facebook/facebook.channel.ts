import { PUBLISHER_STATUS } from '@tenpo/domain';
import {
  ChannelError,
  type Capabilities,
  type Channel,
  type Grant,
  type GrantAccess,
  type PageGrant,
  type PublishedPost,
  type TokenSet,
} from '../channel';
import type { FacebookClient, GraphPage, GraphToken } from './facebook.client';
import { nextCursor } from './facebook.client';
import { LIST_PAGE_SIZE, pageBack } from '../paging';

export type { PageGrant };

/** Graph times come as `2024-01-01T00:00:00+0000`. */
export const graphDate = (t: string | undefined): Date | null => {
  if (!t) return null;
  const d = new Date(t.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  return Number.isNaN(d.getTime()) ? null : d;
};

const DAY = 24 * 60 * 60_000;

/** A post's link: facebook.com resolves a post id (`{page}_{post}`) to its permalink. */
export const fbPostUrl = (postId: string): string => `https://www.facebook.com/${postId}`;
/** Graph gives some permalinks as paths (a video's `/{page}/videos/{id}/`). */
const absoluteFb = (u: string): string => (u.startsWith('/') ? `https://www.facebook.com${u}` : u);

const pageOf = (p: GraphPage): PageGrant => ({
  id: p.id,
  name: p.name,
  is_connected_instagram: p.instagram_business_account !== undefined,
  pageToken: p.access_token ?? null,
  igUserId: p.instagram_business_account?.id ?? null,
});

export function createFacebookChannel(client: FacebookClient, now: () => Date): Channel {
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
    /**
     * A page token got from a long-lived user token does not expire (get-long-lived guide):
     * it is what every post uses, so while Graph says it is valid and never expires
     * (`debug_token` expires_at 0) the grant is kept as it is, however old the user token, and
     * no more refreshes are due (ADR 0063). Otherwise (no page chosen yet, or the page token
     * refused) the user token is exchanged again, as before.
     */
    async refresh({ accessToken, pageToken }) {
      if (pageToken) {
        const d = (await client.debugToken(pageToken)).data;
        if (d?.is_valid && d.expires_at === 0)
          return { ...tokenSet({ access_token: accessToken }, null), expiresAt: null };
      }
      return tokenSet(await client.longLived(accessToken), null);
    },
    revoke: ({ accessToken }) => client.revoke(accessToken),
  };
}

type GraphPost = {
  id: string;
  message?: string;
  created_time?: string;
  permalink_url?: string;
  status_type?: string;
};

/** What a page post carries, by its `status_type`. */
const KIND_OF_STATUS: Readonly<Record<string, PublishedPost['kind']>> = {
  added_video: 'video',
  added_photos: 'photo',
  mobile_status_update: 'text',
  shared_story: 'text',
};

/** The chosen page and its token: what every page call needs. */
const pageOfGrant = (g: Grant): { pageId: string; token: string } => {
  if (!g.pageId || !g.pageToken) throw new ChannelError('invalid', 'facebook: no page chosen');
  return { pageId: g.pageId, token: g.pageToken };
};

/**
 * Facebook's capabilities (providers.md §2.3): the page feed and photos (publish, remove,
 * list) with the chosen page's token, and the page picker with the user's token.
 */
export function createFacebookCapabilities(
  client: FacebookClient,
  access: GrantAccess,
): Capabilities {
  const postOf = (p: GraphPost): PublishedPost => ({
    id: p.id,
    text: p.message ?? '',
    createdAt: graphDate(p.created_time),
    url: p.permalink_url ? absoluteFb(p.permalink_url) : fbPostUrl(p.id),
    kind: (p.status_type ? KIND_OF_STATUS[p.status_type] : undefined) ?? null,
  });
  return {
    publish: {
      publish: (h, draft) =>
        access.use(h, async (g) => {
          const { pageId, token } = pageOfGrant(g);
          const photos = draft.media.filter((m) => m.kind === 'photo');
          const video = draft.media.find((m) => m.kind === 'video');
          const message = draft.text || undefined;
          let id: string;
          let url: string | null = null;
          if (video && photos.length === 0) {
            // A video post: Facebook fetches the file from its public URL (§2.3). The page post
            // of a video is `{page-id}_{video-id}`, which is what the feed lists.
            const r = await client.create<{ id: string }>(
              `${pageId}/videos`,
              { file_url: video.url, description: message },
              token,
            );
            // The feed post of the video, as Graph names it (the `{page}_{video}` shape is not
            // documented); the video is live already, so a failed read must not fail the publish.
            const v = await client
              .node<{
                post_id?: string;
                permalink_url?: string;
              }>(r.id, { fields: 'post_id,permalink_url' }, token)
              .catch(() => ({}) as { post_id?: string; permalink_url?: string });
            id = v.post_id ?? `${pageId}_${r.id}`;
            url = v.permalink_url ? absoluteFb(v.permalink_url) : null;
          } else if (video) {
            throw new ChannelError('invalid', 'facebook: photos and a video cannot share a post');
          } else if (photos.length === 1 && photos[0]) {
            const r = await client.create<{ id: string; post_id?: string }>(
              `${pageId}/photos`,
              { url: photos[0].url, message },
              token,
            );
            id = r.post_id ?? r.id;
          } else {
            // Several photos: each fetched by URL unpublished, then one feed post attaches them.
            const attached: string[] = [];
            for (const m of photos)
              attached.push(
                (
                  await client.create<{ id: string }>(
                    `${pageId}/photos`,
                    { url: m.url, published: 'false' },
                    token,
                  )
                ).id,
              );
            const r = await client.create<{ id: string }>(
              `${pageId}/feed`,
              {
                message,
                link: draft.link ?? undefined,
                ...(attached.length
                  ? {
                      attached_media: JSON.stringify(
                        attached.map((media_fbid) => ({ media_fbid })),
                      ),
                    }
                  : {}),
              },
              token,
            );
            id = r.id;
          }
          return { id, text: draft.text, createdAt: null, url: url ?? fbPostUrl(id) };
        }),
    },
    remove: {
      remove: (h, postId) =>
        access.use(h, async (g) => client.remove(postId, pageOfGrant(g).token)),
    },
    listRecent: {
      listRecent: (h, { since }) =>
        access.use(h, async (g) => {
          const { pageId, token } = pageOfGrant(g);
          // Every page back to `since`, by the Graph API's cursors: a Page shared by many
          // stores may have hundreds of posts since the one we look for (ADR 0055).
          const posts = await pageBack(
            async (after) => {
              const page = await client.list<GraphPost>(
                `${pageId}/published_posts`,
                {
                  fields: 'id,message,created_time,permalink_url,status_type',
                  limit: String(LIST_PAGE_SIZE),
                  since: String(Math.floor(since.getTime() / 1000)),
                  after: after ?? undefined,
                },
                token,
              );
              return { items: (page.data ?? []).map(postOf), next: nextCursor(page) };
            },
            (p) => p.createdAt,
            since,
          );
          return posts.filter((p) => !p.createdAt || p.createdAt >= since);
        }),
    },
    pages: {
      listPages: (h) => access.use(h, async (g) => (await client.pages(g.accessToken)).map(pageOf)),
      async instagramUsername(igUserId, pageToken) {
        return (await client.instagramUser(igUserId, pageToken)).username ?? null;
      },
    },
  };
}
