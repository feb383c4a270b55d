import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkMedia, ja, type PublisherKey } from '@tenpo/domain';
import {
  declaredImageSize,
  detectFormat,
  inspectMedia,
  PROBE_HEAD_BYTES,
  type Inspection,
} from './inspect';

// Every file below is made in the test: images with sharp, BMP, HEIC, MP4 and MOV byte by byte.

const MB = 1024 * 1024;

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const box = (type: string, ...parts: Buffer[]) => {
  const payload = Buffer.concat(parts);
  return Buffer.concat([u32(8 + payload.length), Buffer.from(type, 'latin1'), payload]);
};
/** A box with a 64-bit size (size field 1), as large mdat boxes are written. */
const largeBox = (type: string, payload: Buffer) =>
  Buffer.concat([u32(1), Buffer.from(type, 'latin1'), u64(16 + payload.length), payload]);
const full = (version: number, flags = 0) => u32(((version & 0xff) << 24) | flags);
const ftyp = (major: string, ...compatible: string[]) =>
  box('ftyp', Buffer.from(major, 'latin1'), u32(0), ...compatible.map((c) => Buffer.from(c)));

const IDENTITY = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000];
const QUARTER = [0, 0x10000, 0, 0xffff0000, 0, 0, 0, 0, 0x40000000];
const matrix = (m: number[]) => Buffer.concat(m.map(u32));

function mvhd(timescale: number, duration: number, version = 0): Buffer {
  const times =
    version === 1
      ? [u64(0), u64(0), u32(timescale), u64(duration)]
      : [u32(0), u32(0), u32(timescale), u32(duration)];
  return box(
    'mvhd',
    full(version),
    ...times,
    u32(0x10000), // rate
    u16(0x100), // volume
    Buffer.alloc(10),
    matrix(IDENTITY),
    Buffer.alloc(24),
    u32(3), // next track id
  );
}

function tkhd(width: number, height: number, m = IDENTITY, version = 0): Buffer {
  const times =
    version === 1
      ? [u64(0), u64(0), u32(1), u32(0), u64(0)]
      : [u32(0), u32(0), u32(1), u32(0), u32(0)];
  return box(
    'tkhd',
    full(version, 3),
    ...times,
    Buffer.alloc(8),
    u16(0),
    u16(0),
    u16(0),
    u16(0),
    matrix(m),
    u32(width * 65536),
    u32(height * 65536),
  );
}

const hdlr = (handler: string) =>
  box('hdlr', full(0), u32(0), Buffer.from(handler, 'latin1'), Buffer.alloc(12), Buffer.from('\0'));

type Track = { handler?: string; width: number; height: number; matrix?: number[]; v1?: boolean };
const trak = (t: Track) =>
  box(
    'trak',
    tkhd(t.width, t.height, t.matrix, t.v1 ? 1 : 0),
    ...(t.handler ? [box('mdia', hdlr(t.handler))] : []),
  );

type Movie = {
  brand?: string | null;
  timescale?: number;
  duration: number;
  tracks: Track[];
  mvhdVersion?: number;
  /** Bytes of media data; the moov goes after it, as many cameras write it. */
  mdat?: number;
  largeMdat?: boolean;
};
function movie(m: Movie): Buffer {
  const moov = box(
    'moov',
    mvhd(m.timescale ?? 1000, m.duration, m.mvhdVersion),
    ...m.tracks.map(trak),
  );
  const data = Buffer.alloc(m.mdat ?? 16, 0xab);
  const mdat = m.largeMdat ? largeBox('mdat', data) : box('mdat', data);
  const head = m.brand === null ? [] : [ftyp(m.brand ?? 'isom', 'isom', 'mp41')];
  return Buffer.concat([...head, mdat, moov]);
}
const mp4 = (w: number, h: number, seconds: number, extra: Partial<Movie> = {}) =>
  movie({
    duration: Math.round(seconds * 1000),
    tracks: [{ handler: 'vide', width: w, height: h }],
    ...extra,
  });

/** A HEIC header: ftyp and meta with pitm, ipco (ispe, irot, thumbnail ispe) and ipma. */
function heic(opts: {
  width: number;
  height: number;
  rot?: number;
  ipma?: boolean;
  brand?: string;
}) {
  const ispe = (w: number, h: number) => box('ispe', full(0), u32(w), u32(h));
  const props = [
    ispe(opts.width, opts.height),
    box('irot', Buffer.from([opts.rot ?? 0])),
    ispe(320, 240),
  ];
  const ipma = box(
    'ipma',
    full(0),
    u32(2),
    // item 1 (primary): ispe 1 (essential bit off), irot 2 (essential)
    u16(1),
    Buffer.from([2, 0x01, 0x82]),
    // item 2 (thumbnail): ispe 3
    u16(2),
    Buffer.from([1, 0x03]),
  );
  const meta = box(
    'meta',
    full(0),
    hdlr('pict'),
    box('pitm', full(0), u16(1)),
    box('iprp', box('ipco', ...props), ...(opts.ipma === false ? [] : [ipma])),
  );
  return Buffer.concat([
    ftyp(opts.brand ?? 'heic', 'mif1', 'heic'),
    meta,
    box('mdat', Buffer.alloc(32)),
  ]);
}

/** A 24-bit BMP with a BITMAPINFOHEADER; a negative height is a top-down bitmap. */
function bmp(width: number, height: number): Buffer {
  const row = Math.ceil((width * 3) / 4) * 4;
  const pixels = Buffer.alloc(row * Math.abs(height), 0x7f);
  const h = Buffer.alloc(54);
  h.write('BM', 0, 'latin1');
  h.writeUInt32LE(54 + pixels.length, 2);
  h.writeUInt32LE(54, 10);
  h.writeUInt32LE(40, 14);
  h.writeInt32LE(width, 18);
  h.writeInt32LE(height, 22);
  h.writeUInt16LE(1, 26);
  h.writeUInt16LE(24, 28);
  h.writeUInt32LE(pixels.length, 34);
  return Buffer.concat([h, pixels]);
}

const canvas = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });

/** Noise (a fixed sequence) so that a JPEG is not a few hundred bytes: Google wants 10 KB. */
const noisy = (width: number, height: number) => {
  const px = Buffer.alloc(width * height * 3);
  let x = 7;
  for (let i = 0; i < px.length; i++) px[i] = x = (x * 1103515245 + 12345) & 0xff;
  return sharp(px, { raw: { width, height, channels: 3 } });
};

type Img = ReturnType<typeof canvas>;

const ok = (r: Inspection) => {
  if (!r.ok) throw new Error(`refused: ${r.message}`);
  return r;
};

describe('inspectMedia: images through sharp', () => {
  it.each([
    ['jpeg', 'a.jpg', 'image/jpeg', (s: Img) => s.jpeg()],
    ['jpeg', 'a.JPEG', 'image/jpeg', (s: Img) => s.jpeg()],
    ['png', 'a.png', 'image/png', (s: Img) => s.png()],
    ['gif', 'a.gif', 'image/gif', (s: Img) => s.gif()],
    ['tiff', 'a.tiff', 'image/tiff', (s: Img) => s.tiff()],
    ['tiff', 'a.tif', 'image/tiff', (s: Img) => s.tiff({ compression: 'lzw' })],
    ['avif', 'a.avif', 'image/avif', (s: Img) => s.avif()],
  ] as const)('%s named %s', async (ext, name, contentType, encode) => {
    const file = await encode(canvas(640, 480)).toBuffer();
    const r = ok(await inspectMedia(file, name));
    expect(r.contentType).toBe(contentType);
    expect(r.meta).toEqual({
      name,
      ext,
      bytes: file.length,
      width: 640,
      height: 480,
      kind: 'image',
    });
  });

  it('turns a JPEG by its EXIF orientation, as the browser shows it', async () => {
    const file = await canvas(640, 480).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect(ok(await inspectMedia(file, 'p.jpg')).meta).toMatchObject({ width: 480, height: 640 });
  });

  it('refuses WebP (spec 2 §5)', async () => {
    const file = await canvas(64, 64).webp().toBuffer();
    expect(await inspectMedia(file, 'a.webp')).toEqual({
      ok: false,
      reason: 'unsupported',
      message: ja.mediaWebpUnsupported,
    });
  });

  it('refuses a truncated image', async () => {
    const file = await canvas(64, 64).png().toBuffer();
    expect(await inspectMedia(file.subarray(0, 20), 'a.png')).toMatchObject({
      ok: false,
      reason: 'unreadable',
    });
  });
});

describe('inspectMedia: BMP and HEIC from their headers', () => {
  it.each([
    [640, 480, 640, 480],
    [321, -320, 321, 320],
  ])('BMP %ix%i', async (w, h, ew, eh) => {
    const file = bmp(w, h);
    expect(ok(await inspectMedia(file, 'a.bmp')).meta).toEqual({
      name: 'a.bmp',
      ext: 'bmp',
      bytes: file.length,
      width: ew,
      height: eh,
      kind: 'image',
    });
  });

  it('BMP with the 12-byte BITMAPCOREHEADER: 16-bit sizes, which image-size misreads', async () => {
    const h = Buffer.alloc(26 + 300 * 3 * 2);
    h.write('BM', 0, 'latin1');
    h.writeUInt32LE(h.length, 2);
    h.writeUInt32LE(26, 10);
    h.writeUInt32LE(12, 14);
    h.writeUInt16LE(300, 18);
    h.writeUInt16LE(2, 20);
    h.writeUInt16LE(1, 22);
    h.writeUInt16LE(24, 24);
    expect(ok(await inspectMedia(h, 'os2.bmp')).meta).toMatchObject({ width: 300, height: 2 });
  });

  it('BMP with an unknown header size is unreadable', async () => {
    const file = bmp(64, 64);
    file.writeUInt32LE(20, 14);
    expect(await inspectMedia(file, 'a.bmp')).toMatchObject({ ok: false, reason: 'unreadable' });
  });

  it('HEIC: the primary item’s ispe, turned by its irot', async () => {
    const r = ok(await inspectMedia(heic({ width: 4032, height: 3024, rot: 1 }), 'IMG_0001.HEIC'));
    expect(r.contentType).toBe('image/heic');
    expect(r.meta).toMatchObject({ ext: 'heic', kind: 'image', width: 3024, height: 4032 });
    expect(
      ok(await inspectMedia(heic({ width: 4032, height: 3024 }), 'a.heic')).meta,
    ).toMatchObject({ width: 4032, height: 3024 });
  });

  it('HEIC without ipma: the largest ispe', async () => {
    const r = ok(await inspectMedia(heic({ width: 1200, height: 900, ipma: false }), 'a.heif'));
    expect(r.meta).toMatchObject({ width: 1200, height: 900, ext: 'heic' });
  });

  it('knows TIFF in either byte order', () => {
    expect(detectFormat(Buffer.from('MM\0*\0\0\0\x08', 'latin1'))?.ext).toBe('tiff');
    expect(detectFormat(Buffer.from('II*\0\x08\0\0\0', 'latin1'))?.ext).toBe('tiff');
  });

  it('HEIC with the generic mif1 brand first', async () => {
    expect(detectFormat(ftyp('mif1', 'heic'))?.ext).toBe('heic');
    expect(detectFormat(ftyp('mif1', 'avif'))?.ext).toBe('avif');
  });
});

describe('inspectMedia: MP4 and MOV from their boxes', () => {
  it('MP4: mvhd duration ÷ timescale, the video track’s tkhd size', async () => {
    const file = mp4(1280, 720, 12.5);
    const r = ok(await inspectMedia(file, 'clip.mp4'));
    expect(r.contentType).toBe('video/mp4');
    expect(r.meta).toEqual({
      name: 'clip.mp4',
      ext: 'mp4',
      bytes: file.length,
      width: 1280,
      height: 720,
      durationSec: 12.5,
      kind: 'video',
    });
  });

  it('MOV (ftyp qt) with the sound track first and a rotated video track', async () => {
    const file = movie({
      brand: 'qt  ',
      timescale: 600,
      duration: 600 * 30,
      tracks: [
        { handler: 'soun', width: 0, height: 0 },
        { handler: 'vide', width: 1920, height: 1080, matrix: QUARTER },
      ],
    });
    const r = ok(await inspectMedia(file, 'IMG_0002.MOV'));
    expect(r.contentType).toBe('video/quicktime');
    expect(r.meta).toMatchObject({ ext: 'mov', width: 1080, height: 1920, durationSec: 30 });
  });

  it('version 1 mvhd and tkhd, a 64-bit mdat before the moov', async () => {
    const file = movie({
      duration: 90_000 * 140,
      timescale: 90_000,
      mvhdVersion: 1,
      largeMdat: true,
      tracks: [{ handler: 'vide', width: 1920, height: 1200, v1: true }],
    });
    expect(ok(await inspectMedia(file, 'a.mp4')).meta).toMatchObject({
      width: 1920,
      height: 1200,
      durationSec: 140,
    });
  });

  it('an old QuickTime file without ftyp, tracks without hdlr', async () => {
    const file = movie({ brand: null, duration: 500, tracks: [{ width: 32, height: 32 }] });
    expect(ok(await inspectMedia(file, 'old.mov')).meta).toMatchObject({
      ext: 'mov',
      width: 32,
      height: 32,
      durationSec: 0.5,
    });
  });

  it('refuses a video without moov', async () => {
    const file = Buffer.concat([ftyp('isom', 'mp41'), box('mdat', Buffer.alloc(64))]);
    expect(await inspectMedia(file, 'a.mp4')).toEqual({
      ok: false,
      reason: 'unreadable',
      message: ja.mediaUnreadable,
    });
  });

  it('refuses broken boxes rather than throwing', async () => {
    const ipma = heic({ width: 100, height: 100 });
    // Claim a huge ipma entry count: the parser runs off the end of the box.
    const at = ipma.indexOf('ipma', 0, 'latin1') + 8;
    ipma.writeUInt32BE(0xffff, at);
    expect((await inspectMedia(ipma, 'a.heic')).ok).toBe(true); // falls back on the largest ispe
    const file = mp4(1280, 720, 3);
    for (let cut = 40; cut < file.length; cut += 7) {
      const r = await inspectMedia(file.subarray(0, cut), 'a.mp4');
      if (!r.ok) expect(r.reason).toBe('unreadable');
    }
    const hd = heic({ width: 100, height: 100 });
    const pitm = hd.indexOf('pitm', 0, 'latin1');
    hd.writeUInt32BE(4, pitm - 4); // a box shorter than its own header: the meta stops there
    expect(await inspectMedia(hd, 'a.heic')).toMatchObject({ ok: false, reason: 'unreadable' });
    // An ipma that ends the file while its entries run on past the last byte.
    const tail = Buffer.concat([
      ftyp('heic', 'mif1'),
      box(
        'meta',
        full(0),
        box('pitm', full(0), u16(1)),
        box('iprp', box('ipco'), box('ipma', full(0, 1), u32(1), u16(1), Buffer.from([40]))),
      ),
    ]);
    expect(await inspectMedia(tail, 'a.heic')).toMatchObject({ ok: false, reason: 'unreadable' });
  });

  it('reads a stream (a multipart part) as well as a buffer', async () => {
    const file = mp4(1280, 720, 3);
    const chunks = [file.subarray(0, 10), file.subarray(10, 50), file.subarray(50)];
    expect(ok(await inspectMedia(Readable.from(chunks), 'a.mp4')).meta).toMatchObject({
      bytes: file.length,
      durationSec: 3,
    });
  });
});

describe('inspectMedia: the bytes decide, not the name', () => {
  it('refuses PNG bytes named .jpg (not re-typed)', async () => {
    const file = await canvas(300, 300).png().toBuffer();
    expect(await inspectMedia(file, 'photo.jpg')).toEqual({
      ok: false,
      reason: 'mismatch',
      message: ja.mediaExtensionMismatch('jpg', 'PNG'),
    });
  });

  it('refuses a video named as an image and an image named as a video', async () => {
    expect(await inspectMedia(mp4(640, 360, 2), 'a.png')).toMatchObject({ reason: 'mismatch' });
    expect(await inspectMedia(heic({ width: 10, height: 10 }), 'a.mp4')).toMatchObject({
      reason: 'mismatch',
    });
  });

  it('takes an MP4 named .mov under its own name, and a name without extension', async () => {
    expect(ok(await inspectMedia(mp4(640, 360, 2), 'a.mov')).meta.ext).toBe('mp4');
    const png = await canvas(10, 10).png().toBuffer();
    expect(ok(await inspectMedia(png, 'blob')).meta.ext).toBe('png');
  });

  it('refuses bytes in no format it reads', async () => {
    expect(await inspectMedia(Buffer.from('%PDF-1.7\n...'), 'a.jpg')).toEqual({
      ok: false,
      reason: 'unreadable',
      message: ja.mediaUnreadable,
    });
    expect(await inspectMedia(Buffer.alloc(0), 'a.jpg')).toMatchObject({ reason: 'unreadable' });
  });
});

describe('inspectMedia: the 20 MB cap', () => {
  const big = (head: Buffer) => Buffer.concat([head, Buffer.alloc(20 * MB + 1 - head.length)]);

  it('refuses a video over 20 MB with the video line, streamed or whole', async () => {
    const head = mp4(1280, 720, 3);
    const want = { ok: false, reason: 'too_large', message: ja.mediaVideoOver20Mb };
    expect(await inspectMedia(big(head), 'a.mp4')).toEqual(want);
    const chunks = (async function* () {
      yield head;
      for (let i = 0; i < 21; i++) yield Buffer.alloc(MB);
    })();
    expect(await inspectMedia(chunks, 'a.mp4')).toEqual(want);
  });

  it('refuses any other file over 20 MB with the upload line', async () => {
    const head = await canvas(10, 10).jpeg().toBuffer();
    expect(await inspectMedia(big(head), 'a.jpg')).toEqual({
      ok: false,
      reason: 'too_large',
      message: ja.mediaUploadOver20Mb,
    });
  });

  it('takes exactly 20 MB', async () => {
    const head = mp4(1280, 720, 3);
    const file = Buffer.concat([head, Buffer.alloc(20 * MB - head.length)]);
    expect(ok(await inspectMedia(file, 'a.mp4')).meta.bytes).toBe(20 * MB);
  });

  it('a narrower cap refuses with the generic line', async () => {
    const file = await canvas(100, 100).png().toBuffer();
    expect(await inspectMedia(file, 'a.png', { maxBytes: 10 })).toEqual({
      ok: false,
      reason: 'too_large',
      message: ja.fileTooLarge,
    });
  });
});

// The server's path end to end: a file made here, measured from its bytes, judged by the
// domain's media table (sizes in bytes are covered edge by edge in packages/domain).
describe('files made in the test against the media table', () => {
  type Row = [string, PublisherKey, () => Promise<Buffer> | Buffer, string, boolean];
  const jpg = (w: number, h: number) => () => noisy(w, h).jpeg({ quality: 90 }).toBuffer();
  const png = (w: number, h: number) => () => canvas(w, h).png().toBuffer();
  const rows: Row[] = [
    ['Google JPEG 250x250', 'google_my_business', jpg(250, 250), 'a.jpg', true],
    ['Google JPEG 249x250', 'google_my_business', jpg(249, 250), 'a.jpg', false],
    [
      'Google HEIC header, under 10 KB',
      'google_my_business',
      () => heic({ width: 4032, height: 3024 }),
      'a.heic',
      false,
    ],
    ['Google GIF', 'google_my_business', () => canvas(300, 300).gif().toBuffer(), 'a.gif', false],
    ['Google MP4', 'google_my_business', () => mp4(1280, 720, 5), 'a.mp4', false],
    ['Facebook BMP 320x320', 'facebook', () => bmp(320, 320), 'a.bmp', true],
    ['Facebook BMP 319x320', 'facebook', () => bmp(319, 320), 'a.bmp', false],
    ['Facebook TIFF 640x480', 'facebook', () => canvas(640, 480).tiff().toBuffer(), 'a.tif', true],
    [
      'Facebook MOV 1920x1080 14400 s',
      'facebook',
      () =>
        movie({
          brand: 'qt  ',
          duration: 14_400_000,
          tracks: [{ handler: 'vide', width: 1920, height: 1080 }],
        }),
      'a.mov',
      true,
    ],
    ['Facebook MP4 1921x1080', 'facebook', () => mp4(1921, 1080, 5), 'a.mp4', false],
    ['Instagram PNG 600x500', 'instagram', png(600, 500), 'a.png', true],
    ['Instagram PNG 1937x500', 'instagram', png(1937, 500), 'a.png', false],
    ['Instagram MP4 720x1280 60 s', 'instagram', () => mp4(720, 1280, 60), 'a.mp4', true],
    ['Instagram MP4 1280x720 61 s', 'instagram', () => mp4(1280, 720, 61), 'a.mp4', false],
    ['Instagram BMP', 'instagram', () => bmp(800, 600), 'a.bmp', false],
    ['X PNG 1200x600', 'twitter', png(1200, 600), 'a.png', true],
    ['X PNG 1200x601', 'twitter', png(1200, 601), 'a.png', false],
    ['X JPEG 1280x720', 'twitter', jpg(1280, 720), 'a.jpeg', true],
    ['X MP4 0.5 s', 'twitter', () => mp4(32, 32, 0.5), 'a.mp4', true],
    ['X MP4 0.4 s', 'twitter', () => mp4(32, 32, 0.4), 'a.mp4', false],
    ['X MP4 1200x1920', 'twitter', () => mp4(1200, 1920, 10), 'a.mp4', true],
    ['X MP4 1200x1921', 'twitter', () => mp4(1200, 1921, 10), 'a.mp4', false],
  ];
  it.each(rows)('%s passes: %s', async (_n, channel, make, name, passes) => {
    const r = ok(await inspectMedia(await make(), name));
    expect(checkMedia(channel, [r.meta]).length === 0).toBe(passes);
  });
});

// Issue 22: a file is measured as it passes, holding its first megabyte and the regions its
// format points at, never the whole file; the figures are those of the whole file.
describe('inspectMedia: files longer than the head, measured as they stream', () => {
  /** The file in pieces of odd sizes (7 bytes first, so the format is known late). */
  const pieces = (file: Buffer, size = 65_521) =>
    (async function* () {
      yield file.subarray(0, 7);
      for (let at = 7; at < file.length; at += size) yield file.subarray(at, at + size);
    })();
  const both = async (file: Buffer, name: string) => {
    const whole = ok(await inspectMedia(file, name));
    expect(whole.meta.bytes).toBeGreaterThan(PROBE_HEAD_BYTES);
    const streamed = ok(await inspectMedia(pieces(file), name));
    const small = ok(await inspectMedia(pieces(file, 3), name));
    expect(streamed).toEqual(whole);
    expect(small).toEqual(whole);
    return whole.meta;
  };

  /** Random pixels: they do not compress, so the file is longer than the head. */
  const random = (width: number, height: number) =>
    sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });
  it.each([
    ['JPEG', 'a.jpg', () => noisy(1400, 1000).jpeg({ quality: 100 }), 1400, 1000],
    [
      'JPEG turned by EXIF',
      'a.jpg',
      () => noisy(1400, 1000).jpeg({ quality: 100 }).withMetadata({ orientation: 6 }),
      1000,
      1400,
    ],
    ['PNG', 'a.png', () => random(900, 700).png(), 900, 700],
    [
      'GIF with data after its trailer',
      'a.gif',
      () => ({
        toBuffer: async () =>
          Buffer.concat([await canvas(1100, 1000).gif().toBuffer(), Buffer.alloc(2 * MB)]),
      }),
      1100,
      1000,
    ],
    ['TIFF', 'a.tif', () => random(900, 700).tiff({ compression: 'none' }), 900, 700],
    [
      'TIFF big-endian, turned',
      'a.tif',
      () => noisy(700, 900).tiff({ compression: 'none' }).withMetadata({ orientation: 8 }),
      900,
      700,
    ],
  ])('%s', async (_label, name, make, width, height) => {
    const file = await make().toBuffer();
    expect(await both(file, name)).toMatchObject({ width, height });
  });

  it('TIFF with its directory after the pixels (as libtiff writes it)', async () => {
    const px = Buffer.alloc(2 * MB, 0x40);
    const entries = [
      [256, 4, 1024],
      [257, 4, 683],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1],
      [273, 4, 8],
      [274, 3, 6],
      [277, 3, 1],
      [278, 4, 683],
      [279, 4, px.length],
    ];
    const ifd = Buffer.alloc(2 + entries.length * 12 + 4);
    ifd.writeUInt16LE(entries.length, 0);
    entries.forEach(([tag, type, value], i) => {
      const at = 2 + i * 12;
      ifd.writeUInt16LE(tag ?? 0, at);
      ifd.writeUInt16LE(type ?? 0, at + 2);
      ifd.writeUInt32LE(1, at + 4);
      if (type === 3) ifd.writeUInt16LE(value ?? 0, at + 8);
      else ifd.writeUInt32LE(value ?? 0, at + 8);
    });
    const header = Buffer.from('II*\0\0\0\0\0', 'latin1');
    header.writeUInt32LE(8 + px.length, 4);
    const file = Buffer.concat([header, px, ifd]);
    expect(ok(await inspectMedia(pieces(file), 'scan.tiff')).meta).toMatchObject({
      width: 683,
      height: 1024,
      bytes: file.length,
    });
  });

  it('MP4 with its moov after 3 MB of media data, 32- or 64-bit sizes', async () => {
    for (const largeMdat of [false, true]) {
      const file = mp4(1920, 1080, 42.5, { mdat: 3 * MB, largeMdat });
      expect(await both(file, 'clip.mp4')).toMatchObject({
        width: 1920,
        height: 1080,
        durationSec: 42.5,
      });
    }
  });

  it('HEIC and AVIF with their meta first and a large mdat after', async () => {
    const heif = Buffer.concat([
      heic({ width: 4032, height: 3024, rot: 1 }),
      box('mdat', Buffer.alloc(2 * MB)),
    ]);
    expect(await both(heif, 'a.heic')).toMatchObject({ width: 3024, height: 4032 });
    const avif = await canvas(640, 480).avif().toBuffer();
    const padded = Buffer.concat([avif, box('free', Buffer.alloc(2 * MB))]);
    expect(ok(await inspectMedia(avif, 'a.avif')).meta).toMatchObject({ width: 640, height: 480 });
    expect(await both(padded, 'a.avif')).toMatchObject({ width: 640, height: 480 });
  });

  it('a video whose moov is larger than the boxes kept is unreadable', async () => {
    const file = mp4(1280, 720, 3, {
      tracks: [
        { handler: 'vide', width: 1280, height: 720 },
        ...Array.from({ length: 1 }, () => ({ width: 1, height: 1 })),
      ],
    });
    const huge = Buffer.concat([
      ftyp('isom', 'isom'),
      box('mdat', Buffer.alloc(2 * MB)),
      box('moov', box('free', Buffer.alloc(5 * MB))),
    ]);
    expect(ok(await inspectMedia(file, 'a.mp4')).meta.width).toBe(1280);
    expect(await inspectMedia(pieces(huge), 'a.mp4')).toMatchObject({
      ok: false,
      reason: 'unreadable',
    });
  });
});

describe('declaredImageSize: the size a head declares, nothing decoded', () => {
  const rgba = (w: number, h: number) =>
    sharp({ create: { width: w, height: h, channels: 4, background: '#f008' } });
  it.each<[string, () => Promise<Buffer>, { width: number; height: number } | null]>([
    ['PNG', () => canvas(300, 200).png().toBuffer(), { width: 300, height: 200 }],
    ['GIF', () => canvas(120, 80).gif().toBuffer(), { width: 120, height: 80 }],
    ['JPEG', () => noisy(200, 100).jpeg().toBuffer(), { width: 200, height: 100 }],
    ['WebP lossy (VP8)', () => canvas(640, 480).webp().toBuffer(), { width: 640, height: 480 }],
    [
      'WebP lossless (VP8L)',
      () => canvas(33, 17).webp({ lossless: true }).toBuffer(),
      { width: 33, height: 17 },
    ],
    ['WebP with alpha (VP8X)', () => rgba(50, 40).webp().toBuffer(), { width: 50, height: 40 }],
    ['BMP: not an image field format', async () => bmp(10, 10), null],
    ['MP4', async () => mp4(640, 360, 2), null],
    [
      'PNG cut before IHDR',
      async () => (await canvas(9, 9).png().toBuffer()).subarray(0, 12),
      null,
    ],
    ['nothing', async () => Buffer.alloc(0), null],
    // Small Buffers share Node's pool: a reader going past their end finds other bytes there.
    ['GIF cut after its signature', async () => Buffer.from('GIF89a\x10', 'latin1'), null],
    ['WebP cut after its chunk name', async () => Buffer.from('RIFF\0\0\0\0WEBPVP8X'), null],
  ])('%s', async (_, make, want) => {
    expect(await declaredImageSize(await make())).toEqual(want);
  });

  it('reads the size from the first bytes alone', async () => {
    const png = await noisy(800, 600).png().toBuffer();
    expect(await declaredImageSize(png.subarray(0, 64))).toEqual({ width: 800, height: 600 });
  });
});
