import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearer, bodyObject, field, numericId, sleep, type Dict } from '../shared/http';
import { mimeOf, probeMedia } from '../shared/media';
import { filesOf } from '../shared/multipart';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { forbidden, invalidRequest, problem, unauthorized, userSuspended } from './x.errors';
import { MAX_WEIGHTED_LENGTH, tcoLink, URL_RE, weightedLength } from './x.text';
import { xUsers, type XMedia, type XState, type XToken, type XTweet } from './x.state';

const WINDOW = 15 * 60_000;
const CATEGORIES = [
  'tweet_image',
  'tweet_gif',
  'tweet_video',
  'amplify_video',
  'dm_image',
  'dm_gif',
  'dm_video',
  'subtitles',
];
const LIMIT_BYTES: Record<string, number> = {
  image: 5 * 1024 * 1024,
  gif: 15 * 1024 * 1024,
  video: 512 * 1024 * 1024,
};

type Endpoint = {
  key: string;
  limit: (rt: Runtime) => number;
  scopes: string[];
  app24h?: (rt: Runtime) => number;
  /** The per-user 24-hour cap (`x-user-limit-24hour-*`, POST /2/tweets). */
  user24h?: (rt: Runtime) => number;
};
const ENDPOINTS: Record<string, Endpoint> = {
  createTweet: {
    key: 'tweets:create',
    limit: (rt) => rt.settings().x.tweetsPer15MinPerUser,
    scopes: ['tweet.read', 'tweet.write', 'users.read'],
    app24h: (rt) => rt.settings().x.tweetsPer24hPerApp,
    user24h: (rt) => rt.settings().x.tweetsPer24hPerUser,
  },
  deleteTweet: {
    key: 'tweets:delete',
    limit: (rt) => rt.settings().x.deletesPer15MinPerUser,
    scopes: ['tweet.read', 'tweet.write', 'users.read'],
  },
  getTweet: { key: 'tweets:get', limit: () => 900, scopes: ['tweet.read', 'users.read'] },
  userTweets: { key: 'users:tweets', limit: () => 900, scopes: ['tweet.read', 'users.read'] },
  me: { key: 'users:me', limit: () => 75, scopes: ['tweet.read', 'users.read'] },
  media: { key: 'media', limit: () => 500, scopes: ['media.write'] },
};

export function registerXApi(app: FastifyInstance, rt: Runtime, store: JsonStore<XState>): void {
  const s = () => store.data;

  /** Token → user, faults, scope and the endpoint's window; every answer carries x-rate-limit-*. */
  const guard = async (req: FastifyRequest, reply: FastifyReply, ep: Endpoint): Promise<XToken> => {
    const raw = bearer(req);
    const token = raw ? s().tokens.find((t) => t.token === raw) : undefined;
    const user = token ? xUsers.find((u) => u.id === token.userId) : undefined;
    const limit = ep.limit(rt);
    for (const f of rt.faults.take(
      'x',
      user ? [user.id, user.username, `@${user.username}`, user.email] : [],
      req,
    )) {
      if (f.kind === 'slow') await sleep(f.delay_ms);
      else if (f.kind === 'expired_token') throw unauthorized();
      else if (f.kind === 'rate_limit') {
        const reset = Math.ceil(rt.now() / 1000) + f.retry_after_seconds;
        throw problem(
          429,
          'Too Many Requests',
          'Too Many Requests',
          'about:blank',
          {},
          {
            'x-rate-limit-limit': String(limit),
            'x-rate-limit-remaining': '0',
            'x-rate-limit-reset': String(reset),
          },
        );
      } else if (f.kind === 'server_error')
        throw problem(
          f.status,
          f.status === 503 ? 'Service Unavailable' : 'Internal Server Error',
          f.status === 503 ? 'Service Unavailable' : 'Internal Server Error',
        );
      else if (f.kind === 'suspended') throw userSuspended();
    }
    if (!token || token.revoked || token.expiresAt <= rt.now()) throw unauthorized();
    const have = token.scope.split(' ');
    const missing = ep.scopes.filter((sc) => !have.includes(sc));
    if (missing.length)
      throw problem(
        403,
        'Forbidden',
        `Missing required OAuth 2.0 scopes: ${missing.join(', ')}`,
        'https://api.x.com/2/problems/oauth2-insufficient-scope',
      );
    const hit = rt.hit(`x:${ep.key}:${token.userId}`, WINDOW, limit);
    const headers: Record<string, string> = {
      'x-rate-limit-limit': String(limit),
      'x-rate-limit-remaining': String(hit.remaining),
      'x-rate-limit-reset': String(Math.ceil(hit.resetAt / 1000)),
    };
    if (ep.app24h && hit.allowed) {
      const day = rt.hit(`x:${ep.key}:app24h`, 24 * 3600_000, ep.app24h(rt));
      Object.assign(headers, {
        'x-app-limit-24hour-limit': String(ep.app24h(rt)),
        'x-app-limit-24hour-remaining': String(day.remaining),
        'x-app-limit-24hour-reset': String(Math.ceil(day.resetAt / 1000)),
      });
      if (!day.allowed)
        throw problem(429, 'Too Many Requests', 'Too Many Requests', 'about:blank', {}, headers);
    }
    if (ep.user24h && hit.allowed) {
      // The user's own 24-hour cap (as X answers POST /2/tweets; node-twitter-api-v2 reads it
      // as `rateLimit.userDay`): a 429 once spent, whose reset is the 24-hour one.
      const cap = ep.user24h(rt);
      const day = rt.hit(`x:${ep.key}:user24h:${token.userId}`, 24 * 3600_000, cap);
      Object.assign(headers, {
        'x-user-limit-24hour-limit': String(cap),
        'x-user-limit-24hour-remaining': String(day.remaining),
        'x-user-limit-24hour-reset': String(Math.ceil(day.resetAt / 1000)),
      });
      if (!day.allowed)
        throw problem(429, 'Too Many Requests', 'Too Many Requests', 'about:blank', {}, headers);
    }
    if (!hit.allowed)
      throw problem(429, 'Too Many Requests', 'Too Many Requests', 'about:blank', {}, headers);
    reply.headers(headers);
    return token;
  };

  // ---- users -------------------------------------------------------------------------------------
  app.get('/x/api/2/users/me', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.me as Endpoint);
    const u = xUsers.find((x) => x.id === t.userId);
    return { data: { id: u?.id, name: u?.name, username: u?.username } };
  });

  // ---- posts --------------------------------------------------------------------------------------
  const mediaState = (m: XMedia): XMedia['state'] => {
    if (
      (m.state === 'pending' || m.state === 'in_progress') &&
      m.readyAt !== undefined &&
      rt.now() >= m.readyAt
    )
      m.state = m.error ? 'failed' : 'succeeded';
    else if (
      m.state === 'pending' &&
      m.finalizedAt !== undefined &&
      rt.now() >= m.finalizedAt + 200
    )
      m.state = 'in_progress';
    return m.state;
  };

  /**
   * A post's text as X returns it: every link wrapped as a t.co link (twitter-text counts each
   * as 23 characters, §4.6, because that is what the post holds), and for a post with media the
   * media's own t.co link appended. The text as sent is kept for the duplicate check.
   */
  const shownText = (tw: XTweet): string => {
    const wrapped = tw.text.replace(URL_RE, (_u, at: number) => tcoLink(`${tw.id}:${at}`));
    const media = tw.mediaIds.length ? tcoLink(`${tw.id}:media`) : '';
    return [wrapped, media].filter(Boolean).join(' ');
  };
  /** The tweet.fields and expansions asked for: attachments come with either. */
  const wantsAttachments = (req: FastifyRequest) =>
    (field(req, 'tweet.fields') ?? '').split(',').includes('attachments') ||
    (field(req, 'expansions') ?? '').split(',').includes('attachments.media_keys');
  const attachmentsOf = (tw: XTweet) => {
    const keys = tw.mediaIds.map((id) => {
      const m = s().media.find((x) => x.id === id);
      return `${m?.kind === 'video' ? 7 : m?.kind === 'gif' ? 16 : 3}_${id}`;
    });
    return keys.length ? { attachments: { media_keys: keys } } : {};
  };

  app.post('/x/api/2/tweets', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.createTweet as Endpoint);
    const body = bodyObject(req);
    const text = typeof body.text === 'string' ? body.text : undefined;
    const media = (body.media ?? undefined) as Dict | undefined;
    const ids = Array.isArray(media?.media_ids) ? (media?.media_ids as unknown[]).map(String) : [];
    if (body.text !== undefined && typeof body.text !== 'string')
      throw invalidRequest('$.text: string expected', 'text', [String(body.text)]);
    if (!text && ids.length === 0)
      throw invalidRequest('You must specify either a Tweet text or a media attachment.', 'text', [
        '',
      ]);
    if (text && weightedLength(text) > MAX_WEIGHTED_LENGTH)
      throw invalidRequest(
        `The text field is too long (${weightedLength(text)} of ${MAX_WEIGHTED_LENGTH} weighted characters).`,
        'text',
        [text],
      );
    if (media && body.poll)
      throw invalidRequest('The fields `media` and `poll` are mutually exclusive.', 'media', []);
    if (media && (ids.length < 1 || ids.length > 4))
      throw invalidRequest(
        'The media.media_ids field must contain between 1 and 4 items.',
        'media.media_ids',
        ids,
      );
    const items: XMedia[] = [];
    for (const id of ids) {
      const m = s().media.find((x) => x.id === id && x.userId === t.userId);
      if (!m || mediaState(m) !== 'succeeded' || (m.expiresAt ?? 0) <= rt.now())
        throw invalidRequest(`Your media IDs are invalid.`, 'media.media_ids', [id]);
      items.push(m);
    }
    if (items.length > 1 && items.some((m) => m.kind !== 'photo'))
      throw invalidRequest(
        'A post can have 4 photos, or 1 GIF, or 1 video.',
        'media.media_ids',
        ids,
      );
    const reply_ = body.reply as Dict | undefined;
    if (reply_?.in_reply_to_tweet_id) {
      const target = s().tweets.find(
        (x) => x.id === String(reply_.in_reply_to_tweet_id) && !x.deleted,
      );
      if (!target)
        throw invalidRequest(
          'The in_reply_to_tweet_id does not exist.',
          'reply.in_reply_to_tweet_id',
          [String(reply_.in_reply_to_tweet_id)],
        );
      if (target.userId !== t.userId)
        throw forbidden(
          'Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to.',
        );
    }
    if (text && s().tweets.some((x) => x.userId === t.userId && !x.deleted && x.text === text))
      throw forbidden('You are not allowed to create a Tweet with duplicate content.');
    const id = numericId(19);
    const tweet: XTweet = {
      id,
      userId: t.userId,
      text: text ?? '',
      createdAt: rt.now(),
      mediaIds: ids,
      replyTo: reply_?.in_reply_to_tweet_id ? String(reply_.in_reply_to_tweet_id) : undefined,
      deleted: false,
    };
    s().tweets.push(tweet);
    store.save();
    reply.code(201);
    return { data: { id, text: shownText(tweet), edit_history_tweet_ids: [id] } };
  });

  app.get<{ Params: { id: string } }>('/x/api/2/tweets/:id', async (req, reply) => {
    await guard(req, reply, ENDPOINTS.getTweet as Endpoint);
    const tw = s().tweets.find((x) => x.id === req.params.id && !x.deleted);
    if (!tw)
      return {
        errors: [
          {
            value: req.params.id,
            detail: `Could not find tweet with id: [${req.params.id}].`,
            title: 'Not Found Error',
            resource_type: 'tweet',
            parameter: 'id',
            resource_id: req.params.id,
            type: 'https://api.x.com/2/problems/resource-not-found',
          },
        ],
      };
    return {
      data: {
        id: tw.id,
        text: shownText(tw),
        edit_history_tweet_ids: [tw.id],
        author_id: tw.userId,
        created_at: new Date(tw.createdAt).toISOString(),
        ...(wantsAttachments(req) ? attachmentsOf(tw) : {}),
      },
    };
  });

  // The user's timeline, newest first (GET /2/users/:id/tweets): max_results 5–100,
  // start_time (RFC 3339), tweet.fields=created_at.
  app.get<{ Params: { id: string } }>('/x/api/2/users/:id/tweets', async (req, reply) => {
    await guard(req, reply, ENDPOINTS.userTweets as Endpoint);
    const max = Number(field(req, 'max_results') ?? 10);
    if (!Number.isInteger(max) || max < 5 || max > 100)
      throw invalidRequest(
        `The \`max_results\` query parameter value [${String(max)}] is not between 5 and 100`,
        'max_results',
        [String(max)],
      );
    const start = field(req, 'start_time');
    const since = start ? Date.parse(start) : Number.NEGATIVE_INFINITY;
    if (Number.isNaN(since))
      throw invalidRequest('Invalid start_time', 'start_time', [String(start)]);
    // Paged as X documents (docs.x.com/x-api/fundamentals/pagination): `meta.next_token` while
    // more remain, sent back as `pagination_token`; the token names the last tweet shown, so
    // tweets made meanwhile (they go on top) neither shift nor repeat the pages after it.
    const all = s()
      .tweets.map((x, i) => ({ x, i }))
      .filter(({ x }) => x.userId === req.params.id && !x.deleted && x.createdAt >= since)
      .sort((a, b) => b.x.createdAt - a.x.createdAt || b.i - a.i)
      .map(({ x }) => x);
    const token = field(req, 'pagination_token');
    let from = 0;
    if (token) {
      const [dir, id] = Buffer.from(token, 'base64url').toString().split(':');
      const at = all.findIndex((x) => x.id === id);
      if (!dir || !id || at < 0)
        throw invalidRequest(
          `The \`pagination_token\` query parameter value [${token}] is not valid`,
          'pagination_token',
          [token],
        );
      from = dir === 'n' ? at + 1 : Math.max(0, at - max);
    }
    const list = all.slice(from, from + max);
    const tokenOf = (dir: 'n' | 'p', id: string | undefined) =>
      Buffer.from(`${dir}:${id ?? ''}`).toString('base64url');
    const withTime = (field(req, 'tweet.fields') ?? '').split(',').includes('created_at');
    const withMedia = wantsAttachments(req);
    const data = list.map((tw) => ({
      id: tw.id,
      text: shownText(tw),
      edit_history_tweet_ids: [tw.id],
      ...(withTime ? { created_at: new Date(tw.createdAt).toISOString() } : {}),
      ...(withMedia ? attachmentsOf(tw) : {}),
    }));
    return {
      ...(data.length ? { data } : {}),
      meta: {
        result_count: data.length,
        ...(data.length ? { newest_id: data[0]?.id, oldest_id: data[data.length - 1]?.id } : {}),
        ...(from + max < all.length ? { next_token: tokenOf('n', list[list.length - 1]?.id) } : {}),
        ...(from > 0 && list.length ? { previous_token: tokenOf('p', list[0]?.id) } : {}),
      },
    };
  });

  app.delete<{ Params: { id: string } }>('/x/api/2/tweets/:id', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.deleteTweet as Endpoint);
    const tw = s().tweets.find((x) => x.id === req.params.id && !x.deleted);
    if (!tw)
      throw problem(
        404,
        'Not Found Error',
        `Could not find tweet with id: [${req.params.id}].`,
        'https://api.x.com/2/problems/resource-not-found',
      );
    if (tw.userId !== t.userId)
      throw forbidden('You are not allowed to delete a Tweet that was not created by you.');
    tw.deleted = true;
    store.save();
    return { data: { deleted: true } };
  });

  // ---- media upload ----------------------------------------------------------------------------------
  const kindOf = (mediaType: string, category: string): XMedia['kind'] =>
    mediaType === 'image/gif' || category.endsWith('_gif')
      ? 'gif'
      : mediaType.startsWith('video/') || category.endsWith('_video')
        ? 'video'
        : 'photo';
  const mediaJson = (m: XMedia) => {
    const state = mediaState(m);
    const processing =
      m.kind === 'photo'
        ? undefined
        : state === 'succeeded'
          ? { state, progress_percent: 100 }
          : state === 'failed'
            ? {
                state,
                progress_percent: 100,
                error: { code: 1, name: 'InvalidMedia', message: m.error },
              }
            : { state, check_after_secs: 1, progress_percent: state === 'pending' ? 0 : 50 };
    return {
      id: m.id,
      media_key: `${m.kind === 'photo' ? 3 : m.kind === 'gif' ? 16 : 7}_${m.id}`,
      size: rt.blobs.size(m.blob),
      expires_after_secs: Math.max(
        0,
        Math.floor(((m.expiresAt ?? rt.now() + 86400_000) - rt.now()) / 1000),
      ),
      ...(m.kind === 'photo' && m.width
        ? { image: { image_type: m.mediaType, w: m.width, h: m.height } }
        : {}),
      ...(processing ? { processing_info: processing } : {}),
    };
  };

  const init = (t: XToken, mediaType: string, totalBytes: number, category: string): XMedia => {
    if (!mediaType) throw invalidRequest('media_type is required.', 'media_type', []);
    if (!CATEGORIES.includes(category))
      throw invalidRequest(`Invalid media_category: ${category}`, 'media_category', [category]);
    if (!Number.isInteger(totalBytes) || totalBytes <= 0)
      throw invalidRequest('total_bytes must be a positive integer.', 'total_bytes', [
        String(totalBytes),
      ]);
    const kind = kindOf(mediaType, category);
    const cap = LIMIT_BYTES[kind === 'photo' ? 'image' : (kind as string)] ?? LIMIT_BYTES.image;
    if (totalBytes > (cap as number))
      throw invalidRequest(
        `File size exceeds ${(cap as number) / 1024 / 1024} MB.`,
        'total_bytes',
        [String(totalBytes)],
      );
    const id = numericId(19);
    const m: XMedia = {
      id,
      userId: t.userId,
      category,
      mediaType,
      totalBytes,
      blob: `x-media-${id}`,
      segments: [],
      state: 'initialized',
      kind,
    };
    rt.blobs.put(m.blob, Buffer.alloc(0));
    s().media.push(m);
    store.save();
    return m;
  };
  const append = (t: XToken, id: string, index: number, chunk: Buffer | undefined) => {
    const m = s().media.find((x) => x.id === id && x.userId === t.userId);
    if (!m || m.state !== 'initialized')
      throw invalidRequest('Invalid media_id.', 'media_id', [id]);
    if (!Number.isInteger(index) || index < 0 || index > 999)
      throw invalidRequest('segment_index must be between 0 and 999.', 'segment_index', [
        String(index),
      ]);
    if (!chunk || chunk.length === 0) throw invalidRequest('media is required.', 'media', []);
    if (rt.blobs.size(m.blob) + chunk.length > m.totalBytes)
      throw invalidRequest('Segments exceed total_bytes.', 'media', []);
    rt.blobs.append(m.blob, chunk);
    m.segments.push(index);
    store.save();
  };
  const finalize = (t: XToken, id: string) => {
    const m = s().media.find((x) => x.id === id && x.userId === t.userId);
    if (!m) throw invalidRequest('Invalid media_id.', 'media_id', [id]);
    if (m.state !== 'initialized') return mediaJson(m);
    const bytes = rt.blobs.get(m.blob) ?? Buffer.alloc(0);
    if (bytes.length !== m.totalBytes)
      throw invalidRequest(
        `File size mismatch: expected ${m.totalBytes} bytes, received ${bytes.length}.`,
        'media_id',
        [id],
      );
    const info = probeMedia(bytes);
    m.finalizedAt = rt.now();
    m.expiresAt = rt.now() + 86400_000;
    if (m.kind === 'photo') {
      // MediaUploadRequestOneShot's media types (XDK): jpeg, bmp, png, webp, pjpeg, tiff (and a
      // GIF); no HEIC.
      if (!['jpeg', 'png', 'webp', 'gif', 'bmp', 'tiff'].includes(info.format))
        throw invalidRequest('Invalid or Unsupported media, Reason: UnsupportedMedia.', 'media', [
          id,
        ]);
      m.state = 'succeeded';
      m.width = info.width;
      m.height = info.height;
    } else {
      m.state = 'pending';
      m.readyAt = rt.now() + rt.settings().x.videoProcessingMs;
      if (m.kind === 'video') {
        if (info.format !== 'mp4' && info.format !== 'mov')
          m.error = 'Invalid or Unsupported media, Reason: UnsupportedMedia.';
        else if (
          info.durationSeconds !== undefined &&
          (info.durationSeconds < 0.5 || info.durationSeconds > 140)
        )
          m.error = `Invalid or Unsupported media, Reason: Duration too ${info.durationSeconds < 0.5 ? 'short' : 'long'}, minimum:500, maximum:140000, actual:${Math.round(info.durationSeconds * 1000)}.`;
      } else if (info.format !== 'gif')
        m.error = 'Invalid or Unsupported media, Reason: UnsupportedMedia.';
    }
    store.save();
    return mediaJson(m);
  };
  const status = (t: XToken, id: string | undefined) => {
    const m = s().media.find((x) => x.id === id && x.userId === t.userId);
    if (!m) throw invalidRequest('Invalid media_id.', 'media_id', [String(id)]);
    const out = mediaJson(m);
    store.save();
    return { data: out };
  };
  const chunkOf = (req: FastifyRequest): Buffer | undefined => {
    const file = filesOf(req.body).media;
    if (file) return file.data;
    const b64 = field(req, 'media') ?? field(req, 'media_data');
    return b64 ? Buffer.from(b64, 'base64') : undefined;
  };

  app.post('/x/api/2/media/upload/initialize', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.media as Endpoint);
    const b = bodyObject(req);
    const m = init(
      t,
      String(b.media_type ?? ''),
      Number(b.total_bytes),
      String(b.media_category ?? 'tweet_image'),
    );
    return {
      data: {
        id: m.id,
        media_key: `${m.kind === 'photo' ? 3 : m.kind === 'gif' ? 16 : 7}_${m.id}`,
        expires_after_secs: 86400,
      },
    };
  });
  app.post<{ Params: { id: string } }>('/x/api/2/media/upload/:id/append', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.media as Endpoint);
    append(t, req.params.id, Number(field(req, 'segment_index') ?? 0), chunkOf(req));
    return {};
  });
  app.post<{ Params: { id: string } }>('/x/api/2/media/upload/:id/finalize', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.media as Endpoint);
    return { data: finalize(t, req.params.id) };
  });
  app.get('/x/api/2/media/upload', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.media as Endpoint);
    return status(t, field(req, 'media_id'));
  });
  // One-shot image upload, and the older `command=` form of the same endpoint.
  app.post('/x/api/2/media/upload', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.media as Endpoint);
    const command = field(req, 'command')?.toUpperCase();
    if (command === 'INIT') {
      const m = init(
        t,
        field(req, 'media_type') ?? '',
        Number(field(req, 'total_bytes')),
        field(req, 'media_category') ?? 'tweet_image',
      );
      return {
        data: {
          id: m.id,
          media_key: `${m.kind === 'photo' ? 3 : 7}_${m.id}`,
          expires_after_secs: 86400,
        },
      };
    }
    if (command === 'APPEND') {
      append(
        t,
        field(req, 'media_id') ?? '',
        Number(field(req, 'segment_index') ?? 0),
        chunkOf(req),
      );
      return {};
    }
    if (command === 'FINALIZE') return { data: finalize(t, field(req, 'media_id') ?? '') };
    if (command === 'STATUS') return status(t, field(req, 'media_id'));
    const bytes = chunkOf(req);
    if (!bytes) throw invalidRequest('media is required.', 'media', []);
    const info = probeMedia(bytes);
    // The type is read from the bytes (a HEIC stays a HEIC, and finalize refuses it).
    const mediaType = ['png', 'gif', 'webp', 'bmp', 'tiff', 'heic'].includes(info.format)
      ? mimeOf(info.format)
      : 'image/jpeg';
    const m = init(t, mediaType, bytes.length, field(req, 'media_category') ?? 'tweet_image');
    append(t, m.id, 0, bytes);
    return { data: finalize(t, m.id) };
  });
  app.post('/x/api/2/media/metadata', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.media as Endpoint);
    const b = bodyObject(req);
    const m = s().media.find((x) => x.id === String(b.id) && x.userId === t.userId);
    if (!m) throw invalidRequest('Invalid media id.', 'id', [String(b.id)]);
    const alt = ((b.metadata as Dict | undefined)?.alt_text as Dict | undefined)?.text;
    if (typeof alt !== 'string' || alt.length > 1000)
      throw invalidRequest(
        'alt_text.text must be a string of at most 1000 characters.',
        'metadata.alt_text.text',
        [],
      );
    m.altText = alt;
    store.save();
    return { data: { id: m.id, associated_metadata: { alt_text: { text: alt } } } };
  });
}
