import { describe, expect, it } from 'vitest';
import { decodeBmp } from './bmp';

/** A BMP of 2×2 pixels written by hand: TL red, TR green, BL blue, BR white. */
const PIXELS = [
  [255, 0, 0, 255],
  [0, 255, 0, 128],
  [0, 0, 255, 255],
  [255, 255, 255, 0],
];

function bmp(opts: {
  bpp: 1 | 24 | 32;
  topDown?: boolean;
  compression?: number;
  header?: number;
}): Buffer {
  const header = opts.header ?? 40;
  const w = 2;
  const h = 2;
  const stride = Math.ceil((w * opts.bpp) / 32) * 4;
  const palette = opts.bpp === 1 ? 2 * 4 : 0;
  const masks = opts.compression === 3 && header === 40 ? 12 : 0;
  const at = 14 + header + masks + palette;
  const b = Buffer.alloc(at + stride * h);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(at, 10);
  b.writeUInt32LE(header, 14);
  b.writeInt32LE(w, 18);
  b.writeInt32LE(opts.topDown ? -h : h, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(opts.bpp, 28);
  b.writeUInt32LE(opts.compression ?? 0, 30);
  if (opts.compression === 3) {
    b.writeUInt32LE(0x00ff0000, 54);
    b.writeUInt32LE(0x0000ff00, 58);
    b.writeUInt32LE(0x000000ff, 62);
    if (header >= 56) b.writeUInt32LE(0xff000000, 66);
  }
  if (opts.bpp === 1) {
    b.writeUInt32LE(2, 46);
    b.set([0, 0, 0, 0], 14 + header);
    b.set([255, 255, 255, 0], 14 + header + 4);
  }
  for (let y = 0; y < h; y++) {
    const row = at + (opts.topDown ? y : h - 1 - y) * stride;
    for (let x = 0; x < w; x++) {
      const [r, g, bl, a] = PIXELS[y * w + x] as number[];
      if (opts.bpp === 24) b.set([bl as number, g as number, r as number], row + x * 3);
      else if (opts.bpp === 32)
        b.set([bl as number, g as number, r as number, a as number], row + x * 4);
      else if (r === 255 && g === 255 && bl === 255) b[row] = (b[row] ?? 0) | (0x80 >> x);
    }
  }
  return b;
}

const rgba = (d: { data: Buffer }) =>
  [0, 1, 2, 3].map((i) => [...d.data.subarray(i * 4, i * 4 + 4)]);

describe('decodeBmp', () => {
  it('24-bit, bottom-up and top-down: rows come out top-down, opaque', () => {
    for (const topDown of [false, true]) {
      const d = decodeBmp(bmp({ bpp: 24, topDown }));
      expect(d).toMatchObject({ width: 2, height: 2, alpha: false });
      expect(rgba(d)).toEqual(PIXELS.map(([r, g, b]) => [r, g, b, 255]));
    }
  });

  it('32-bit with an alpha mask (v4 header, bit fields): alpha kept', () => {
    const d = decodeBmp(bmp({ bpp: 32, compression: 3, header: 108 }));
    expect(d.alpha).toBe(true);
    expect(rgba(d)).toEqual(PIXELS);
  });

  it('32-bit BI_RGB: the fourth byte is not alpha', () => {
    const d = decodeBmp(bmp({ bpp: 32 }));
    expect(d.alpha).toBe(false);
    expect(rgba(d)).toEqual(PIXELS.map(([r, g, b]) => [r, g, b, 255]));
  });

  it('1-bit palette', () => {
    const d = decodeBmp(bmp({ bpp: 1 }));
    expect(rgba(d)[3]).toEqual([255, 255, 255, 255]);
    expect(rgba(d)[0]).toEqual([0, 0, 0, 255]);
  });

  it('RLE, cut-short and non-BMP input are refused', () => {
    expect(() => decodeBmp(bmp({ bpp: 24, compression: 1 }))).toThrow(/compression/);
    expect(() => decodeBmp(bmp({ bpp: 24 }).subarray(0, 60))).toThrow();
    expect(() => decodeBmp(Buffer.from('PNG not a bitmap at all, no no no'))).toThrow();
  });
});
