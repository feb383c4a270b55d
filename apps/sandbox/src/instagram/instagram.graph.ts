import type { FastifyReply, FastifyRequest } from 'fastify';
import { field, NEXT, numericId, randomToken, type PathRouter } from '../shared/http';
import { isVideo, type MediaInfo } from '../shared/media';
import { graphError, unsupported } from '../facebook/facebook.errors';
import { igUsers } from '../facebook/facebook.fixtures';
import type { FbToken, IgContainer } from '../facebook/facebook.state';
import { fieldList, g, graphTime, pick, type GraphCtx } from '../facebook/facebook.graph-common';
import { cursorPage } from '../facebook/facebook.paging';

const DAY = 24 * 3600_000;

/** Why Meta would refuse an image container (IG User Media reference: JPEG, ≤ 8 MB, 4:5 … 1.91:1). */
export function imageProblem(
  info: MediaInfo,
): { code: number; subcode: number; message: string } | undefined {
  if (info.format !== 'jpeg')
    return {
      code: 9004,
      subcode: 2207052,
      message:
        'Only photo or video can be accepted as media type. The image format is not supported; use JPEG.',
    };
  if (info.bytes > 8 * 1024 * 1024)
    return {
      code: 36000,
      subcode: 2207004,
      message: 'The image is too large to download. It should be less than 8 MiB.',
    };
  if (info.width && info.height) {
    const r = info.width / info.height;
    if (r < 0.8 - 1e-3 || r > 1.91 + 1e-3)
      return {
        code: 36003,
        subcode: 2207009,
        message: `The submitted image with aspect ratio ('${info.width}/${info.height}') cannot be published. Please submit an image with a valid aspect ratio.`,
      };
  }
  return undefined;
}

export function videoProblem(info: MediaInfo): { subcode: number; text: string } | undefined {
  if (!isVideo(info.format))
    return {
      subcode: 2207026,
      text: 'The video format is not supported. Please check the video specifications.',
    };
  const d = info.durationSeconds;
  if (d !== undefined && (d < 3 || d > 900))
    return {
      subcode: 2207026,
      text: 'The video duration must be between 3 seconds and 15 minutes.',
    };
  if (info.bytes > 300 * 1024 * 1024)
    return { subcode: 2207026, text: 'The video file is too large (max 300 MB).' };
  return undefined;
}

/** Instagram API with Facebook Login: served on the Graph host next to the Page endpoints. */
export function registerInstagramGraph(router: PathRouter, ctx: GraphCtx): void {
  registerInstagramContainers(router, ctx);
  registerInstagramPublishing(router, ctx);
  registerInstagramMedia(router, ctx);
}

/** The token must reach the IG account through its linked Page (user token with the Page granted, or the Page's token). */
const igAuth = async (
  ctx: GraphCtx,
  req: FastifyRequest,
  reply: FastifyReply,
  igId: string,
  permission: 'instagram_basic' | 'instagram_content_publish',
): Promise<FbToken> => {
  const t = await ctx.auth(req, reply, 'instagram', [igId]);
  const ig = igUsers.find((u) => u.id === igId);
  if (!ig || !ctx.pagesOf(t).includes(ig.pageId))
    throw unsupported(req.method === 'GET' ? 'get' : 'post', igId);
  if (!t.scopes.includes(permission) || !t.scopes.includes('instagram_basic'))
    throw graphError(
      400,
      10,
      '(#10) Application does not have permission for this action',
      'OAuthException',
    );
  return t;
};

const statusOf = ({ rt, store }: GraphCtx, c: IgContainer): string => {
  const s = () => store.data;
  if (c.error) return 'ERROR';
  if (c.publishedAt) return 'PUBLISHED';
  if (rt.now() - c.createdAt > DAY) return 'EXPIRED';
  if (c.mediaType === 'CAROUSEL') {
    const kids = c.children.map((id) => s().containers.find((x) => x.id === id));
    if (kids.some((k) => !k || k.error)) return 'ERROR';
    if (kids.some((k) => k && rt.now() < k.readyAt)) return 'IN_PROGRESS';
  }
  return rt.now() < c.readyAt ? 'IN_PROGRESS' : 'FINISHED';
};

const usage = ({ rt, store }: GraphCtx, igId: string, sinceMs?: number): number => {
  const s = () => store.data;
  const from = Math.max(rt.now() - DAY, sinceMs ?? 0);
  return s().igMedia.filter((m) => m.igId === igId && m.timestamp > from).length;
};

type MediaParams = {
  mediaType: string;
  caption: string | undefined;
  imageUrl: string | undefined;
  videoUrl: string | undefined;
  isItem: boolean;
};

/** The container's parameters, refused as Meta does when the type or caption is not allowed. */
function mediaParams(req: FastifyRequest): MediaParams {
  const mediaType = (field(req, 'media_type') ?? '').toUpperCase();
  const caption = field(req, 'caption');
  const imageUrl = field(req, 'image_url');
  const videoUrl = field(req, 'video_url');
  const isItem = field(req, 'is_carousel_item') === 'true';
  // Feed videos are reels now; VIDEO stays only for carousel items.
  if (mediaType === 'VIDEO' && !isItem)
    throw graphError(
      400,
      100,
      'The VIDEO media type is no longer supported for feed videos. Use REELS instead.',
      'OAuthException',
      { error_subcode: 2207067 },
    );
  if (
    mediaType &&
    !['REELS', 'STORIES', 'CAROUSEL', ...(isItem ? ['VIDEO'] : [])].includes(mediaType)
  )
    throw graphError(
      400,
      100,
      `(#100) Param media_type must be one of {${isItem ? 'VIDEO, IMAGE' : 'REELS, STORIES, CAROUSEL'}} - got "${mediaType}".`,
    );
  if (caption !== undefined) {
    if (caption.length > 2200)
      throw graphError(
        400,
        100,
        '(#100) The caption exceeds the maximum length of 2200 characters.',
      );
    if ((caption.match(/#[^\s#]+/g) ?? []).length > 30)
      throw graphError(400, 100, '(#100) The caption contains more than 30 hashtags.');
    if ((caption.match(/@[\w.]+/g) ?? []).length > 20)
      throw graphError(400, 100, '(#100) The caption mentions more than 20 accounts.');
  }
  return { mediaType, caption, imageUrl, videoUrl, isItem };
}

/** A carousel's children: 2 to 10 carousel items of this account. */
function carouselChildren({ store }: GraphCtx, req: FastifyRequest, igId: string): string[] {
  const s = () => store.data;
  const ids = (field(req, 'children') ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (ids.length < 2 || ids.length > 10)
    throw graphError(
      400,
      100,
      '(#100) The carousel must have between 2 and 10 children.',
      'OAuthException',
      { error_subcode: 2207030 },
    );
  for (const id of ids) {
    const kid = s().containers.find((c) => c.id === id && c.igId === igId && c.isCarouselItem);
    if (!kid)
      throw graphError(400, 100, `(#100) Invalid carousel child: ${id}`, 'OAuthException', {
        error_subcode: 2207028,
      });
  }
  return ids;
}

/** A video is fetched and checked asynchronously: problems surface as status ERROR. */
async function attachVideo(
  { rt, loadMedia }: GraphCtx,
  base: IgContainer,
  videoUrl: string,
): Promise<void> {
  base.videoUrl = videoUrl;
  base.readyAt = rt.now() + rt.settings().instagram.videoProcessingMs;
  const got = await loadMedia(videoUrl, 'instagram');
  if (!got.ok)
    base.error =
      got.reason === 'timeout'
        ? { subcode: 2207003, text: 'It took too long to download the media.' }
        : {
            subcode: 2207052,
            text: "Media download has failed. The media URI doesn't meet our requirements.",
          };
  else {
    if (got.fetched) base.fetched = got.fetched;
    if (got.entry) got.entry.object_id = base.id;
    if (rt.settings().fetchMedia) {
      const p = videoProblem(got.info);
      if (p) base.error = p;
    }
  }
}

/** An image is fetched at once: a download or format problem refuses the container. */
async function attachImage(
  { loadMedia }: GraphCtx,
  base: IgContainer,
  imageUrl: string,
): Promise<void> {
  base.imageUrl = imageUrl;
  const got = await loadMedia(imageUrl, 'instagram');
  if (!got.ok)
    throw got.reason === 'timeout'
      ? graphError(400, -2, 'It took too long to download the media.', 'OAuthException', {
          error_subcode: 2207003,
          is_transient: true,
          error_user_title: 'Media download timed out',
          error_user_msg: 'It took too long to download the media.',
        })
      : graphError(
          400,
          9004,
          "Media download has failed. The media URI doesn't meet our requirements.",
          'OAuthException',
          {
            error_subcode: 2207052,
            is_transient: false,
            error_user_title: 'Media download failed',
            error_user_msg: 'The media could not be fetched from the URI.',
          },
        );
  const p = imageProblem(got.info);
  if (p)
    throw graphError(400, p.code, p.message, 'OAuthException', {
      error_subcode: p.subcode,
      is_transient: false,
    });
  if (got.fetched) base.fetched = got.fetched;
  if (got.entry) got.entry.object_id = base.id;
}

/** POST an account's media: a media container (image, reel, story, carousel or its item). */
function registerInstagramContainers(router: PathRouter, ctx: GraphCtx): void {
  const { rt, store } = ctx;
  const s = () => store.data;

  router.add('POST', g('(\\d+)/media'), async (req, reply, [igId]) => {
    await igAuth(ctx, req, reply, igId as string, 'instagram_content_publish');
    const { mediaType, caption, imageUrl, videoUrl, isItem } = mediaParams(req);
    const base: IgContainer = {
      id: numericId(17),
      igId: igId as string,
      mediaType:
        mediaType === 'REELS' ||
        mediaType === 'STORIES' ||
        mediaType === 'CAROUSEL' ||
        mediaType === 'VIDEO'
          ? mediaType
          : 'IMAGE',
      isCarouselItem: isItem,
      caption: isItem ? undefined : caption,
      children: [],
      createdAt: rt.now(),
      readyAt: rt.now() + rt.settings().instagram.imageProcessingMs,
    };

    if (mediaType === 'CAROUSEL') base.children = carouselChildren(ctx, req, igId as string);
    else if (
      videoUrl &&
      (mediaType === 'REELS' || mediaType === 'STORIES' || mediaType === 'VIDEO')
    )
      await attachVideo(ctx, base, videoUrl);
    else if (imageUrl && mediaType !== 'REELS' && mediaType !== 'VIDEO')
      await attachImage(ctx, base, imageUrl);
    else {
      throw graphError(
        400,
        100,
        mediaType === 'REELS' || mediaType === 'VIDEO'
          ? '(#100) The parameter video_url is required'
          : '(#100) The parameter image_url is required.',
      );
    }
    s().containers.push(base);
    store.save();
    return { id: base.id };
  });
}

/** Publishing a finished container, and the account's publishing quota. */
function registerInstagramPublishing(router: PathRouter, ctx: GraphCtx): void {
  const { rt, store } = ctx;
  const s = () => store.data;

  router.add('POST', g('(\\d+)/media_publish'), async (req, reply, [igId]) => {
    await igAuth(ctx, req, reply, igId as string, 'instagram_content_publish');
    const creation = field(req, 'creation_id');
    if (!creation) throw graphError(400, 100, '(#100) The parameter creation_id is required.');
    const c = s().containers.find((x) => x.id === creation && x.igId === igId);
    if (!c || c.isCarouselItem)
      throw graphError(
        400,
        100,
        `(#100) Invalid parameter creation_id: ${creation}`,
        'OAuthException',
        { error_subcode: 2207008 },
      );
    const status = statusOf(ctx, c);
    if (status === 'EXPIRED')
      throw graphError(
        400,
        -2,
        'The media container has expired. Create a new one and publish within 24 hours.',
        'OAuthException',
        { error_subcode: 2207020, is_transient: false },
      );
    if (status === 'PUBLISHED')
      throw graphError(400, 9007, 'Media ID is not available', 'OAuthException', {
        error_subcode: 2207008,
        error_user_title: 'Already published',
        error_user_msg: 'This container has already been published.',
      });
    if (status !== 'FINISHED')
      throw graphError(400, 9007, 'Media ID is not available', 'OAuthException', {
        error_subcode: 2207027,
        error_user_title: 'Media not ready',
        error_user_msg: 'The media is not ready for publishing, please wait for a moment',
      });
    const quota = rt.settings().instagram.quotaTotal;
    if (usage(ctx, igId as string) >= quota)
      throw graphError(400, 9, 'Application request limit reached', 'OAuthException', {
        error_subcode: 2207042,
        is_transient: false,
        error_user_title: 'Limit reached',
        error_user_msg:
          'The maximum number of posts that were allowed to be published has been reached.',
      });
    const id = `1789${numericId(13)}`;
    c.publishedAt = rt.now();
    c.mediaId = id;
    s().igMedia.push({
      id,
      igId: igId as string,
      containerId: c.id,
      caption: c.caption,
      mediaType: c.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : c.videoUrl ? 'VIDEO' : 'IMAGE',
      mediaUrl: c.imageUrl ?? c.videoUrl,
      timestamp: rt.now(),
      fetched: (c.mediaType === 'CAROUSEL'
        ? c.children.map((id) => s().containers.find((x) => x.id === id)?.fetched)
        : [c.fetched]
      ).filter((f): f is NonNullable<typeof f> => !!f),
      shortcode: randomToken('C', 8).replace(/[-_]/g, 'x'),
    });
    store.save();
    return { id };
  });

  router.add('GET', g('(\\d+)/content_publishing_limit'), async (req, reply, [igId]) => {
    await igAuth(ctx, req, reply, igId as string, 'instagram_basic');
    const sinceRaw = field(req, 'since');
    const since = sinceRaw
      ? /^\d+$/.test(sinceRaw)
        ? Number(sinceRaw) * 1000
        : Date.parse(sinceRaw)
      : undefined;
    if (since !== undefined && (!Number.isFinite(since) || since < rt.now() - DAY - 60_000))
      throw graphError(
        400,
        100,
        '(#100) The since parameter must be a unix timestamp within the last 24 hours.',
      );
    const fields = fieldList(req) ?? ['quota_usage'];
    const row: Record<string, unknown> = {};
    if (fields.includes('quota_usage')) row.quota_usage = usage(ctx, igId as string, since);
    if (fields.includes('config'))
      row.config = { quota_total: rt.settings().instagram.quotaTotal, quota_duration: 86400 };
    return { data: [row] };
  });
}

const mediaNode = ({ store }: GraphCtx, req: FastifyRequest, id: string) => {
  const s = () => store.data;
  const m = s().igMedia.find((x) => x.id === id);
  if (!m) return { id };
  const u = igUsers.find((x) => x.id === m.igId);
  return pick(
    {
      id: m.id,
      caption: m.caption,
      media_type: m.mediaType,
      media_url: m.mediaUrl,
      permalink: `https://www.instagram.com/p/${m.shortcode}/`,
      shortcode: m.shortcode,
      timestamp: graphTime(m.timestamp),
      username: u?.username,
      like_count: 0,
      comments_count: 0,
    },
    fieldList(req),
    [],
  );
};

/** An account's media, and nodes by id: IG user, container or IG media. */
function registerInstagramMedia(router: PathRouter, ctx: GraphCtx): void {
  const { rt, store } = ctx;
  const s = () => store.data;

  router.add('GET', g('(\\d+)/media'), async (req, reply, [igId]) => {
    await igAuth(ctx, req, reply, igId as string, 'instagram_basic');
    // Newest first, paged by the Graph API's cursors (25 unless `limit` says otherwise).
    const list = s()
      .igMedia.map((m, i) => ({ m, i }))
      .filter(({ m }) => m.igId === igId)
      .sort((a, b) => b.m.timestamp - a.m.timestamp || b.i - a.i)
      .map(({ m }) => m);
    const { slice, paging } = cursorPage(req, rt.baseUrl, list, (m) => m.id);
    return { data: slice.map((m) => mediaNode(ctx, req, m.id)), paging };
  });

  // Nodes by id: IG user, container or IG media. Registered before the Facebook catch-all node route.
  router.add('GET', g('(\\d+)'), async (req, reply, [id]) => {
    const nodeId = id as string;
    const ig = igUsers.find((u) => u.id === nodeId);
    if (ig) {
      await igAuth(ctx, req, reply, nodeId, 'instagram_basic');
      return pick(
        {
          id: ig.id,
          username: ig.username,
          name: ig.name,
          followers_count: ig.followers,
          media_count: s().igMedia.filter((m) => m.igId === ig.id).length,
          profile_picture_url: `https://scontent.cdninstagram.com/sandbox/${ig.username}.jpg`,
          biography: `${ig.name} の公式アカウント`,
        },
        fieldList(req),
        ['username'],
      );
    }
    const c = s().containers.find((x) => x.id === nodeId);
    if (c) {
      await igAuth(ctx, req, reply, c.igId, 'instagram_basic');
      const status = statusOf(ctx, c);
      return pick(
        {
          id: c.id,
          status_code: status,
          status: c.error
            ? `Error: ${c.error.text} (${c.error.subcode})`
            : status === 'IN_PROGRESS'
              ? 'In Progress'
              : status === 'EXPIRED'
                ? 'Expired'
                : status === 'PUBLISHED'
                  ? 'Published'
                  : 'Finished',
        },
        fieldList(req),
        [],
      );
    }
    const m = s().igMedia.find((x) => x.id === nodeId);
    if (m) {
      await igAuth(ctx, req, reply, m.igId, 'instagram_basic');
      return mediaNode(ctx, req, nodeId);
    }
    return NEXT;
  });
}
