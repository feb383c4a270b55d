import { CHANNEL_LIMITS } from '../channels/limits';
import { ja } from '../messages/ja';
import { PUBLISHERS, type PublisherKey } from '../publishers/publishers';

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** Every upload is capped at 20 MB (spec 2 §5 media upload dialog, §9; DESIGN §10). */
export const UPLOAD_MAX_BYTES = 20 * MB;
/** "A separate video limit of 20 MB" (spec 2 §5): applies above every channel's own video limit. */
export const VIDEO_MAX_BYTES = 20 * MB;

export type MediaKind = 'image' | 'video' | 'unknown';

/**
 * What the rules need to know of one file. In the browser it comes from the file's name and the
 * decoded image or video element; on the server from the bytes alone (`inspectMedia` in
 * apps/api). `ext` is lower-case, without the dot.
 */
export type MediaMeta = {
  name: string;
  ext: string;
  bytes: number;
  width: number;
  height: number;
  /** Seconds; videos only. */
  durationSec?: number;
  kind: MediaKind;
};

export type Size = { width: number; height: number };

/**
 * A minimum resolution. `either`: too small when either side is under (the usual reading of
 * "at least W x H"); `both`: too small only when both sides are under (spec 2 §5, Facebook's
 * 479x246).
 */
export type MinResolution = Size & { under: 'either' | 'both' };

export type ImageRules = {
  minBytes: number | null;
  maxBytes: number;
  /** A stricter byte limit for some formats (Facebook: PNG at most 1 MB). */
  maxBytesByExt: Readonly<Record<string, number>>;
  minResolutions: readonly MinResolution[];
  /** Too big when either side is over. */
  maxResolution: Size | null;
  /** When set, the image must be exactly one of these (X). */
  exactResolutions: readonly Size[] | null;
  /**
   * Width over height the channel takes (Instagram's feed photos, ADR 0062): checked when the
   * picture is picked and at submit, not first when it is sent. `label` is how the message says it.
   */
  aspect?: { min: number; max: number; label: string } | null;
};

/** Instagram's feed photos: 4:5 (portrait) to 1.91:1 (landscape), IG User Media reference. */
export const INSTAGRAM_ASPECT = { min: 4 / 5, max: 1.91, label: '4:5〜1.91:1' } as const;

export type VideoRules = {
  /** The channel's own figure; `VIDEO_MAX_BYTES` applies above it. */
  maxBytes: number;
  /** Orientation-free: the longer side against `width`, the shorter against `height`. */
  minResolution: Size | null;
  /** Orientation-free, as the minimum (X's "1920x1200 or 1200x1920"). */
  maxResolution: Size | null;
  minDurationSec: number | null;
  maxDurationSec: number | null;
};

export type ChannelMediaRules = {
  /** Extensions as spec 2 §5 lists them; the file-format message names this list. */
  extensions: readonly string[];
  /** Spec 2 §5 media count, read from CHANNEL_LIMITS (one table of figures). */
  maxCount: number;
  image: ImageRules;
  /** null: videos are not allowed (Google). */
  video: VideoRules | null;
};

const noImageExtras = { maxBytesByExt: {}, exactResolutions: null } as const;

/** Spec 2 §5's per-channel media table, row by row. */
export const MEDIA_RULES: Readonly<Record<PublisherKey, ChannelMediaRules>> = {
  google_my_business: {
    extensions: ['jpg', 'jpeg', 'png', 'heic'],
    maxCount: CHANNEL_LIMITS.google_my_business.maxImages,
    image: {
      ...noImageExtras,
      minBytes: 10 * KB,
      maxBytes: 5 * MB,
      minResolutions: [{ width: 250, height: 250, under: 'either' }],
      maxResolution: null,
    },
    video: null,
  },
  facebook: {
    extensions: ['jpeg', 'bmp', 'png', 'gif', 'tiff', 'heic', 'mov', 'mp4'],
    maxCount: CHANNEL_LIMITS.facebook.maxImages,
    image: {
      minBytes: null,
      maxBytes: 15 * MB,
      maxBytesByExt: { png: 1 * MB },
      minResolutions: [
        { width: 479, height: 246, under: 'both' },
        { width: 320, height: 320, under: 'either' },
      ],
      maxResolution: null,
      exactResolutions: null,
    },
    video: {
      maxBytes: 40 * GB,
      minResolution: null,
      maxResolution: { width: 1920, height: 1080 },
      minDurationSec: null,
      maxDurationSec: 14_400,
    },
  },
  instagram: {
    extensions: ['jpeg', 'gif', 'png', 'heic', 'mov', 'mp4'],
    maxCount: CHANNEL_LIMITS.instagram.maxImages,
    image: {
      ...noImageExtras,
      minBytes: null,
      maxBytes: 8 * MB,
      minResolutions: [{ width: 600, height: 500, under: 'either' }],
      maxResolution: { width: 1936, height: 1936 },
      aspect: INSTAGRAM_ASPECT,
    },
    video: {
      maxBytes: 250 * MB,
      minResolution: { width: 1280, height: 720 },
      maxResolution: null,
      minDurationSec: null,
      maxDurationSec: 60,
    },
  },
  twitter: {
    extensions: ['jpeg', 'gif', 'png', 'heic', 'mov', 'mp4'],
    maxCount: CHANNEL_LIMITS.twitter.maxImages,
    image: {
      minBytes: null,
      maxBytes: 5 * MB,
      maxBytesByExt: {},
      minResolutions: [],
      maxResolution: null,
      exactResolutions: [
        { width: 1280, height: 720 },
        { width: 1200, height: 900 },
        { width: 1200, height: 800 },
        { width: 1200, height: 600 },
      ],
    },
    video: {
      maxBytes: 512 * MB,
      minResolution: { width: 32, height: 32 },
      maxResolution: { width: 1920, height: 1200 },
      minDurationSec: 0.5,
      maxDurationSec: 140,
    },
  },
};

/** Names of one format (jpg is jpeg, tif is tiff, heif is heic): matched as one. */
const EXT_ALIASES: Readonly<Record<string, string>> = { jpg: 'jpeg', tif: 'tiff', heif: 'heic' };
export const canonicalExt = (ext: string): string => {
  const e = ext.toLowerCase().replace(/^\./, '');
  return EXT_ALIASES[e] ?? e;
};

const IMAGE_EXTS = new Set(['jpeg', 'png', 'gif', 'bmp', 'tiff', 'heic', 'webp', 'avif']);
const VIDEO_EXTS = new Set(['mp4', 'mov']);

/** Spec 2 §4: media type is decided by file extension (image, video or unknown). */
export const mediaKindOf = (ext: string): MediaKind => {
  const e = canonicalExt(ext);
  if (IMAGE_EXTS.has(e)) return 'image';
  if (VIDEO_EXTS.has(e)) return 'video';
  return 'unknown';
};

/** The extension of a file name, lower-case and without the dot ('' when it has none). */
export const extOf = (name: string): string => {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(i + 1).toLowerCase();
};

/** Is this extension in the channel's list (aliases count as their format)? */
export const isExtAllowed = (channel: PublisherKey, ext: string): boolean =>
  MEDIA_RULES[channel].extensions.some((e) => canonicalExt(e) === canonicalExt(ext));

const labelOf = (channel: PublisherKey): string =>
  PUBLISHERS.find((p) => p.key === channel)?.label ?? channel;

/** Bytes as the messages show them: whole MB or KB when exact, else one decimal. */
export const formatBytes = (n: number): string => {
  const unit = n >= GB ? ['GB', GB] : n >= MB ? ['MB', MB] : ['KB', KB];
  const v = n / (unit[1] as number);
  return `${Number.isInteger(v) ? v : v.toFixed(1)}${unit[0]}`;
};

const px = (s: Size): string => `${s.width}×${s.height}px`;

/** Longer side first, so that portrait and landscape videos meet the same limits. */
const oriented = (w: number, h: number): Size => ({
  width: Math.max(w, h),
  height: Math.min(w, h),
});

function imageErrors(channel: PublisherKey, r: ImageRules, m: MediaMeta): string[] {
  const out: string[] = [];
  const label = labelOf(channel);
  const maxBytes = Math.min(r.maxBytesByExt[canonicalExt(m.ext)] ?? r.maxBytes, UPLOAD_MAX_BYTES);
  if (r.minBytes !== null && m.bytes < r.minBytes)
    out.push(ja.mediaSizeSmaller(label, formatBytes(r.minBytes)));
  if (m.bytes > maxBytes) out.push(ja.mediaSizeBigger(label, formatBytes(maxBytes)));
  for (const min of r.minResolutions) {
    const w = m.width < min.width;
    const h = m.height < min.height;
    if (min.under === 'both' ? w && h : w || h) out.push(ja.mediaResolutionSmaller(label, px(min)));
  }
  if (r.maxResolution && (m.width > r.maxResolution.width || m.height > r.maxResolution.height))
    out.push(ja.mediaResolutionBigger(label, px(r.maxResolution)));
  const aspect = r.aspect;
  if (aspect && m.width > 0 && m.height > 0) {
    const ratio = m.width / m.height;
    // A thousandth either side: 1080×1350 (4:5) and 1910×1000 are in, as Instagram takes them.
    if (ratio < aspect.min - 1e-3 || ratio > aspect.max + 1e-3)
      out.push(ja.mediaAspectRatio(label, aspect.label));
  }
  const exact = r.exactResolutions;
  if (exact && !exact.some((s) => s.width === m.width && s.height === m.height)) {
    // Only two messages exist (spec 2 §8): over the largest allowed side is "too big".
    const maxW = Math.max(...exact.map((s) => s.width));
    const maxH = Math.max(...exact.map((s) => s.height));
    const list = exact.map(px).join('、');
    out.push(
      m.width > maxW || m.height > maxH
        ? ja.mediaResolutionBigger(label, list)
        : ja.mediaResolutionSmaller(label, list),
    );
  }
  return out;
}

function videoErrors(channel: PublisherKey, r: VideoRules, m: MediaMeta): string[] {
  const out: string[] = [];
  const label = labelOf(channel);
  if (m.bytes > VIDEO_MAX_BYTES) out.push(ja.mediaVideoOver20Mb);
  else if (m.bytes > r.maxBytes) out.push(ja.mediaSizeBigger(label, formatBytes(r.maxBytes)));
  const s = oriented(m.width, m.height);
  if (r.minResolution && (s.width < r.minResolution.width || s.height < r.minResolution.height))
    out.push(ja.mediaResolutionSmaller(label, px(r.minResolution)));
  if (r.maxResolution && (s.width > r.maxResolution.width || s.height > r.maxResolution.height))
    out.push(ja.mediaResolutionBigger(label, px(r.maxResolution)));
  const d = m.durationSec;
  if (d !== undefined) {
    if (r.minDurationSec !== null && d < r.minDurationSec)
      out.push(ja.mediaDurationShorter(label, r.minDurationSec));
    if (r.maxDurationSec !== null && d > r.maxDurationSec)
      out.push(ja.mediaDurationLonger(label, r.maxDurationSec));
  }
  return out;
}

/**
 * Spec 2 §5's media rules for one channel: format (naming the allowed list), count, sizes,
 * resolutions, durations, no video where the channel takes none, and the 20 MB video cap.
 * Returns the messages, each once (spec 2 §4: duplicate messages are shown once); empty when
 * the files pass. The kind is taken from `kind`, falling back on the extension when unknown.
 */
export function checkMedia(channel: PublisherKey, items: readonly MediaMeta[]): string[] {
  const rules = MEDIA_RULES[channel];
  const label = labelOf(channel);
  const out: string[] = [];
  if (items.length > rules.maxCount) out.push(ja.mediaCountOver(label, rules.maxCount));
  for (const m of items) {
    const kind = m.kind === 'unknown' ? mediaKindOf(m.ext) : m.kind;
    if (kind === 'video' && rules.video === null) {
      out.push(ja.mediaVideoNotAllowed(label));
      continue;
    }
    if (kind === 'unknown' || !isExtAllowed(channel, m.ext)) {
      out.push(ja.mediaFormat(label, rules.extensions.join(', ')));
      continue;
    }
    if (kind === 'image') out.push(...imageErrors(channel, rules.image, m));
    else if (rules.video) out.push(...videoErrors(channel, rules.video, m));
  }
  return [...new Set(out)];
}
