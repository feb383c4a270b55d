/**
 * What the providers look at in a media file: its format, pixel size and (for MP4/MOV) its
 * duration, read from the headers only.
 */
export type MediaFormat =
  | 'jpeg'
  | 'png'
  | 'gif'
  | 'webp'
  | 'bmp'
  | 'tiff'
  | 'heic'
  | 'mp4'
  | 'mov'
  | 'unknown';
export type MediaInfo = {
  format: MediaFormat;
  bytes: number;
  width?: number;
  height?: number;
  durationSeconds?: number;
};

export const isVideo = (f: MediaFormat): boolean => f === 'mp4' || f === 'mov';
export const mimeOf = (f: MediaFormat): string =>
  ({
    jpeg: 'image/jpeg',
    png: 'image/png',
    gif: 'image/gif',
    webp: 'image/webp',
    bmp: 'image/bmp',
    tiff: 'image/tiff',
    heic: 'image/heic',
    mp4: 'video/mp4',
    mov: 'video/quicktime',
    unknown: 'application/octet-stream',
  })[f];

export function probeMedia(buf: Buffer): MediaInfo {
  const info: MediaInfo = { format: 'unknown', bytes: buf.length };
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) {
    info.format = 'jpeg';
    let i = 2;
    while (i + 9 < buf.length) {
      if (buf[i] !== 0xff) {
        i += 1;
        continue;
      }
      const marker = buf[i + 1] ?? 0;
      if (
        marker === 0xd8 ||
        marker === 0x01 ||
        (marker >= 0xd0 && marker <= 0xd7) ||
        marker === 0xff
      ) {
        i += marker === 0xff ? 1 : 2;
        continue;
      }
      const len = buf.readUInt16BE(i + 2);
      const isSof =
        marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isSof) {
        info.height = buf.readUInt16BE(i + 5);
        info.width = buf.readUInt16BE(i + 7);
        break;
      }
      if (marker === 0xda || marker === 0xd9) break;
      i += 2 + len;
    }
    return info;
  }
  if (buf.length >= 24 && buf.readUInt32BE(0) === 0x89504e47) {
    info.format = 'png';
    info.width = buf.readUInt32BE(16);
    info.height = buf.readUInt32BE(20);
    return info;
  }
  if (buf.length >= 10 && buf.toString('ascii', 0, 3) === 'GIF') {
    info.format = 'gif';
    info.width = buf.readUInt16LE(6);
    info.height = buf.readUInt16LE(8);
    return info;
  }
  if (
    buf.length >= 12 &&
    buf.toString('ascii', 0, 4) === 'RIFF' &&
    buf.toString('ascii', 8, 12) === 'WEBP'
  ) {
    info.format = 'webp';
    return info;
  }
  if (buf.length >= 26 && buf.toString('ascii', 0, 2) === 'BM') {
    // BITMAPCOREHEADER (12 bytes: 16-bit sizes) or a later info header; negative height = top-down.
    info.format = 'bmp';
    const header = buf.readUInt32LE(14);
    info.width = header === 12 ? buf.readUInt16LE(18) : Math.abs(buf.readInt32LE(18));
    info.height = header === 12 ? buf.readUInt16LE(20) : Math.abs(buf.readInt32LE(22));
    return info;
  }
  const tiffMagic = buf.toString('latin1', 0, 4);
  if (tiffMagic === 'II*\0' || tiffMagic === 'MM\0*') {
    info.format = 'tiff';
    return info;
  }
  if (buf.length >= 12 && buf.toString('ascii', 4, 8) === 'ftyp') {
    const brand = buf.toString('ascii', 8, 12);
    // An HEIF still says so in its major brand or, after a generic one, its compatible brands.
    const size = Math.min(buf.readUInt32BE(0), buf.length);
    const brands = [brand];
    for (let at = 16; at + 4 <= size; at += 4) brands.push(buf.toString('ascii', at, at + 4));
    if (
      brands.some((b) => /^(heic|heix|heim|heis|hevc|hevx)$/.test(b)) ||
      /^(mif1|msf1)$/.test(brand)
    )
      info.format = 'heic';
    else info.format = brand === 'qt  ' ? 'mov' : 'mp4';
    if (isVideo(info.format)) Object.assign(info, readMovie(buf));
    return info;
  }
  return info;
}

/** Walks MP4/MOV boxes for mvhd (duration) and the first video tkhd (width, height). */
function readMovie(buf: Buffer): Partial<MediaInfo> {
  const out: Partial<MediaInfo> = {};
  const walk = (start: number, end: number): void => {
    let i = start;
    while (i + 8 <= end) {
      let size = buf.readUInt32BE(i);
      const type = buf.toString('ascii', i + 4, i + 8);
      let header = 8;
      if (size === 1 && i + 16 <= end) {
        size = Number(buf.readBigUInt64BE(i + 8));
        header = 16;
      } else if (size === 0) size = end - i;
      if (size < header || i + size > end) return;
      if (type === 'moov' || type === 'trak' || type === 'mdia') walk(i + header, i + size);
      else if (type === 'mvhd') {
        const v = buf[i + header] ?? 0;
        const p = i + header + 4;
        const timescale = v === 1 ? buf.readUInt32BE(p + 16) : buf.readUInt32BE(p + 8);
        const duration = v === 1 ? Number(buf.readBigUInt64BE(p + 20)) : buf.readUInt32BE(p + 12);
        if (timescale > 0) out.durationSeconds = duration / timescale;
      } else if (type === 'tkhd' && out.width === undefined) {
        const w = buf.readUInt32BE(i + size - 8) / 65536;
        const h = buf.readUInt32BE(i + size - 4) / 65536;
        if (w > 0 && h > 0) {
          out.width = Math.round(w);
          out.height = Math.round(h);
        }
      }
      i += size;
    }
  };
  walk(0, buf.length);
  return out;
}

/** What an emulator fetched from a media URL, kept on the object it created so tests can see it. */
export type FetchedMedia = {
  url: string;
  bytes: number;
  /** From the bytes, not from the server's word (that is `content_type`). */
  mime: string;
  format: MediaFormat;
  content_type: string;
  width?: number;
  height?: number;
  duration_seconds?: number;
};

/** One fetch as `GET {S}/control/fetches` lists it. */
export type FetchLogEntry = {
  provider: string;
  url: string;
  at: string;
  ok: boolean;
  /** Why the fetch failed: no answer, time-out, an HTTP status, too large. */
  reason?: 'unreachable' | 'timeout' | 'status' | 'too_large';
  status?: number;
  media?: FetchedMedia;
  /** The object the emulator created from it (photo, video, container, local post), once made. */
  object_id?: string;
};

export type LoadedMedia =
  | { ok: true; info: MediaInfo; bytes?: Buffer; fetched?: FetchedMedia; entry?: FetchLogEntry }
  | { ok: false; reason: 'unreachable' | 'timeout' | 'status' | 'too_large'; status?: number };

/**
 * A provider fetching a media URL: over HTTP with the sandbox's time-out, sniffed from the
 * bytes, logged in `rt.fetches`. With `fetchMedia` off, any URL counts as a valid JPEG.
 */
export async function loadMediaUrl(
  rt: {
    settings(): { fetchMedia: boolean; mediaFetchTimeoutMs: number };
    now(): number;
    fetches: { record(e: FetchLogEntry): FetchLogEntry };
  },
  provider: string,
  url: string,
  maxBytes: number,
): Promise<LoadedMedia> {
  if (!rt.settings().fetchMedia) return { ok: true, info: assumedJpeg() };
  const got = await fetchMedia(url, maxBytes, rt.settings().mediaFetchTimeoutMs);
  const at = new Date(rt.now()).toISOString();
  if (!got.ok) {
    rt.fetches.record({
      provider,
      url,
      at,
      ok: false,
      reason: got.reason,
      ...(got.status ? { status: got.status } : {}),
    });
    return got;
  }
  const info = probeMedia(got.bytes);
  const fetched: FetchedMedia = {
    url,
    bytes: info.bytes,
    mime: mimeOf(info.format),
    format: info.format,
    content_type: got.contentType,
    ...(info.width !== undefined ? { width: info.width, height: info.height } : {}),
    ...(info.durationSeconds !== undefined ? { duration_seconds: info.durationSeconds } : {}),
  };
  const entry = rt.fetches.record({ provider, url, at, ok: true, media: fetched });
  return { ok: true, info, bytes: got.bytes, fetched, entry };
}

export type Fetched =
  | { ok: true; bytes: Buffer; contentType: string }
  | { ok: false; reason: 'unreachable' | 'timeout' | 'status' | 'too_large'; status?: number };

/**
 * Fetches a media URL as the provider's crawler would (they never read our disk: the file must
 * be on a reachable URL). Bounded in time and size.
 */
export async function fetchMedia(
  url: string,
  maxBytes = 600 * 1024 * 1024,
  timeoutMs = 5000,
): Promise<Fetched> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  try {
    const res = await fetch(url, { signal: ctrl.signal, redirect: 'follow' });
    if (!res.ok) return { ok: false, reason: 'status', status: res.status };
    const len = Number(res.headers.get('content-length') ?? '0');
    if (len > maxBytes) return { ok: false, reason: 'too_large' };
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > maxBytes) return { ok: false, reason: 'too_large' };
    return { ok: true, bytes, contentType: res.headers.get('content-type') ?? '' };
  } catch (e) {
    return {
      ok: false,
      reason: ctrl.signal.aborted || (e as Error).name === 'AbortError' ? 'timeout' : 'unreachable',
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A stand-in when media fetching is switched off: a 1080×1080 JPEG of plausible size, so
 * validation that needs a file still has one.
 */
export const assumedJpeg = (): MediaInfo => ({
  format: 'jpeg',
  bytes: 250_000,
  width: 1080,
  height: 1080,
});
