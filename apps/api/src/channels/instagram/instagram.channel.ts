import {
  ChannelError,
  type Capabilities,
  type Channel,
  type Grant,
  type GrantAccess,
  type PublishedPost,
} from '../channel';
import { graphDate } from '../facebook/facebook.channel';
import type { FacebookClient } from '../facebook/facebook.client';
import { nextCursor } from '../facebook/facebook.client';
import { LIST_PAGE_SIZE, pageBack } from '../paging';

/**
 * Instagram (API with Facebook Login, reference §3.1) has no consent screen of its own: the
 * Facebook login grants `instagram_basic` / `instagram_content_publish`, and the IG account is
 * the one linked to the chosen Page, used with that Page's token. So connecting Instagram is
 * connecting Facebook (spec 1 §2), and its errors are Graph errors (facebook.errors.ts).
 */
export function createInstagramChannel(facebook: Channel): Channel {
  return {
    key: 'instagram',
    connectAs: 'facebook',
    afterConnect: facebook.afterConnect,
    refreshMarginMs: facebook.refreshMarginMs,
    connectUrl: (req) => facebook.connectUrl(req),
    exchangeCode: (code, redirectUri, verifier) =>
      facebook.exchangeCode(code, redirectUri, verifier),
    refresh: (tokens) => facebook.refresh(tokens),
    // Page tokens end with the Facebook grant; nothing of its own to revoke.
    revoke: async () => undefined,
  };
}

type IgMedia = { id: string; caption?: string; timestamp?: string; permalink?: string };

const igOf = (g: Grant): { igUserId: string; token: string } => {
  if (!g.igUserId) throw new ChannelError('invalid', 'instagram: no account linked');
  return { igUserId: g.igUserId, token: g.accessToken };
};

/**
 * Instagram's capabilities (providers.md §3.2): a container, then media_publish, each sent
 * once; and the account's recent media. Instagram publishes only with media (a JPEG by URL);
 * a container is polled until FINISHED before it is published.
 */
export function createInstagramCapabilities(
  client: FacebookClient,
  access: GrantAccess,
  sleep: (ms: number) => Promise<void>,
): Capabilities {
  const postOf = (m: IgMedia): PublishedPost => ({
    id: m.id,
    text: m.caption ?? '',
    createdAt: graphDate(m.timestamp),
    url: m.permalink ?? null,
  });
  const waitFinished = async (containerId: string, token: string): Promise<void> => {
    for (let i = 0; i < 30; i += 1) {
      const c = await client.node<{ status_code?: string; status?: string }>(
        containerId,
        { fields: 'status_code,status' },
        token,
      );
      if (c.status_code === 'FINISHED' || c.status_code === undefined) return;
      if (c.status_code === 'ERROR' || c.status_code === 'EXPIRED')
        throw new ChannelError(
          'invalid',
          `instagram container ${c.status_code}: ${c.status ?? ''}`,
        );
      await sleep(1000);
    }
    throw new ChannelError('transient', 'instagram container still in progress');
  };
  return {
    publish: {
      publish: (h, draft) =>
        access.use(h, async (g) => {
          const { igUserId, token } = igOf(g);
          const items = draft.media;
          if (items.length === 0)
            throw new ChannelError('invalid', 'instagram: a post needs a photo or a video');
          const single = (m: (typeof items)[number], child: boolean) =>
            client.create<{ id: string }>(
              `${igUserId}/media`,
              m.kind === 'photo'
                ? { image_url: m.url, ...(child ? { is_carousel_item: 'true' } : {}) }
                : {
                    // Feed videos are reels; a carousel's video item is VIDEO (§3.2).
                    media_type: child ? 'VIDEO' : 'REELS',
                    video_url: m.url,
                    ...(child ? { is_carousel_item: 'true' } : {}),
                  },
              token,
            );
          let containerId: string;
          if (items.length === 1 && items[0]) {
            const first = items[0];
            containerId = (
              await client.create<{ id: string }>(
                `${igUserId}/media`,
                first.kind === 'photo'
                  ? { image_url: first.url, caption: draft.text }
                  : { media_type: 'REELS', video_url: first.url, caption: draft.text },
                token,
              )
            ).id;
          } else {
            const children: string[] = [];
            for (const m of items) children.push((await single(m, true)).id);
            for (const c of children) await waitFinished(c, token);
            containerId = (
              await client.create<{ id: string }>(
                `${igUserId}/media`,
                { media_type: 'CAROUSEL', children: children.join(','), caption: draft.text },
                token,
              )
            ).id;
          }
          await waitFinished(containerId, token);
          const published = await client.create<{ id: string }>(
            `${igUserId}/media_publish`,
            { creation_id: containerId },
            token,
          );
          return { id: published.id, text: draft.text, createdAt: null, url: null };
        }),
    },
    listRecent: {
      listRecent: (h, { since }) =>
        access.use(h, async (g) => {
          const { igUserId, token } = igOf(g);
          // Newest first, by the Graph API's cursors, until a page ends before `since`.
          const posts = await pageBack(
            async (after) => {
              const page = await client.list<IgMedia>(
                `${igUserId}/media`,
                {
                  fields: 'id,caption,timestamp,permalink',
                  limit: String(LIST_PAGE_SIZE),
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
  };
}
