// Pages and their posts on the Graph API: the node shapes and checks the page routes share,
// and the feed edges (publish a post, list feed / published / scheduled posts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { field, numericId, type Dict, type PathRouter } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import { graphError, invalidParam, unsupported } from './facebook.errors';
import { fbPages } from './facebook.fixtures';
import { fieldList, g, graphTime, pick, type GraphCtx } from './facebook.graph-common';
import { cursorPage, graphTimeParam } from './facebook.paging';
import type { FbPost, FbToken } from './facebook.state';

export const pageNode = (req: FastifyRequest, id: string): Dict => {
  const pg = fbPages.find((p) => p.id === id);
  return pick(
    {
      id,
      name: pg?.name,
      category: pg?.category,
      username: pg?.username,
      link: `https://www.facebook.com/${pg?.username}`,
      fan_count: 1200 + (Number(id.slice(-3)) % 500),
      ...(pg?.igId ? { instagram_business_account: { id: pg.igId } } : {}),
    },
    fieldList(req),
    ['name'],
  );
};

/** A page token of this page with pages_manage_posts, as publishing requires. */
export const publisher = async (
  ctx: GraphCtx,
  req: FastifyRequest,
  reply: FastifyReply,
  pageId: string,
): Promise<FbToken> => {
  const t = await ctx.auth(req, reply, 'facebook', [pageId]);
  if (!fbPages.some((p) => p.id === pageId)) throw unsupported('post', pageId);
  if (
    t.kind !== 'page' ||
    t.pageId !== pageId ||
    !t.scopes.includes('pages_manage_posts') ||
    !t.scopes.includes('pages_read_engagement')
  )
    throw graphError(
      400,
      200,
      '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission',
      'OAuthException',
    );
  return t;
};

export const scheduleOf = (rt: Runtime, req: FastifyRequest): number | undefined => {
  const raw = field(req, 'scheduled_publish_time');
  if (raw === undefined || raw === '') return undefined;
  const ms = /^\d+$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
  const now = rt.now();
  if (!Number.isFinite(ms) || ms < now + 10 * 60_000 || ms > now + 30 * 86400_000)
    throw invalidParam('(#100) The specified scheduled publish time is invalid.');
  if (field(req, 'published') !== 'false')
    throw invalidParam('(#100) Cannot specify a scheduled publish time on a published post');
  return ms;
};

export const newPostId = (pageId: string) => `${pageId}_${numericId(16)}`;

export const settle = (rt: Runtime, p: FbPost) => {
  if (!p.published && p.scheduledAt && p.scheduledAt <= rt.now()) {
    p.published = true;
    p.createdAt = p.scheduledAt;
    return true;
  }
  return false;
};

export const postNode = (req: FastifyRequest, p: FbPost): Dict =>
  pick(
    {
      id: p.id,
      message: p.message,
      created_time: graphTime(p.createdAt),
      permalink_url: `https://www.facebook.com/${p.pageId}/posts/${p.id.split('_')[1]}`,
      is_published: p.published,
      ...(p.scheduledAt && !p.published
        ? { scheduled_publish_time: Math.floor(p.scheduledAt / 1000) }
        : {}),
      status_type: {
        status: 'mobile_status_update',
        link: 'shared_story',
        photo: 'added_photos',
        video: 'added_video',
      }[p.type],
      ...(p.photoIds.length
        ? { attachments: { data: p.photoIds.map((id) => ({ target: { id }, type: 'photo' })) } }
        : {}),
    },
    fieldList(req),
    ['message', 'created_time'],
  );

export const attachedMedia = (req: FastifyRequest): string[] => {
  const body = (req.body ?? {}) as Dict;
  const entries: unknown[] = [];
  for (const [k, v] of Object.entries(body))
    if (/^attached_media(\[\d*\])?$/.test(k)) entries.push(v);
  const q = req.query as Dict;
  for (const [k, v] of Object.entries(q)) if (/^attached_media(\[\d*\])?$/.test(k)) entries.push(v);
  const ids: string[] = [];
  const take = (v: unknown) => {
    if (typeof v === 'string') {
      try {
        take(JSON.parse(v));
      } catch {
        throw invalidParam(
          '(#100) param attached_media must be an array of objects with a media_fbid',
        );
      }
    } else if (Array.isArray(v)) v.forEach(take);
    else if (v && typeof v === 'object' && 'media_fbid' in v)
      ids.push(String((v as Dict).media_fbid));
    else
      throw invalidParam(
        '(#100) param attached_media must be an array of objects with a media_fbid',
      );
  };
  entries.forEach(take);
  return ids;
};

/** POST a page's feed, and its feed / posts / published_posts / scheduled_posts edges. */
export function registerFacebookFeed(router: PathRouter, ctx: GraphCtx): void {
  const { rt, store, auth, pagesOf } = ctx;
  const s = () => store.data;

  router.add('POST', g('(\\d+)/feed'), async (req, reply, [pageId]) => {
    await publisher(ctx, req, reply, pageId as string);
    const message = field(req, 'message');
    const link = field(req, 'link');
    const media = attachedMedia(req);
    if (!message && !link && media.length === 0)
      throw invalidParam('(#100) Missing message or attachment');
    for (const id of media) {
      const ph = s().photos.find((x) => x.id === id && x.pageId === pageId);
      if (!ph || ph.published || ph.postId)
        throw invalidParam(`(#100) param attached_media[0] has invalid media_fbid: ${id}`);
    }
    const scheduledAt = scheduleOf(rt, req);
    const published = field(req, 'published') !== 'false';
    if (message && published) {
      const dup = s().posts.find(
        (p) =>
          p.pageId === pageId &&
          !p.deleted &&
          p.published &&
          p.message === message &&
          p.createdAt > rt.now() - 24 * 3600_000,
      );
      if (dup)
        throw graphError(400, 506, 'Duplicate status message', 'OAuthException', {
          error_subcode: 1455006,
          error_user_title: 'Duplicate Post',
          error_user_msg: 'This status update is identical to the last one you posted.',
        });
    }
    const post: FbPost = {
      id: newPostId(pageId as string),
      pageId: pageId as string,
      message,
      link,
      createdAt: rt.now(),
      published,
      scheduledAt,
      photoIds: media,
      deleted: false,
      type: media.length ? 'photo' : link ? 'link' : 'status',
    };
    for (const id of media) {
      const ph = s().photos.find((x) => x.id === id);
      if (ph) ph.postId = post.id;
    }
    s().posts.push(post);
    store.save();
    return { id: post.id };
  });

  const listPosts =
    (which: 'feed' | 'published' | 'scheduled') =>
    async (req: FastifyRequest, reply: FastifyReply, [pageId]: string[]) => {
      const t = await auth(req, reply, 'facebook', [pageId as string]);
      if (!pagesOf(t).includes(pageId as string)) throw unsupported('get', pageId as string);
      const all = s().posts.filter((p) => p.pageId === pageId && !p.deleted);
      if (all.map((p) => settle(rt, p)).some(Boolean)) store.save();
      // Newest first, paged by cursors; `since`/`until` bound the time (the feed edges' own
      // time-based paging). Posts made in one second keep the order they were made in.
      const since = graphTimeParam(req, 'since');
      const until = graphTimeParam(req, 'until');
      const list = all
        .map((p, i) => ({ p, i }))
        .filter(({ p }) => (which === 'scheduled' ? !p.published && p.scheduledAt : p.published))
        .filter(
          ({ p }) =>
            (since === null || p.createdAt >= since) && (until === null || p.createdAt <= until),
        )
        .sort((a, b) => b.p.createdAt - a.p.createdAt || b.i - a.i)
        .map(({ p }) => p);
      const { slice, paging } = cursorPage(req, rt.baseUrl, list, (p) => p.id);
      return { data: slice.map((p) => postNode(req, p)), paging };
    };
  router.add('GET', g('(\\d+)/feed'), listPosts('feed'));
  router.add('GET', g('(\\d+)/posts'), listPosts('feed'));
  router.add('GET', g('(\\d+)/published_posts'), listPosts('published'));
  router.add('GET', g('(\\d+)/scheduled_posts'), listPosts('scheduled'));
}
