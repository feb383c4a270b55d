// Media upload on the X API v2: chunked (initialize / append / finalize, and the older
// `command=` form), one-shot images, processing status, and alt text.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyObject, field, numericId, type Dict } from '../shared/http';
import { mimeOf, probeMedia } from '../shared/media';
import { filesOf } from '../shared/multipart';
import type { Runtime } from '../shared/runtime';
import { invalidRequest } from './x.errors';
import { ENDPOINTS, type Endpoint, type XCtx } from './x.guard';
import type { XMedia, XToken } from './x.state';

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

export const mediaState = (rt: Runtime, m: XMedia): XMedia['state'] => {
  if (
    (m.state === 'pending' || m.state === 'in_progress') &&
    m.readyAt !== undefined &&
    rt.now() >= m.readyAt
  )
    m.state = m.error ? 'failed' : 'succeeded';
  else if (m.state === 'pending' && m.finalizedAt !== undefined && rt.now() >= m.finalizedAt + 200)
    m.state = 'in_progress';
  return m.state;
};

const kindOf = (mediaType: string, category: string): XMedia['kind'] =>
  mediaType === 'image/gif' || category.endsWith('_gif')
    ? 'gif'
    : mediaType.startsWith('video/') || category.endsWith('_video')
      ? 'video'
      : 'photo';

const mediaJson = (rt: Runtime, m: XMedia) => {
  const state = mediaState(rt, m);
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

const init = (
  { rt, store }: XCtx,
  t: XToken,
  mediaType: string,
  totalBytes: number,
  category: string,
): XMedia => {
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
    throw invalidRequest(`File size exceeds ${(cap as number) / 1024 / 1024} MB.`, 'total_bytes', [
      String(totalBytes),
    ]);
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
  store.data.media.push(m);
  store.save();
  return m;
};

const append = (
  { rt, store }: XCtx,
  t: XToken,
  id: string,
  index: number,
  chunk: Buffer | undefined,
) => {
  const m = store.data.media.find((x) => x.id === id && x.userId === t.userId);
  if (!m || m.state !== 'initialized') throw invalidRequest('Invalid media_id.', 'media_id', [id]);
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

const finalize = ({ rt, store }: XCtx, t: XToken, id: string) => {
  const m = store.data.media.find((x) => x.id === id && x.userId === t.userId);
  if (!m) throw invalidRequest('Invalid media_id.', 'media_id', [id]);
  if (m.state !== 'initialized') return mediaJson(rt, m);
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
  return mediaJson(rt, m);
};

const status = ({ rt, store }: XCtx, t: XToken, id: string | undefined) => {
  const m = store.data.media.find((x) => x.id === id && x.userId === t.userId);
  if (!m) throw invalidRequest('Invalid media_id.', 'media_id', [String(id)]);
  const out = mediaJson(rt, m);
  store.save();
  return { data: out };
};

const chunkOf = (req: FastifyRequest): Buffer | undefined => {
  const file = filesOf(req.body).media;
  if (file) return file.data;
  const b64 = field(req, 'media') ?? field(req, 'media_data');
  return b64 ? Buffer.from(b64, 'base64') : undefined;
};

export function registerXMedia(app: FastifyInstance, ctx: XCtx): void {
  const { store, guard } = ctx;
  const s = () => store.data;

  app.post('/x/api/2/media/upload/initialize', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.media as Endpoint);
    const b = bodyObject(req);
    const m = init(
      ctx,
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
    append(ctx, t, req.params.id, Number(field(req, 'segment_index') ?? 0), chunkOf(req));
    return {};
  });
  app.post<{ Params: { id: string } }>('/x/api/2/media/upload/:id/finalize', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.media as Endpoint);
    return { data: finalize(ctx, t, req.params.id) };
  });
  app.get('/x/api/2/media/upload', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.media as Endpoint);
    return status(ctx, t, field(req, 'media_id'));
  });
  // One-shot image upload, and the older `command=` form of the same endpoint.
  app.post('/x/api/2/media/upload', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.media as Endpoint);
    const command = field(req, 'command')?.toUpperCase();
    if (command === 'INIT') {
      const m = init(
        ctx,
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
        ctx,
        t,
        field(req, 'media_id') ?? '',
        Number(field(req, 'segment_index') ?? 0),
        chunkOf(req),
      );
      return {};
    }
    if (command === 'FINALIZE') return { data: finalize(ctx, t, field(req, 'media_id') ?? '') };
    if (command === 'STATUS') return status(ctx, t, field(req, 'media_id'));
    const bytes = chunkOf(req);
    if (!bytes) throw invalidRequest('media is required.', 'media', []);
    const info = probeMedia(bytes);
    // The type is read from the bytes (a HEIC stays a HEIC, and finalize refuses it).
    const mediaType = ['png', 'gif', 'webp', 'bmp', 'tiff', 'heic'].includes(info.format)
      ? mimeOf(info.format)
      : 'image/jpeg';
    const m = init(ctx, t, mediaType, bytes.length, field(req, 'media_category') ?? 'tweet_image');
    append(ctx, t, m.id, 0, bytes);
    return { data: finalize(ctx, t, m.id) };
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
