import { BMP } from 'image-size/types/bmp';
import { GIF } from 'image-size/types/gif';
import { PNG } from 'image-size/types/png';
import { WEBP } from 'image-size/types/webp';
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

/**
 * image-size's reading of one format's header (the handler of the format `detectFormat` found, so
 * it never guesses another); null when the header is cut short or invalid. image-size reads
 * through a DataView on the input's ArrayBuffer, past the end of a short Buffer (into Node's
 * pool) without a throw: it is handed a copy of its own, which ends where the bytes end. The
 * BMP, GIF, PNG and WebP sizes all lie in the first 30 bytes.
 */
function headerSize(handler: typeof BMP, b: Buffer): { width: number; height: number } | null {
  const own = new Uint8Array(b.subarray(0, 64));
  try {
    if (!handler.validate(own)) return null;
    const { width, height } = handler.calculate(own);
    return { width, height };
  } catch {
    return null;
  }
}

/**
 * BMP: an info header (40 bytes or more, a negative height is top-down) through image-size; the
 * OS/2 BITMAPCOREHEADER (12 bytes, 16-bit sizes) by hand, as image-size reads it as an info header.
 */
function measureBmp(b: Buffer): Measured | null {
  if (b.length < 26) return null;
  const header = b.readUInt32LE(14);
  if (header === 12) return { width: b.readUInt16LE(18), height: b.readUInt16LE(20) };
  return header < 40 ? null : headerSize(BMP, b);
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

/**
 * Bytes of a file's start kept to measure it: a file no longer than this is measured whole, as it
 * always was; a longer one from these bytes (JPEG and PNG headers, the GIF screen, BMP) or from
 * the few regions its format points at (MP4/MOV/HEIC/AVIF boxes, the TIFF directory).
 */
export const PROBE_HEAD_BYTES = 256 * 1024;
/** The ISO boxes kept to measure a file (ftyp, moov, meta); a file needing more is unreadable. */
const PROBE_BOX_BYTES = 4 * 1024 * 1024;
const KEPT_BOXES = new Set(['ftyp', 'moov', 'meta']);

/**
 * Measures a file as its bytes pass, holding a bounded part of it (issue 22: a 20 MB upload was
 * held whole, and read back whole to be measured): the first `PROBE_HEAD_BYTES`, the top-level
 * ISO boxes that hold the sizes (at most `PROBE_BOX_BYTES`), and the TIFF directory. Feed it
 * with `push` (in order), then ask `result` once.
 */
export class MediaProbe {
  private readonly headParts: Buffer[] = [];
  private headLength = 0;
  /** Bytes seen so far. */
  total = 0;
  private over = false;
  private readonly max: number;
  // ISO base media: the next top-level box header and the box being kept.
  private isoNext = 0;
  private isoHeader: Buffer | null = Buffer.alloc(0);
  private isoKeep: { buf: Buffer; filled: number } | null = null;
  private readonly isoKept: Buffer[] = [];
  private isoKeptBytes = 0;
  private isoBroken = false;
  // TIFF: the regions wanted (the directory's count, then its entries).
  private readonly wants: { at: number; buf: Buffer; filled: number; then: (b: Buffer) => void }[] =
    [];
  private tiff: { le: boolean; entries: Buffer | null } | null = null;

  constructor(options: InspectOptions = {}) {
    this.max = options.maxBytes ?? UPLOAD_MAX_BYTES;
  }

  /** True once the bytes went past the cap: the caller may stop reading. */
  get overCap(): boolean {
    return this.over;
  }

  push(input: Uint8Array): void {
    const chunk = Buffer.isBuffer(input) ? input : Buffer.from(input);
    if (this.over || chunk.length === 0) return;
    const at = this.total;
    this.total += chunk.length;
    if (this.total > this.max) this.over = true;
    if (this.headLength < PROBE_HEAD_BYTES) {
      const part = chunk.subarray(0, PROBE_HEAD_BYTES - this.headLength);
      // A copy: the caller's buffer may be reused once it has been written on.
      this.headParts.push(Buffer.from(part));
      this.headLength += part.length;
    }
    const family = this.headLength >= 16 || at > 0 ? this.familyNow() : null;
    if (family === 'iso') this.isoFeed(chunk, at);
    if (family === 'tiff') this.tiffFeed(chunk, at);
  }

  private detected: DetectedFormat | null | undefined;
  private familyNow(): 'iso' | 'tiff' | 'other' {
    if (this.detected === undefined && this.headLength >= 64)
      this.detected = detectFormat(this.head());
    const f = this.detected ?? detectFormat(this.head());
    if (!f) return 'other';
    if (['mp4', 'mov', 'heic', 'avif'].includes(f.ext)) return 'iso';
    if (f.ext === 'tiff') return 'tiff';
    return 'other';
  }

  private headCache: Buffer | null = null;
  private head(): Buffer {
    if (!this.headCache || this.headCache.length !== this.headLength) {
      this.headCache = Buffer.concat(this.headParts, this.headLength);
      this.headParts.splice(0, this.headParts.length, this.headCache);
    }
    return this.headCache;
  }

  /** Walks the top-level boxes as they pass, keeping ftyp, moov and meta whole. */
  private isoFeed(chunk: Buffer, chunkStart: number): void {
    let i = 0;
    // The first push may come before the format was known: start from the head instead.
    if (this.isoHeader !== null && this.isoNext === 0 && chunkStart > 0 && !this.isoStarted) {
      this.isoStarted = true;
      this.isoFeed(this.head().subarray(0, chunkStart), 0);
    }
    this.isoStarted = true;
    while (i < chunk.length && !this.isoBroken) {
      const abs = chunkStart + i;
      if (this.isoKeep) {
        const k = this.isoKeep;
        const n = Math.min(k.buf.length - k.filled, chunk.length - i);
        chunk.copy(k.buf, k.filled, i, i + n);
        k.filled += n;
        i += n;
        if (k.filled === k.buf.length) {
          this.isoKept.push(k.buf);
          this.isoKeep = null;
        }
        continue;
      }
      if (abs < this.isoNext) {
        i += Math.min(this.isoNext - abs, chunk.length - i);
        continue;
      }
      if (this.isoHeader === null) return; // a box runs to the end of the file
      const header: Buffer = this.isoHeader;
      const want = header.length >= 8 && header.readUInt32BE(0) === 1 ? 16 : 8;
      const n = Math.min(want - header.length, chunk.length - i);
      this.isoHeader = Buffer.concat([header, chunk.subarray(i, i + n)]);
      i += n;
      if (this.isoHeader.length < want) continue;
      const h = this.isoHeader;
      let size = h.readUInt32BE(0);
      if (size === 1 && h.length < 16) continue; // read the 64-bit size first
      if (size === 1) size = Number(h.readBigUInt64BE(8));
      const type = ascii(h, 4);
      const boxStart = this.isoNext;
      this.isoHeader = Buffer.alloc(0);
      if (size === 0) {
        // To the end of the file: kept only if it is one of ours, up to the cap.
        if (KEPT_BOXES.has(type)) this.isoBroken = true;
        this.isoHeader = null;
        return;
      }
      if (size < h.length) {
        this.isoBroken = true;
        return;
      }
      this.isoNext = boxStart + size;
      if (!KEPT_BOXES.has(type)) continue;
      if (this.isoKeptBytes + size > PROBE_BOX_BYTES) {
        this.isoBroken = true;
        return;
      }
      this.isoKeptBytes += size;
      const buf = Buffer.alloc(size);
      h.copy(buf, 0);
      this.isoKeep = { buf, filled: h.length };
      if (h.length === size) {
        this.isoKept.push(buf);
        this.isoKeep = null;
      }
    }
  }
  private isoStarted = false;

  /** Finds the first directory (IFD0): its count, then its entries, wherever they are. */
  private tiffFeed(chunk: Buffer, chunkStart: number): void {
    if (!this.tiff && this.headLength >= 8) {
      const head = this.head();
      const le = ascii(head, 0, 2) === 'II';
      this.tiff = { le, entries: null };
      const ifd = le ? head.readUInt32LE(4) : head.readUInt32BE(4);
      this.want(ifd, 2, (count) => {
        const n = Math.min(le ? count.readUInt16LE(0) : count.readUInt16BE(0), 4096);
        this.want(ifd + 2, n * 12, (entries) => {
          if (this.tiff) this.tiff.entries = entries;
        });
      });
    }
    this.fed = chunkStart;
    this.fillWants(chunk, chunkStart);
    this.fed = chunkStart + chunk.length;
  }
  /** Where the chunk being read starts: a region wanted from there on can still be had. */
  private fed = 0;

  private want(at: number, length: number, then: (b: Buffer) => void): void {
    const w = { at, buf: Buffer.alloc(length), filled: 0, then };
    const head = this.head();
    // Already passed: only what the head kept can be had.
    if (at < head.length) {
      const n = head.copy(w.buf, 0, at, Math.min(head.length, at + length));
      w.filled = n;
    }
    if (w.filled === length) then(w.buf);
    else if (at + w.filled >= this.fed) this.wants.push(w);
    // else: the region went by unkept; the file stays unmeasured (unreadable).
  }

  private fillWants(chunk: Buffer, chunkStart: number): void {
    for (let k = 0; k < this.wants.length; k++) {
      const w = this.wants[k];
      if (!w) continue;
      const from = w.at + w.filled;
      const chunkEnd = chunkStart + chunk.length;
      if (from < chunkStart || from >= chunkEnd) continue;
      const n = chunk.copy(
        w.buf,
        w.filled,
        from - chunkStart,
        Math.min(chunk.length, from - chunkStart + w.buf.length - w.filled),
      );
      w.filled += n;
      if (w.filled === w.buf.length) {
        this.wants.splice(k, 1);
        k -= 1;
        w.then(w.buf); // may want more, possibly within this chunk: looped over below
      }
    }
  }

  private tiffSize(): Measured | null {
    const t = this.tiff;
    if (!t?.entries) return null;
    const e = t.entries;
    const u16 = (at: number) => (t.le ? e.readUInt16LE(at) : e.readUInt16BE(at));
    const u32 = (at: number) => (t.le ? e.readUInt32LE(at) : e.readUInt32BE(at));
    let width = 0;
    let height = 0;
    let orientation = 1;
    for (let at = 0; at + 12 <= e.length; at += 12) {
      const tag = u16(at);
      const type = u16(at + 2);
      const value = type === 3 ? u16(at + 8) : type === 4 ? u32(at + 8) : 0;
      if (tag === 256) width = value;
      else if (tag === 257) height = value;
      else if (tag === 274) orientation = value;
    }
    return width && height ? turned(width, height, orientation >= 5 ? 1 : 0) : null;
  }

  /** The file's format and measures, as `inspectMedia` reports them. */
  async result(declaredName: string): Promise<Inspection> {
    const head = this.head();
    const format = detectFormat(head.subarray(0, 64));
    if (this.over) {
      // The spec's 20 MB lines (uploads and videos alike are capped at 20 MB, VIDEO_MAX_BYTES);
      // a narrower cap has no figure to name.
      if (this.max !== UPLOAD_MAX_BYTES) return fail('too_large', ja.fileTooLarge);
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

    const whole = this.total <= head.length;
    const size = whole ? await measure(format, head) : await this.measurePart(format, head);
    if (!size || size.width <= 0 || size.height <= 0) return fail('unreadable', ja.mediaUnreadable);
    const meta: MediaMeta = {
      name: declaredName,
      ext: format.ext,
      bytes: this.total,
      width: size.width,
      height: size.height,
      kind: format.kind,
      ...(size.durationSec !== undefined ? { durationSec: size.durationSec } : {}),
    };
    return { ok: true, meta, contentType: format.contentType };
  }

  /** A file longer than the head, from the parts kept of it. */
  private async measurePart(f: DetectedFormat, head: Buffer): Promise<Measured | null> {
    try {
      switch (f.ext) {
        case 'mp4':
        case 'mov':
        case 'heic':
        case 'avif': {
          if (this.isoBroken || this.isoKeep) return null;
          const boxes = Buffer.concat(this.isoKept);
          return f.kind === 'video' ? measureVideo(boxes) : measureHeic(boxes);
        }
        case 'tiff':
          return this.tiffSize();
        case 'gif':
          // The logical screen, as libvips reports a GIF's size.
          return headerSize(GIF, head);
        default:
          // JPEG and PNG: their headers (and EXIF orientation) come first; BMP's header too.
          return await measureAs(f, head);
      }
    } catch {
      return null;
    }
  }
}

const fail = (reason: InspectFailure, message: string): Inspection => ({
  ok: false,
  reason,
  message,
});

/**
 * Measures one uploaded file from its bytes alone (issue 9: never from the extension or the
 * browser's word). Images: sharp's metadata (JPEG, PNG, GIF, TIFF, AVIF), image-size for BMP
 * (ADR 0081), the ftyp/ispe boxes for HEIC; videos (MP4, MOV): ftyp, moov/mvhd for the duration and the
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
  const probe = new MediaProbe(options);
  if (input instanceof Uint8Array) probe.push(input);
  else {
    const it = input[Symbol.asyncIterator]();
    try {
      for (let next = await it.next(); !next.done; next = await it.next()) {
        probe.push(next.value);
        if (probe.overCap) break;
      }
    } finally {
      // A stream left early (past the cap) is closed, not left open.
      await it.return?.();
    }
  }
  return probe.result(declaredName);
}

/** The image fields' formats whose size image-size reads from their first bytes. */
const DECLARING = { png: PNG, gif: GIF, webp: WEBP } as const;

/**
 * The size an image declares in its first bytes (PNG's IHDR, the GIF screen, WebP's VP8X, VP8 or
 * VP8L header through image-size; JPEG's frame through sharp), without decoding a pixel; null when
 * the bytes give none. Image fields (logos, favicons) bound it (issue 22); `head` is at most the
 * probe's head.
 */
export async function declaredImageSize(
  head: Buffer,
): Promise<{ width: number; height: number } | null> {
  const f = detectFormat(head.subarray(0, 64));
  if (f?.ext === 'jpeg') {
    try {
      const m = await sharp(head).metadata();
      return m.width && m.height ? { width: m.width, height: m.height } : null;
    } catch {
      return null;
    }
  }
  const handler = f && f.ext in DECLARING ? DECLARING[f.ext as keyof typeof DECLARING] : null;
  return handler ? headerSize(handler, head) : null;
}
