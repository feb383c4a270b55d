import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearer, field, numericId, PathRouter, sleep, type Dict } from '../shared/http';
import {
  isVideo,
  loadMediaUrl,
  probeMedia,
  type LoadedMedia,
  type MediaInfo,
} from '../shared/media';
import { filesOf } from '../shared/multipart';
import { secretMatches } from '../shared/oauth';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { registerInstagramGraph } from '../instagram/instagram.graph';
import {
  deauthorized,
  expiredToken,
  graphError,
  invalidParam,
  invalidToken,
  accountFault,
  missingToken,
  unsupported,
} from './facebook.errors';
import { fbPages, fbUsers, igUsers } from './facebook.fixtures';
import { cursorPage, graphTimeParam } from './facebook.paging';
import { accessTokenEndpoint } from './facebook.oauth';
import type { FacebookState, FbPost, FbToken } from './facebook.state';
import { fieldList, g, graphTime, pick, type GraphCtx } from './facebook.graph-common';

export function registerFacebookGraph(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<FacebookState>,
): void {
  const s = () => store.data;
  const router = new PathRouter();

  const pagesOf = (t: FbToken): string[] =>
    t.kind === 'page' && t.pageId
      ? [t.pageId]
      : t.pageIds.filter((id) => fbPages.some((p) => p.id === id && p.ownerId === t.userId));

  const auth: GraphCtx['auth'] = async (req, reply, provider, nodeKeys) => {
    const raw = field(req, 'access_token') ?? bearer(req);
    const token = raw ? s().tokens.find((t) => t.token === raw) : undefined;
    const user = token ? fbUsers.find((u) => u.id === token.userId) : undefined;
    const keys = [
      ...nodeKeys,
      ...(token ? [token.userId, token.pageId ?? ''] : []),
      ...(user ? [user.email] : []),
    ].filter(Boolean);
    const usageKey =
      token?.kind === 'page'
        ? `facebook:page:${token.pageId}`
        : `facebook:user:${token?.userId ?? 'anon'}`;
    const limit =
      token?.kind === 'page'
        ? rt.settings().facebook.pageCallsPerHour
        : rt.settings().facebook.userCallsPerHour;
    const usageHeaders = (pct: number, minutes: number): Record<string, string> => {
      const usage = {
        call_count: Math.min(100, Math.round(pct)),
        total_cputime: Math.round(pct / 3),
        total_time: Math.round(pct / 2),
      };
      if (token?.kind === 'page' || provider === 'instagram') {
        const id =
          provider === 'instagram' ? (nodeKeys[0] ?? token?.pageId ?? '') : (token?.pageId ?? '');
        return {
          'x-business-use-case-usage': JSON.stringify({
            [id]: [
              {
                type: provider === 'instagram' ? 'instagram' : 'pages',
                ...usage,
                estimated_time_to_regain_access: minutes,
              },
            ],
          }),
        };
      }
      return { 'x-app-usage': JSON.stringify(usage) };
    };

    for (const f of rt.faults.take(provider, keys, req)) {
      if (f.kind === 'slow') await sleep(f.delay_ms);
      else if (f.kind === 'expired_token') throw expiredToken(rt.now() - 60_000, rt.now());
      else if (f.kind === 'rate_limit') {
        const minutes = Math.max(1, Math.ceil(f.retry_after_seconds / 60));
        const headers = usageHeaders(100, minutes);
        if (provider === 'instagram')
          throw graphError(
            400,
            4,
            '(#4) Application request limit reached',
            'OAuthException',
            { is_transient: true },
            headers,
          );
        if (token?.kind === 'page')
          throw graphError(
            400,
            32,
            '(#32) Page request limit reached',
            'OAuthException',
            { is_transient: true },
            headers,
          );
        throw graphError(
          400,
          17,
          '(#17) User request limit reached',
          'OAuthException',
          { is_transient: true, error_subcode: 2446079 },
          headers,
        );
      } else if (f.kind === 'server_error')
        throw f.status >= 502
          ? graphError(
              f.status,
              2,
              'An unexpected error has occurred. Please retry your request later.',
              'OAuthException',
              { is_transient: true },
            )
          : graphError(f.status, 1, 'An unknown error has occurred.', 'OAuthException', {
              is_transient: true,
            });
      else {
        const e = accountFault(f.kind);
        if (e) throw e;
      }
    }
    if (!raw) throw missingToken();
    if (!token) throw invalidToken();
    if (token.revoked) throw deauthorized();
    if (token.expiresAt !== 0 && token.expiresAt <= rt.now())
      throw expiredToken(token.expiresAt, rt.now());
    const hit = rt.hit(usageKey, 3600_000, limit);
    const minutes = Math.ceil((hit.resetAt - rt.now()) / 60_000);
    if (!hit.allowed) {
      const headers = usageHeaders(100, minutes);
      if (token.kind === 'page')
        throw graphError(
          400,
          32,
          '(#32) Page request limit reached',
          'OAuthException',
          { is_transient: true },
          headers,
        );
      throw graphError(
        400,
        17,
        '(#17) User request limit reached',
        'OAuthException',
        { is_transient: true },
        headers,
      );
    }
    reply.headers(usageHeaders((hit.count / limit) * 100, 0));
    return token;
  };

  const loadMedia: GraphCtx['loadMedia'] = (url, provider, maxBytes = 1024 * 1024 * 1024) =>
    loadMediaUrl(rt, provider, url, maxBytes);
  const ctx: GraphCtx = { rt, store, auth, pagesOf, loadMedia };

  // ---- tokens --------------------------------------------------------------------------------
  router.add('GET', g('oauth/access_token'), accessTokenEndpoint(rt, store));
  router.add('GET', g('debug_token'), async (req) => {
    const app = field(req, 'access_token') ?? '';
    const [id, secret] = app.split('|');
    const appOk = secretMatches(id, secret);
    const caller = appOk ? undefined : s().tokens.find((t) => t.token === app && !t.revoked);
    if (!appOk && !caller) throw invalidToken();
    const t = s().tokens.find((x) => x.token === field(req, 'input_token'));
    if (!t)
      return {
        data: {
          is_valid: false,
          error: { code: 190, message: 'Invalid OAuth access token.' },
          scopes: [],
        },
      };
    const valid = !t.revoked && (t.expiresAt === 0 || t.expiresAt > rt.now());
    return {
      data: {
        app_id: 'tenpo-sandbox',
        type: t.kind === 'page' ? 'PAGE' : 'USER',
        application: 'Tenpo (sandbox)',
        data_access_expires_at: Math.floor((t.issuedAt + 90 * 86400_000) / 1000),
        expires_at: t.expiresAt === 0 ? 0 : Math.floor(t.expiresAt / 1000),
        is_valid: valid,
        issued_at: Math.floor(t.issuedAt / 1000),
        scopes: t.scopes,
        granular_scopes: t.scopes
          .filter((x) => x.startsWith('pages_') || x.startsWith('instagram_'))
          .map((scope) => ({ scope, target_ids: t.pageIds })),
        user_id: t.userId,
        ...(t.pageId ? { profile_id: t.pageId } : {}),
      },
    };
  });

  // ---- me ----------------------------------------------------------------------------------------
  router.add('GET', g('me'), async (req, reply) => {
    const t = await auth(req, reply, 'facebook', []);
    if (t.kind === 'page') return pageNode(req, t.pageId as string);
    const u = fbUsers.find((x) => x.id === t.userId);
    return pick(
      { id: t.userId, name: u?.name, ...(t.scopes.includes('email') ? { email: u?.email } : {}) },
      fieldList(req),
      ['name'],
    );
  });
  router.add('GET', g('me/permissions'), async (req, reply) => {
    const t = await auth(req, reply, 'facebook', []);
    return {
      data: [
        ...t.scopes.map((p) => ({ permission: p, status: 'granted' })),
        ...t.declined.map((p) => ({ permission: p, status: 'declined' })),
      ],
    };
  });
  router.add('DELETE', g('me/permissions'), async (req, reply) => {
    const t = await auth(req, reply, 'facebook', []);
    // De-authorizing the app ends every token of this user.
    for (const x of s().tokens) if (x.userId === t.userId) x.revoked = true;
    store.save();
    return { success: true };
  });
  router.add('GET', g('me/accounts'), async (req, reply) => {
    const t = await auth(req, reply, 'facebook', []);
    if (t.kind !== 'user')
      throw graphError(
        400,
        100,
        '(#100) Tried accessing nonexisting field (accounts) on node type (Page)',
        'OAuthException',
      );
    const ids = t.scopes.includes('pages_show_list') ? pagesOf(t) : [];
    const limit = Math.min(100, Math.max(1, Number(field(req, 'limit') ?? 25) || 25));
    const after = field(req, 'after');
    const before = field(req, 'before');
    let start = 0;
    if (after) start = ids.indexOf(Buffer.from(after, 'base64url').toString()) + 1;
    if (before)
      start = Math.max(0, ids.indexOf(Buffer.from(before, 'base64url').toString()) - limit);
    const slice = ids.slice(start, start + limit);
    const fields = fieldList(req);
    const data = slice.map((id) => {
      const pg = fbPages.find((p) => p.id === id);
      let pt = s().tokens.find(
        (x) =>
          x.kind === 'page' &&
          x.pageId === id &&
          x.userId === t.userId &&
          !x.revoked &&
          x.long === t.long &&
          (x.expiresAt === 0 || x.expiresAt === t.expiresAt),
      );
      if (!pt) {
        pt = {
          ...t,
          token: `EAAT${numericId(6)}${Buffer.from(`${id}:${Math.random()}`).toString('base64url')}`,
          kind: 'page',
          pageId: id,
          issuedAt: rt.now(),
          expiresAt: t.long ? 0 : t.expiresAt,
        };
        s().tokens.push(pt);
      }
      const node: Dict = {
        access_token: pt.token,
        category: pg?.category,
        category_list: [{ id: pg?.categoryId, name: pg?.category }],
        name: pg?.name,
        id,
        tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'],
        ...(pg?.igId ? { instagram_business_account: { id: pg.igId } } : {}),
      };
      return pick(node, fields, ['access_token', 'category', 'category_list', 'name', 'tasks']);
    });
    store.save();
    const cursor = (id: string | undefined) => Buffer.from(id ?? '').toString('base64url');
    return {
      data,
      paging: {
        cursors: { before: cursor(slice[0]), after: cursor(slice[slice.length - 1]) },
        ...(start + limit < ids.length
          ? {
              next: `${rt.baseUrl}/facebook/graph/me/accounts?limit=${limit}&after=${cursor(slice[slice.length - 1])}`,
            }
          : {}),
        ...(start > 0
          ? {
              previous: `${rt.baseUrl}/facebook/graph/me/accounts?limit=${limit}&before=${cursor(slice[0])}`,
            }
          : {}),
      },
    };
  });

  // ---- pages -------------------------------------------------------------------------------------
  const pageNode = (req: FastifyRequest, id: string): Dict => {
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
  const publisher = async (
    req: FastifyRequest,
    reply: FastifyReply,
    pageId: string,
  ): Promise<FbToken> => {
    const t = await auth(req, reply, 'facebook', [pageId]);
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

  const scheduleOf = (req: FastifyRequest): number | undefined => {
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

  const newPostId = (pageId: string) => `${pageId}_${numericId(16)}`;
  const settle = (p: FbPost) => {
    if (!p.published && p.scheduledAt && p.scheduledAt <= rt.now()) {
      p.published = true;
      p.createdAt = p.scheduledAt;
      return true;
    }
    return false;
  };
  const postNode = (req: FastifyRequest, p: FbPost): Dict =>
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

  const attachedMedia = (req: FastifyRequest): string[] => {
    const body = (req.body ?? {}) as Dict;
    const entries: unknown[] = [];
    for (const [k, v] of Object.entries(body))
      if (/^attached_media(\[\d*\])?$/.test(k)) entries.push(v);
    const q = req.query as Dict;
    for (const [k, v] of Object.entries(q))
      if (/^attached_media(\[\d*\])?$/.test(k)) entries.push(v);
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

  router.add('POST', g('(\\d+)/feed'), async (req, reply, [pageId]) => {
    await publisher(req, reply, pageId as string);
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
    const scheduledAt = scheduleOf(req);
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
      if (all.map(settle).some(Boolean)) store.save();
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

  router.add('POST', g('(\\d+)/photos'), async (req, reply, [pageId]) => {
    await publisher(req, reply, pageId as string);
    const url = field(req, 'url');
    const file = filesOf(req.body).source;
    let info: MediaInfo | undefined;
    let bytes: Buffer | undefined;
    let got: LoadedMedia | undefined;
    if (file) {
      bytes = file.data;
      info = probeMedia(bytes);
    } else if (url) {
      got = await loadMedia(url, 'facebook', 64 * 1024 * 1024);
      if (!got.ok)
        throw graphError(400, 324, '(#324) Missing or invalid image file', 'OAuthException');
      ({ info, bytes } = got);
    } else throw graphError(400, 324, '(#324) Requires upload file', 'OAuthException');
    // Graph API photo uploads: JPEG, BMP, PNG, GIF, TIFF (WebP kept: not listed, not known refused).
    if (!['jpeg', 'bmp', 'png', 'gif', 'tiff', 'webp'].includes(info.format))
      throw graphError(400, 324, '(#324) Missing or invalid image file', 'OAuthException');
    if (info.bytes > 10 * 1024 * 1024)
      throw graphError(400, 100, '(#100) Photo file is too large (max 10 MB)', 'OAuthException');
    const published = field(req, 'published') !== 'false';
    const scheduledAt = scheduleOf(req);
    const id = numericId(16);
    const blob = bytes ? `fb-photo-${id}` : undefined;
    if (bytes && blob) rt.blobs.put(blob, bytes);
    const caption = field(req, 'message') ?? field(req, 'caption');
    const photo = {
      id,
      pageId: pageId as string,
      caption,
      url,
      blob,
      published: published || !!scheduledAt,
      temporary: field(req, 'temporary') === 'true',
      createdAt: rt.now(),
      width: info.width,
      height: info.height,
      ...(got?.ok && got.fetched ? { fetched: got.fetched } : {}),
    };
    if (got?.ok && got.entry) got.entry.object_id = id;
    s().photos.push(photo);
    if (published || scheduledAt) {
      const post: FbPost = {
        id: newPostId(pageId as string),
        pageId: pageId as string,
        message: caption,
        createdAt: rt.now(),
        published,
        scheduledAt,
        photoIds: [id],
        deleted: false,
        type: 'photo',
      };
      s().posts.push(post);
      Object.assign(photo, { postId: post.id });
      store.save();
      return { id, post_id: post.id };
    }
    store.save();
    return { id };
  });

  router.add('POST', g('(\\d+)/videos'), async (req, reply, [pageId]) => {
    // pages_manage_posts (checked by `publisher`) is all a Page video needs: the Video API
    // publishing guide lists pages_show_list, pages_read_engagement, pages_manage_posts.
    await publisher(req, reply, pageId as string);
    const url = field(req, 'file_url');
    const file = filesOf(req.body).source;
    let info: MediaInfo | undefined;
    let got: LoadedMedia | undefined;
    if (file) info = probeMedia(file.data);
    else if (url) {
      got = await loadMedia(url, 'facebook');
      if (!got.ok)
        throw graphError(
          400,
          6000,
          'There was a problem uploading your video file. Please try again with another file.',
          'OAuthException',
          { error_subcode: 1363030 },
        );
      info = rt.settings().fetchMedia
        ? got.info
        : { format: 'mp4', bytes: 1_000_000, durationSeconds: 15 };
    } else
      throw graphError(
        400,
        6000,
        'There was a problem uploading your video file. Please try again with another file.',
        'OAuthException',
        { error_subcode: 1363019 },
      );
    if (!isVideo(info.format))
      throw graphError(
        400,
        352,
        "(#352) Sorry, the video file you selected is in a format that we don't support.",
        'OAuthException',
      );
    const published = field(req, 'published') !== 'false';
    const scheduledAt = scheduleOf(req);
    const id = numericId(16);
    const post: FbPost = {
      id: `${pageId}_${id}`,
      pageId: pageId as string,
      message: field(req, 'description'),
      createdAt: rt.now(),
      published,
      scheduledAt,
      photoIds: [],
      videoId: id,
      deleted: false,
      type: 'video',
    };
    s().videos.push({
      id,
      pageId: pageId as string,
      title: field(req, 'title'),
      description: field(req, 'description'),
      postId: post.id,
      createdAt: rt.now(),
      readyAt: rt.now() + rt.settings().facebook.videoProcessingMs,
      published,
      ...(got?.ok && got.fetched ? { fetched: got.fetched } : {}),
    });
    if (got?.ok && got.entry) got.entry.object_id = id;
    s().posts.push(post);
    store.save();
    return { id };
  });

  registerInstagramGraph(router, ctx);

  // ---- any node by id ----------------------------------------------------------------------------
  router.add('GET', g('(\\d+)'), async (req, reply, [id]) => {
    const nodeId = id as string;
    if (fbPages.some((p) => p.id === nodeId)) {
      const t = await auth(req, reply, 'facebook', [nodeId]);
      if (t.kind === 'user' && !t.pageIds.includes(nodeId)) throw unsupported('get', nodeId);
      if (t.kind === 'page' && t.pageId !== nodeId) throw unsupported('get', nodeId);
      return pageNode(req, nodeId);
    }
    const photo = s().photos.find((p) => p.id === nodeId);
    const video = s().videos.find((v) => v.id === nodeId);
    const owner = photo?.pageId ?? video?.pageId;
    if (!owner) throw unsupported('get', nodeId);
    const t = await auth(req, reply, 'facebook', [owner]);
    if (!pagesOf(t).includes(owner)) throw unsupported('get', nodeId);
    if (photo)
      return pick(
        {
          id: photo.id,
          name: photo.caption,
          created_time: graphTime(photo.createdAt),
          width: photo.width,
          height: photo.height,
          link: `https://www.facebook.com/photo/?fbid=${photo.id}`,
        },
        fieldList(req),
        ['created_time', 'name'],
      );
    const v = video as NonNullable<typeof video>;
    const ready = v.readyAt <= rt.now();
    return pick(
      {
        id: v.id,
        title: v.title,
        description: v.description,
        created_time: graphTime(v.createdAt),
        status: {
          video_status: ready ? 'ready' : 'processing',
          processing_progress: ready ? 100 : 50,
          uploading_phase: { status: 'complete' },
          processing_phase: { status: ready ? 'complete' : 'in_progress' },
          publishing_phase: { status: ready ? 'complete' : 'not_started' },
        },
        permalink_url: `/${v.pageId}/videos/${v.id}/`,
        post_id: v.postId,
      },
      fieldList(req),
      ['created_time', 'description'],
    );
  });

  router.add('GET', g('(\\d+_\\d+)'), async (req, reply, [id]) => {
    const p = s().posts.find((x) => x.id === id && !x.deleted);
    if (!p) throw unsupported('get', id as string);
    const t = await auth(req, reply, 'facebook', [p.pageId]);
    if (!pagesOf(t).includes(p.pageId)) throw unsupported('get', id as string);
    if (settle(p)) store.save();
    return postNode(req, p);
  });
  router.add('POST', g('(\\d+_\\d+)'), async (req, reply, [id]) => {
    const p = s().posts.find((x) => x.id === id && !x.deleted);
    if (!p) throw unsupported('post', id as string);
    await publisher(req, reply, p.pageId);
    const message = field(req, 'message');
    if (message !== undefined) p.message = message;
    if (field(req, 'is_published') === 'true') p.published = true;
    store.save();
    return { success: true };
  });
  const del = async (req: FastifyRequest, reply: FastifyReply, [id]: string[]) => {
    const nodeId = id as string;
    const p = s().posts.find(
      (x) => (x.id === nodeId || x.videoId === nodeId || x.photoIds.includes(nodeId)) && !x.deleted,
    );
    const loose = p ? undefined : s().photos.find((x) => x.id === nodeId);
    const pageId = p?.pageId ?? loose?.pageId;
    if (!pageId) {
      // Graph checks the token before it says the object does not exist.
      await auth(req, reply, 'facebook', []);
      throw unsupported('delete', nodeId);
    }
    const t = await auth(req, reply, 'facebook', [pageId]);
    if (t.kind !== 'page' || t.pageId !== pageId || !t.scopes.includes('pages_manage_posts'))
      throw unsupported('delete', nodeId);
    if (p) {
      p.deleted = true;
      for (const ph of s().photos)
        if (p.photoIds.includes(ph.id) && ph.blob) rt.blobs.remove(ph.blob);
    }
    if (loose) s().photos = s().photos.filter((x) => x !== loose);
    store.save();
    return { success: true };
  };
  router.add('DELETE', g('(\\d+_\\d+)'), del);
  router.add('DELETE', g('(\\d+)'), async (req, reply, params) => {
    const id = params[0] as string;
    if (s().igMedia.some((m) => m.id === id) || igUsers.some((u) => u.id === id)) {
      await auth(req, reply, 'instagram', []);
      throw unsupported('delete', id);
    }
    return del(req, reply, params);
  });

  app.register(
    async (scope) =>
      router.mount(scope, (m, p) =>
        m.endsWith('!')
          ? unsupported(m.replace('!', ''), p.replace(/^v\d+\.\d+\//, ''))
          : graphError(
              400,
              2500,
              'Unknown path components: /' + p.replace(/^v\d+\.\d+\//, ''),
              'OAuthException',
            ),
      ),
    {
      prefix: '/facebook/graph',
    },
  );
}
