import { Readable } from 'node:stream';
import sharp, { type Sharp } from 'sharp';
import { ja, MEDIA_RULES, PUBLISHERS, UPLOAD_MAX_BYTES, type PublisherKey } from '@tenpo/domain';
import { ChannelError } from '../channels/channel';
import type { MediaStorage } from '../storage';
import { decodeBmp } from './bmp';
import { detectFormat } from './inspect';

/**
 * Media made into what each channel really takes (ADR 0062). The user may pick any format of
 * spec 2 §5's per-channel lists (media-rules.ts); the providers take fewer:
 *
 * - Instagram: JPEG only (IG User Media reference; the sandbox refuses others with 2207052).
 * - X: the one-shot upload's media types are jpeg, bmp, png, webp, pjpeg, tiff (GIF goes as a
 *   GIF); no HEIC.
 * - Google: JPG and PNG (GBP media requirements).
 * - Facebook: JPEG, BMP, PNG, GIF, TIFF (Graph API photo uploads). BMP and TIFF are still sent
 *   as JPEG: they are uncompressed or in many variants, far over Meta's advice of 4 MB.
 *
 * Anything else (HEIC, BMP, TIFF, a GIF to Instagram, a PNG to Instagram) becomes one JPEG
 * rendition per stored media, made once and kept next to the original, so that a retry and
 * every other target reuse it. Videos are sent as they are.
 */
export const CHANNEL_TAKES: Readonly<Record<PublisherKey, readonly string[]>> = {
  instagram: ['jpeg'],
  twitter: ['jpeg', 'png', 'gif', 'webp', 'bmp', 'tiff'],
  google_my_business: ['jpeg', 'png'],
  facebook: ['jpeg', 'png', 'gif'],
};

/**
 * The recipe of the JPEG rendition, the same for every channel so that one rendition serves
 * them all: at most the smallest channel cap (X and Google, 5 MB), at least Google's 10 KB.
 */
const RENDITION_MAX_BYTES = Math.min(...Object.values(MEDIA_RULES).map((r) => r.image.maxBytes));
const RENDITION_MIN_BYTES = Math.max(
  ...Object.values(MEDIA_RULES).map((r) => r.image.minBytes ?? 0),
);
const QUALITIES = [88, 80, 70, 60];
/** Decoded pictures larger than this are refused (sharp's own default is 268 MP). */
const MAX_INPUT_PIXELS = 100_000_000;
/** Conversions at once per process: each holds a decoded picture (up to ~400 MB for 100 MP). */
const MAX_CONCURRENT = 2;

const labelOf = (key: PublisherKey): string => PUBLISHERS.find((p) => p.key === key)?.label ?? key;

/** A refusal of ours, with the Japanese line the target shows (failureLines reads `detail`). */
export class MediaPrepError extends ChannelError {
  readonly detail: readonly string[];
  constructor(publisher: PublisherKey, line: string, cause?: unknown) {
    super('invalid', line, null, null, publisher);
    this.name = 'MediaPrepError';
    this.detail = [line];
    if (cause !== undefined) this.cause = cause;
  }
}

/** What a channel gets for one stored media: the object to hand over and its content type. */
export type Prepared = { key: string; contentType: string; converted: boolean };

export type MediaRow = {
  storage_key: string;
  kind: string;
  mime: string;
  width: number | null;
  height: number | null;
};

/** The key of a stored media's JPEG rendition: `<folder>/renditions/<name>-jpeg.jpg`. */
export const renditionKeyOf = (key: string): string => {
  const at = key.lastIndexOf('/');
  const folder = key.slice(0, at);
  const name = key.slice(at + 1).replace(/\.[a-z0-9]+$/, '');
  return `${folder}/renditions/${name}-jpeg.jpg`;
};

let running = 0;
const waiting: (() => void)[] = [];
async function limited<T>(f: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((r) => waiting.push(r));
  running += 1;
  try {
    return await f();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** The first bytes of a stored object (its format is read from them, never from its name). */
async function headOf(storage: MediaStorage, key: string): Promise<Buffer> {
  const stream = await storage.open(key);
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const c of stream) {
      chunks.push(c as Buffer);
      n += (c as Buffer).length;
      if (n >= 64) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, 64);
}

/** The whole object, refused past the 20 MB upload cap (nothing larger is ever stored). */
async function readCapped(stream: Readable, max = UPLOAD_MAX_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of stream) {
    n += (c as Buffer).length;
    if (n > max) {
      stream.destroy();
      throw new Error(`media over ${max} bytes`);
    }
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * HEIC through libheif compiled to WebAssembly (heic-decode): sharp's prebuilt libvips has
 * libheif without an HEVC decoder (it reads AVIF only). libheif applies the image's irot/imir,
 * so the pixels come out as the picture is shown.
 */
async function decodeHeic(bytes: Buffer): Promise<Sharp> {
  const { default: decode } = await import('heic-decode');
  const img = await decode({ buffer: bytes });
  if (img.width * img.height > MAX_INPUT_PIXELS) throw new Error('HEIC too large');
  return sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength), {
    raw: { width: img.width, height: img.height, channels: 4 },
  });
}

/** BMP through our own decoder (bmp.ts): libvips reads BMP only through ImageMagick. */
function bmpPicture(bytes: Buffer): Sharp {
  const img = decodeBmp(bytes, MAX_INPUT_PIXELS);
  const s = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 4 } });
  return img.alpha ? s : s.removeAlpha();
}

export type JpegResult = { bytes: Buffer; width: number; height: number; quality: number };

/**
 * One picture as a baseline sRGB JPEG: turned as its EXIF orientation says (then the tag is
 * gone), transparency on white, the first frame of a GIF or page of a TIFF, no metadata kept
 * (sharp writes none unless asked: no GPS, no camera data). Quality steps down until it fits
 * the rendition's cap, and up to 100 when it would fall under Google's 10 KB.
 */
export async function toJpeg(bytes: Buffer, format: string): Promise<JpegResult> {
  const base =
    format === 'heic'
      ? await decodeHeic(bytes)
      : format === 'bmp'
        ? bmpPicture(bytes)
        : sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, pages: 1 }).rotate();
  const flat = await base
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = flat.info;
  const encode = (quality: number) =>
    sharp(flat.data, { raw: { width, height, channels } })
      .jpeg({ quality, chromaSubsampling: quality >= 90 ? '4:4:4' : '4:2:0', mozjpeg: false })
      .toBuffer();
  let out: Buffer | null = null;
  let used = 0;
  for (const q of QUALITIES) {
    out = await encode(q);
    used = q;
    if (out.length <= RENDITION_MAX_BYTES) break;
  }
  if (!out || out.length > RENDITION_MAX_BYTES) throw new RenditionTooLarge();
  if (out.length < RENDITION_MIN_BYTES) {
    out = await encode(100);
    used = 100;
  }
  return { bytes: out, width, height, quality: used };
}

class RenditionTooLarge extends Error {}

/**
 * The object a channel gets for one stored media: the original when the channel takes its
 * format, else its JPEG rendition, made now unless an earlier run (a retry, another store's
 * target of the same post) made it already. A picture that cannot be made into what the
 * channel takes, or that Instagram would refuse for its shape, is a `MediaPrepError` (the
 * target fails with its Japanese line); a storage fault is thrown as it is (the job retries).
 */
export async function prepareMedia(
  storage: MediaStorage,
  m: MediaRow,
  publisher: PublisherKey,
): Promise<Prepared> {
  const original: Prepared = { key: m.storage_key, contentType: m.mime, converted: false };
  if (m.kind === 'video') return original;
  const label = labelOf(publisher);
  // Checked at submit too (media-rules); a post made before that rule still fails here, not there.
  const aspect = MEDIA_RULES[publisher].image.aspect;
  if (aspect && m.width && m.height) {
    const r = m.width / m.height;
    if (r < aspect.min - 1e-3 || r > aspect.max + 1e-3)
      throw new MediaPrepError(publisher, ja.mediaAspectRatio(label, aspect.label));
  }
  const format = detectFormat(await headOf(storage, m.storage_key));
  if (!format) throw new MediaPrepError(publisher, ja.mediaConvertFailed(label));
  if (format.kind === 'video') return original;
  if (CHANNEL_TAKES[publisher].includes(format.ext))
    return { ...original, contentType: format.contentType };

  const key = renditionKeyOf(m.storage_key);
  const done: Prepared = { key, contentType: 'image/jpeg', converted: true };
  if (await storage.stat(key)) return done;
  return limited(async () => {
    if (await storage.stat(key)) return done;
    const bytes = await readCapped(await storage.open(m.storage_key));
    let jpeg: JpegResult;
    try {
      jpeg = await toJpeg(bytes, format.ext);
    } catch (err) {
      if (err instanceof RenditionTooLarge)
        throw new MediaPrepError(
          publisher,
          ja.mediaConvertTooLarge(label, `${RENDITION_MAX_BYTES / 1024 / 1024}MB`),
          err,
        );
      throw new MediaPrepError(publisher, ja.mediaConvertFailed(label), err);
    }
    const at = key.lastIndexOf('/');
    await storage.put(Readable.from([jpeg.bytes]), {
      folder: key.slice(0, at),
      ext: 'jpg',
      contentType: 'image/jpeg',
      key,
    });
    return done;
  });
}

/** A stored object's bytes (an uploading channel's body), capped as uploads are. */
export const readStored = async (storage: MediaStorage, key: string): Promise<Buffer> =>
  readCapped(await storage.open(key));
