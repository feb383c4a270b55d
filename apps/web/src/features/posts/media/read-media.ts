import { extOf, mediaKindOf, type MediaMeta } from '@tenpo/domain';
import { ja } from '@/i18n/ja';

/**
 * One file of the post form, as the browser has read it: the file to send (a HEIC photo
 * converted to JPEG), a preview URL (a TIFF drawn to PNG), and the metadata the rules of
 * `checkMedia` need. `url` media come from a copied post and are sent back as their URL.
 */
export type PostMedia = {
  key: string;
  source: File | string;
  preview: string;
  meta: MediaMeta;
  /** A helper failure (spec 2 §8: image, video or TIFF loading); the file cannot be sent. */
  error: string | null;
};

let seq = 0;
const nextKey = () => `m${Date.now()}${++seq}`;

const loadImage = (src: string): Promise<{ width: number; height: number }> =>
  new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => reject(new Error(ja.posts.media.imageError));
    img.onabort = () => reject(new Error(ja.posts.media.imageAborted));
    img.src = src;
  });

const loadVideo = (src: string): Promise<{ width: number; height: number; duration: number }> =>
  new Promise((resolve, reject) => {
    const v = document.createElement('video');
    v.preload = 'metadata';
    v.muted = true;
    v.onloadedmetadata = () =>
      resolve({ width: v.videoWidth, height: v.videoHeight, duration: v.duration });
    v.onerror = () => reject(new Error(ja.posts.media.videoError));
    v.src = src;
  });

/** A TIFF's first page drawn to a PNG data URL, for the preview only (spec 2 §4). */
const tiffPreview = async (file: File): Promise<{ url: string; width: number; height: number }> => {
  const UTIF = (await import('utif2')).default;
  let buf: ArrayBuffer;
  try {
    buf = await file.arrayBuffer();
  } catch {
    throw new Error(ja.posts.media.tiffReadError);
  }
  const ifds = UTIF.decode(buf);
  const first = ifds[0];
  if (!first) throw new Error(ja.posts.media.tiffInvalid);
  try {
    UTIF.decodeImage(buf, first);
  } catch {
    throw new Error(ja.posts.media.tiffError);
  }
  const width = Number(first.width);
  const height = Number(first.height);
  const rgba = UTIF.toRGBA8(first);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx || !width || !height) throw new Error(ja.posts.media.tiffInvalid);
  ctx.putImageData(new ImageData(new Uint8ClampedArray(rgba), width, height), 0, 0);
  return { url: canvas.toDataURL('image/png'), width, height };
};

/** HEIC → JPEG (spec 2 §4); null when the conversion fails (spec 2 §8: "returns nothing"). */
const heicToJpeg = async (file: File): Promise<File | null> => {
  try {
    const { heicTo } = await import('heic-to');
    const blob = await heicTo({ blob: file, type: 'image/jpeg', quality: 0.92 });
    const name = file.name.replace(/\.(heic|heif)$/i, '') + '.jpg';
    return new File([blob], name, { type: 'image/jpeg' });
  } catch {
    return null;
  }
};

const metaOf = (file: File, width = 0, height = 0, durationSec?: number): MediaMeta => {
  const ext = extOf(file.name);
  return {
    name: file.name,
    ext,
    bytes: file.size,
    width,
    height,
    kind: mediaKindOf(ext),
    ...(durationSec === undefined ? {} : { durationSec }),
  };
};

const message = (e: unknown, fallback: string) =>
  e instanceof Error && e.message ? e.message : fallback;

/** Reads one picked file (the browser's side of ADR 0025). Never throws. */
const readFile = async (picked: File): Promise<PostMedia> => {
  let file = picked;
  const ext = extOf(file.name);
  if (ext === 'heic' || ext === 'heif') {
    const jpeg = await heicToJpeg(file);
    if (jpeg) file = jpeg;
  }
  const key = nextKey();
  const kind = mediaKindOf(extOf(file.name));
  if (kind === 'video') {
    const url = URL.createObjectURL(file);
    try {
      const v = await loadVideo(url);
      return {
        key,
        source: file,
        preview: url,
        meta: metaOf(file, v.width, v.height, v.duration),
        error: null,
      };
    } catch (e) {
      return {
        key,
        source: file,
        preview: url,
        meta: metaOf(file),
        error: message(e, ja.posts.media.videoError),
      };
    }
  }
  if (extOf(file.name) === 'tiff' || extOf(file.name) === 'tif') {
    try {
      const t = await tiffPreview(file);
      return {
        key,
        source: file,
        preview: t.url,
        meta: metaOf(file, t.width, t.height),
        error: null,
      };
    } catch (e) {
      return {
        key,
        source: file,
        preview: '',
        meta: metaOf(file),
        error: message(e, ja.posts.media.tiffError),
      };
    }
  }
  const url = URL.createObjectURL(file);
  if (kind !== 'image') return { key, source: file, preview: url, meta: metaOf(file), error: null };
  try {
    const s = await loadImage(url);
    return { key, source: file, preview: url, meta: metaOf(file, s.width, s.height), error: null };
  } catch (e) {
    return {
      key,
      source: file,
      preview: url,
      meta: metaOf(file),
      error: message(e, ja.posts.media.imageLoadError),
    };
  }
};

/** Reads a media URL of a copied post (spec 2 §2 post copy): sent back as its URL. */
const readUrl = async (url: string): Promise<PostMedia> => {
  const name = decodeURIComponent(
    new URL(url, window.location.origin).pathname.split('/').pop() ?? url,
  );
  const ext = extOf(name);
  const kind = mediaKindOf(ext);
  const base: MediaMeta = { name, ext, bytes: 0, width: 0, height: 0, kind };
  try {
    if (kind === 'video') {
      const v = await loadVideo(url);
      return {
        key: nextKey(),
        source: url,
        preview: url,
        meta: { ...base, width: v.width, height: v.height, durationSec: v.duration },
        error: null,
      };
    }
    const s = await loadImage(url);
    return { key: nextKey(), source: url, preview: url, meta: { ...base, ...s }, error: null };
  } catch (e) {
    return {
      key: nextKey(),
      source: url,
      preview: url,
      meta: base,
      error: message(e, ja.posts.media.imageLoadError),
    };
  }
};

/**
 * The browser's media helpers, as one object so that tests can replace what jsdom cannot do
 * (decode images and videos).
 */
export const mediaReader = { readFile, readUrl };

export const releasePreview = (m: PostMedia): void => {
  if (m.source instanceof File && m.preview.startsWith('blob:')) URL.revokeObjectURL(m.preview);
};
