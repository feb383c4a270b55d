import {
  ChannelError,
  type Capabilities,
  type Channel,
  type Grant,
  type GrantAccess,
  type PublishedPost,
  type PublishResume,
  PublishPending,
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

/** Reads of a container's status within one run, before the job is put back (ms apart). */
const INLINE_POLLS_MS = [0, 1000, 2000];
/**
 * How long a container may stay IN_PROGRESS before a run gives up as transient (the container
 * is kept: the next run still resumes it). Meta's guide: query about once a minute for no more
 * than 5 minutes; reels often take longer, so 15.
 */
export const CONTAINER_BUDGET_MS = 15 * 60_000;
/** Containers expire 24 h after they are made (IG Container reference: EXPIRED). */
const CONTAINER_LIFE_MS = 24 * 60 * 60_000;

/** The wait before the next look at a container still in progress: back-off by its age. */
export const containerWaitMs = (ageMs: number): number =>
  ageMs < 60_000 ? 15_000 : ageMs < 5 * 60_000 ? 30_000 : 60_000;

type ContainerStatus = { status_code?: string; status?: string };

/**
 * Instagram's capabilities (providers.md §3.2): a container, then media_publish, each sent
 * once; and the account's recent media. Instagram publishes only with media (a JPEG by URL).
 * A container still IN_PROGRESS (a reel takes minutes) is not waited for in the worker: the
 * publish ends with PublishPending carrying the containers, and the job runs again later with
 * them in `draft.resume`, so a retry publishes the same container instead of making a new one
 * (ADR 0063). EXPIRED (24 h) makes them anew; ERROR fails with Instagram's status text.
 */
export function createInstagramCapabilities(
  client: FacebookClient,
  access: GrantAccess,
  sleep: (ms: number) => Promise<void>,
  now: () => Date = () => new Date(),
): Capabilities {
  const postOf = (m: IgMedia): PublishedPost => ({
    id: m.id,
    text: m.caption ?? '',
    createdAt: graphDate(m.timestamp),
    url: m.permalink ?? null,
  });
  const statusOf = (containerId: string, token: string) =>
    client.node<ContainerStatus>(containerId, { fields: 'status_code,status' }, token);
  /**
   * Looks at the containers a few times within the run: 'finished' once every one is (or says
   * nothing), 'expired' when one has expired, 'waiting' while one is in progress; ERROR fails.
   */
  const look = async (
    ids: readonly string[],
    token: string,
  ): Promise<'finished' | 'expired' | 'waiting' | 'published'> => {
    let open = [...ids];
    for (const pause of INLINE_POLLS_MS) {
      if (pause) await sleep(pause);
      const still: string[] = [];
      for (const id of open) {
        const c = await statusOf(id, token);
        if (c.status_code === 'ERROR')
          throw new ChannelError('invalid', `instagram container ERROR: ${c.status ?? ''}`);
        if (c.status_code === 'EXPIRED') return 'expired';
        if (c.status_code === 'PUBLISHED') return 'published';
        if (c.status_code === 'IN_PROGRESS') still.push(id);
      }
      open = still;
      if (open.length === 0) return 'finished';
    }
    return 'waiting';
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
          const fresh = (): PublishResume => ({
            containerId: null,
            children: [],
            createdAt: now().toISOString(),
          });
          let r: PublishResume = draft.resume ? { ...draft.resume } : fresh();
          if (now().getTime() - Date.parse(r.createdAt) >= CONTAINER_LIFE_MS) r = fresh();
          const pending = () => {
            const age = now().getTime() - Date.parse(r.createdAt);
            if (age >= CONTAINER_BUDGET_MS)
              throw new ChannelError(
                'transient',
                `instagram container still in progress after ${Math.round(age / 1000)} s`,
              );
            return new PublishPending(r, containerWaitMs(age));
          };
          for (let round = 0; ; round += 1) {
            if (items.length > 1 && r.containerId === null) {
              if (r.children.length === 0)
                for (const m of items) r.children.push((await single(m, true)).id);
              const state = await look(r.children, token);
              if (state === 'expired' && round === 0) {
                r = fresh();
                continue;
              }
              if (state === 'waiting') throw pending();
              r.containerId = (
                await client.create<{ id: string }>(
                  `${igUserId}/media`,
                  { media_type: 'CAROUSEL', children: r.children.join(','), caption: draft.text },
                  token,
                )
              ).id;
            } else if (r.containerId === null && items[0]) {
              const first = items[0];
              r.containerId = (
                await client.create<{ id: string }>(
                  `${igUserId}/media`,
                  first.kind === 'photo'
                    ? { image_url: first.url, caption: draft.text }
                    : { media_type: 'REELS', video_url: first.url, caption: draft.text },
                  token,
                )
              ).id;
            }
            const state = await look([r.containerId as string], token);
            if (state === 'expired' && round === 0) {
              r = fresh();
              continue;
            }
            // Published already by a send whose answer was lost: let the caller settle it.
            if (state === 'published')
              throw new ChannelError('outcome_unknown', 'instagram container already published');
            if (state !== 'finished') throw pending();
            break;
          }
          const published = await client.create<{ id: string }>(
            `${igUserId}/media_publish`,
            { creation_id: r.containerId as string },
            token,
          );
          // The post's link, read back (IG Media `permalink`); the post is live already, so a
          // failed read leaves it without a link rather than failing the publish.
          const media = await client
            .node<IgMedia>(published.id, { fields: 'permalink' }, token)
            .catch(() => null);
          return {
            id: published.id,
            text: draft.text,
            createdAt: null,
            url: media?.permalink ?? null,
          };
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
