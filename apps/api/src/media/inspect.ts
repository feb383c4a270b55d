import sharp from 'sharp';
import {
  canonicalExt,
  extOf,
  ja,
  UPLOAD_MAX_BYTES,
  type MediaKind,
  type MediaMeta,
} from '@tenpo/domain';

/**
 * What a file's bytes say it is, whatever its name or the browser's content type claimed.
 * `ext` is the canonical name of the format (jpeg, png, gif, bmp, tiff, heic, avif, webp, mp4,
 * mov), as `checkMedia` of packages/domain reads it.
 */
export type DetectedFormat = {
  ext: string;
  kind: Exclude<MediaKind, 'unknown'>;
  contentType: string;
};

export type InspectFailure = 'unreadable' | 'mismatch' | 'unsupported' | 'too_large';

/** The outcome of `inspectMedia`: the file's measures, or a refusal with its Japanese line. */
export type Inspection =
  | { ok: true; meta: MediaMeta; contentType: string }
  | { ok: false; reason: InspectFailure; message: string };

export type InspectOptions = {
  /**
   * Bytes read at most before the file is refused (default: the 20 MB upload cap, refused with
   * the spec's 20 MB lines; a narrower cap is refused with the generic too-large line).
   */
  maxBytes?: number;
};

const FORMATS = {
  jpeg: { ext: 'jpeg', kind: 'image', contentType: 'image/jpeg' },
  png: { ext: 'png', kind: 'image', contentType: 'image/png' },
  gif: { ext: 'gif', kind: 'image', contentType: 'image/gif' },
  bmp: { ext: 'bmp', kind: 'image', contentType: 'image/bmp' },
  tiff: { ext: 'tiff', kind: 'image', contentType: 'image/tiff' },
  webp: { ext: 'webp', kind: 'image', contentType: 'image/webp' },
  heic: { ext: 'heic', kind: 'image', contentType: 'image/heic' },
  avif: { ext: 'avif', kind: 'image', contentType: 'image/avif' },
  mp4: { ext: 'mp4', kind: 'video', contentType: 'video/mp4' },
  mov: { ext: 'mov', kind: 'video', contentType: 'video/quicktime' },
} as const satisfies Record<string, DetectedFormat>;

/**
 * Names that are one format to us. MP4 and MOV are both ISO base media files read the same way,
 * so a .mov holding an MP4 (or the reverse) is taken, under the name its bytes give.
 */
const FAMILY: Readonly<Record<string, string>> = {
  jpeg: 'jpeg',
  jpe: 'jpeg',
  png: 'png',
  gif: 'gif',
  bmp: 'bmp',
  dib: 'bmp',
  tiff: 'tiff',
  webp: 'webp',
  heic: 'heic',
  avif: 'avif',
  mp4: 'isobmff',
  m4v: 'isobmff',
  mov: 'isobmff',
  qt: 'isobmff',
};
const familyOf = (ext: string): string | undefined => FAMILY[canonicalExt(ext)];

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIF_GENERIC = new Set(['mif1', 'msf1']);
const QT_FIRST_BOXES = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

const ascii = (b: Buffer, at: number, n = 4): string => b.toString('latin1', at, at + n);

/** The format of a file's first bytes (32 are enough), or null for none we read. */
export function detectFormat(head: Buffer): DetectedFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
    return FORMATS.jpeg;
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return FORMATS.png;
  if (ascii(head, 0, 4) === 'GIF8') return FORMATS.gif;
  if (ascii(head, 0, 2) === 'BM' && head.length >= 26) return FORMATS.bmp;
  const t = ascii(head, 0, 4);
  if (t === 'II*\0' || t === 'MM\0*') return FORMATS.tiff;
  if (t === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return FORMATS.webp;
  if (head.length >= 12 && ascii(head, 4) === 'ftyp') {
    const size = head.readUInt32BE(0);
    const brands = [ascii(head, 8)];
    for (let at = 16; at + 4 <= Math.min(size, head.length); at += 4) brands.push(ascii(head, at));
    if (brands.some((b) => AVIF_BRANDS.has(b))) return FORMATS.avif;
    if (brands.some((b) => HEIC_BRANDS.has(b))) return FORMATS.heic;
    if (brands.some((b) => HEIF_GENERIC.has(b))) return FORMATS.heic;
    return brands[0] === 'qt  ' ? FORMATS.mov : FORMATS.mp4;
  }
  // Old QuickTime files carry no ftyp: their first box is the movie or its data.
  if (head.length >= 8 && QT_FIRST_BOXES.has(ascii(head, 4))) return FORMATS.mov;
  return null;
}

/** One ISO BMFF box: its type, and where its payload starts and ends. */
type Box = { type: string; start: number; end: number };

function* boxes(b: Buffer, from: number, to: number): Generator<Box> {
  let at = from;
  while (at + 8 <= to) {
    let size = b.readUInt32BE(at);
    const type = ascii(b, at + 4);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return;
      size = Number(b.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) return;
    yield { type, start: at + header, end: at + size };
    at += size;
  }
}

const child = (b: Buffer, box: Box, type: string, skip = 0): Box | undefined => {
  for (const c of boxes(b, box.start + skip, box.end)) if (c.type === type) return c;
  return undefined;
};

/** A display size from a width, a height and a rotation in quarter turns. */
const turned = (w: number, h: number, quarterTurns: number) =>
  quarterTurns % 2 === 1 ? { width: h, height: w } : { width: w, height: h };

type Measured = { width: number; height: number; durationSec?: number };

/**
 * MP4/MOV: the duration from moov/mvhd (duration ÷ timescale), the picture size from the video
 * track's tkhd (16.16 fixed point), turned by its matrix when the track is rotated, as a player
 * (and the browser's video element) shows it.
 */
function measureVideo(b: Buffer): Measured | null {
  const root: Box = { type: '', start: 0, end: b.length };
  const moov = child(b, root, 'moov');
  if (!moov) return null;
  const mvhd = child(b, moov, 'mvhd');
  if (!mvhd || mvhd.end - mvhd.start < 20) return null;
  const v1 = b[mvhd.start] === 1;
  const timescale = b.readUInt32BE(mvhd.start + (v1 ? 20 : 12));
  const duration = v1
    ? Number(b.readBigUInt64BE(mvhd.start + 24))
    : b.readUInt32BE(mvhd.start + 16);
  if (timescale === 0) return null;

  let picked: Measured | null = null;
  for (const trak of boxes(b, moov.start, moov.end)) {
    if (trak.type !== 'trak') continue;
    const tkhd = child(b, trak, 'tkhd');
    if (!tkhd) continue;
    const tv1 = b[tkhd.start] === 1;
    // version/flags 4, times 8|16, track id 4, reserved 4, duration 4|8, reserved 8, layer 2,
    // group 2, volume 2, reserved 2, matrix 36, then width and height.
    const matrixAt = tkhd.start + (tv1 ? 52 : 40);
    const sizeAt = matrixAt + 36;
    if (sizeAt + 8 > tkhd.end) continue;
    const w = b.readUInt32BE(sizeAt) / 65536;
    const h = b.readUInt32BE(sizeAt + 4) / 65536;
    // Matrix a (16.16) is 0 when the picture is turned a quarter.
    const quarter = b.readInt32BE(matrixAt) === 0 ? 1 : 0;
    const mdia = child(b, trak, 'mdia');
    const hdlr = mdia && child(b, mdia, 'hdlr');
    const handler = hdlr ? ascii(b, hdlr.start + 8) : null;
    const size = turned(Math.round(w), Math.round(h), quarter);
    if (handler === 'vide') return { ...size, durationSec: duration / timescale };
    if (handler === null && w > 0 && h > 0 && !picked)
      picked = { ...size, durationSec: duration / timescale };
  }
  return picked;
}

/**
 * HEIC: the prebuilt libvips cannot decode HEVC, so the size is read from the boxes: meta/pitm
 * names the primary item, meta/iprp/ipma links it to its properties in ipco, among them ispe
 * (width, height) and irot (rotation). Without a usable link the largest ispe is taken.
 */
function measureHeic(b: Buffer): Measured | null {
  const root: Box = { type: '', start: 0, end: b.length };
  const meta = child(b, root, 'meta');
  if (!meta) return null;
  const FULL = 4; // meta is a full box: version and flags before its children.
  const pitm = child(b, meta, 'pitm', FULL);
  const primary = pitm
    ? b[pitm.start] === 0
      ? b.readUInt16BE(pitm.start + 4)
      : b.readUInt32BE(pitm.start + 4)
    : null;
  const iprp = child(b, meta, 'iprp', FULL);
  const ipco = iprp && child(b, iprp, 'ipco');
  if (!iprp || !ipco) return null;
  const props = [...boxes(b, ipco.start, ipco.end)];
  const ispeOf = (p: Box) =>
    p.end - p.start >= 12
      ? { width: b.readUInt32BE(p.start + 4), height: b.readUInt32BE(p.start + 8) }
      : null;

  const ipma = child(b, iprp, 'ipma');
  if (ipma && primary !== null) {
    const version = b[ipma.start] ?? 0;
    const wideIndex = ((b[ipma.start + 3] ?? 0) & 1) === 1;
    let at = ipma.start + 4;
    const count = b.readUInt32BE(at);
    at += 4;
    for (let i = 0; i < count && at < ipma.end; i++) {
      const item = version < 1 ? b.readUInt16BE(at) : b.readUInt32BE(at);
      at += version < 1 ? 2 : 4;
      const n = b[at] ?? 0;
      at += 1;
      const indices: number[] = [];
      for (let j = 0; j < n; j++) {
        indices.push(wideIndex ? b.readUInt16BE(at) & 0x7fff : (b[at] ?? 0) & 0x7f);
        at += wideIndex ? 2 : 1;
      }
      if (item !== primary) continue;
      let size: { width: number; height: number } | null = null;
      let quarter = 0;
      for (const idx of indices) {
        const p = props[idx - 1]; // 1-based; 0 means none
        if (p?.type === 'ispe') size = ispeOf(p);
        if (p?.type === 'irot') quarter = (b[p.start] ?? 0) & 3;
      }
      if (size) return turned(size.width, size.height, quarter);
    }
  }
  let best: { width: number; height: number } | null = null;
  for (const p of props) {
    const s = p.type === 'ispe' ? ispeOf(p) : null;
    if (s && (!best || s.width * s.height > best.width * best.height)) best = s;
  }
  return best;
}

/** BMP: BITMAPCOREHEADER (12 bytes) or any later info header; a negative height is top-down. */
function measureBmp(b: Buffer): Measured | null {
  if (b.length < 26) return null;
  const headerSize = b.readUInt32LE(14);
  if (headerSize === 12) return { width: b.readUInt16LE(18), height: b.readUInt16LE(20) };
  if (headerSize < 40) return null;
  return { width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) };
}

/** JPEG, PNG, GIF, TIFF, AVIF through sharp; EXIF orientations 5–8 turn the picture a quarter. */
async function measureWithSharp(b: Buffer): Promise<Measured | null> {
  try {
    const m = await sharp(b).metadata();
    if (!m.width || !m.height) return null;
    return turned(m.width, m.height, (m.orientation ?? 1) >= 5 ? 1 : 0);
  } catch {
    return null;
  }
}

/** The file's size (and duration); null when its boxes or header are cut short or broken. */
async function measure(f: DetectedFormat, b: Buffer): Promise<Measured | null> {
  try {
    return await measureAs(f, b);
  } catch {
    // A length field pointing past the end makes a read throw: the file is broken.
    return null;
  }
}

async function measureAs(f: DetectedFormat, b: Buffer): Promise<Measured | null> {
  switch (f.ext) {
    case 'mp4':
    case 'mov':
      return measureVideo(b);
    case 'heic':
      return measureHeic(b);
    case 'bmp':
      return measureBmp(b);
    default:
      return measureWithSharp(b);
  }
}

type Input = Buffer | Uint8Array | AsyncIterable<Uint8Array>;

/** Reads the input whole, stopping one byte past `max`; null when it goes past. */
async function readAll(input: Input, max: number): Promise<{ buf: Buffer; over: boolean }> {
  if (input instanceof Uint8Array) {
    const buf = Buffer.isBuffer(input) ? input : Buffer.from(input);
    return { buf, over: buf.length > max };
  }
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of input) {
    chunks.push(Buffer.from(c));
    n += c.length;
    if (n > max) return { buf: Buffer.concat(chunks), over: true };
  }
  return { buf: Buffer.concat(chunks), over: false };
}

const fail = (reason: InspectFailure, message: string): Inspection => ({
  ok: false,
  reason,
  message,
});

/**
 * Measures one uploaded file from its bytes alone (issue 9: never from the extension or the
 * browser's word). Images: sharp's metadata (JPEG, PNG, GIF, TIFF, AVIF), the header for BMP,
 * the ftyp/ispe boxes for HEIC; videos (MP4, MOV): ftyp, moov/mvhd for the duration and the
 * video track's tkhd for the size.
 *
 * Refused, with a Japanese line for the 422: a file over the 20 MB cap (the video message for
 * a video), bytes in no format we read (`unreadable`), bytes of another format than the name's
 * extension (`mismatch`: a PNG named .jpg is refused, not re-typed; jpg/jpeg, tif/tiff,
 * heic/heif and mp4/mov are one format each), WebP (`unsupported`, spec 2 §5). A name without an
 * extension takes the bytes' format. Per-channel rules are not applied here: pass `meta` to
 * `checkMedia` / `checkPost`.
 *
 * `input` is the whole file or a stream of it (a multipart part); a stream is read until the cap.
 */
export async function inspectMedia(
  input: Input,
  declaredName: string,
  options: InspectOptions = {},
): Promise<Inspection> {
  const max = options.maxBytes ?? UPLOAD_MAX_BYTES;
  const { buf, over } = await readAll(input, max);
  const format = detectFormat(buf.subarray(0, 64));
  if (over) {
    // The spec's 20 MB lines (uploads and videos alike are capped at 20 MB, VIDEO_MAX_BYTES);
    // a narrower cap has no figure to name.
    const capped = max === UPLOAD_MAX_BYTES;
    if (!capped) return fail('too_large', ja.fileTooLarge);
    return fail(
      'too_large',
      format?.kind === 'video' ? ja.mediaVideoOver20Mb : ja.mediaUploadOver20Mb,
    );
  }
  if (!format) return fail('unreadable', ja.mediaUnreadable);

  const declared = extOf(declaredName);
  if (declared !== '' && familyOf(declared) !== familyOf(format.ext))
    return fail('mismatch', ja.mediaExtensionMismatch(declared, format.ext.toUpperCase()));
  if (format.ext === 'webp') return fail('unsupported', ja.mediaWebpUnsupported);

  const size = await measure(format, buf);
  if (!size || size.width <= 0 || size.height <= 0) return fail('unreadable', ja.mediaUnreadable);
  const meta: MediaMeta = {
    name: declaredName,
    ext: format.ext,
    bytes: buf.length,
    width: size.width,
    height: size.height,
    kind: format.kind,
    ...(size.durationSec !== undefined ? { durationSec: size.durationSec } : {}),
  };
  return { ok: true, meta, contentType: format.contentType };
}
