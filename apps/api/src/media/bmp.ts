/**
 * A BMP decoder for what Windows and cameras write: BITMAPCOREHEADER (12 bytes) or an info
 * header of 40 bytes or more (v2–v5); 1, 4 and 8 bits with a palette, 16 bits (5-5-5 or bit
 * fields), 24 bits, 32 bits (BGRX or bit fields, with alpha when a mask names it). RLE-compressed
 * files and embedded JPEG/PNG are refused (thrown). libvips reads BMP only through ImageMagick,
 * which sharp's prebuilt binaries leave out (ADR 0062); the npm decoders we looked at mangle
 * palette images.
 *
 * Returns RGBA rows top-down; `alpha` is false when the file carries none (or all zero).
 */
export type DecodedBmp = { width: number; height: number; data: Buffer; alpha: boolean };

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

export function decodeBmp(b: Buffer, maxPixels = 100_000_000): DecodedBmp {
  if (b.length < 26 || b.toString('latin1', 0, 2) !== 'BM') throw new Error('not a BMP');
  const dataAt = b.readUInt32LE(10);
  const header = b.readUInt32LE(14);
  const core = header === 12;
  if (!core && header < 40) throw new Error(`BMP header of ${header} bytes`);
  const width = core ? b.readUInt16LE(18) : b.readInt32LE(18);
  const rawHeight = core ? b.readInt16LE(20) : b.readInt32LE(22);
  const bpp = b.readUInt16LE(core ? 24 : 28);
  const compression = core ? BI_RGB : b.readUInt32LE(30);
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0 || width * height > maxPixels) throw new Error('BMP size');
  if (![BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS].includes(compression))
    throw new Error(`BMP compression ${compression}`);

  // Masks: in the v2+ header, or right after a 40-byte header for BI_BITFIELDS.
  let masks: [number, number, number, number] | null = null;
  if (compression !== BI_RGB) {
    const at = 14 + 40;
    const r = b.readUInt32LE(at);
    const g = b.readUInt32LE(at + 4);
    const bl = b.readUInt32LE(at + 8);
    const a = header >= 56 || compression === BI_ALPHABITFIELDS ? b.readUInt32LE(at + 12) : 0;
    masks = [r, g, bl, a];
  } else if (bpp === 16) masks = [0x7c00, 0x03e0, 0x001f, 0];
  else if (bpp === 32) masks = [0x00ff0000, 0x0000ff00, 0x000000ff, 0];

  let palette: Buffer | null = null;
  if (bpp <= 8) {
    const entry = core ? 3 : 4;
    const colours = (!core && b.readUInt32LE(46)) || 1 << bpp;
    const at = 14 + header + (compression === BI_BITFIELDS && header === 40 ? 12 : 0);
    palette = Buffer.alloc(256 * 3);
    for (let i = 0; i < Math.min(colours, 256); i++) {
      const p = at + i * entry;
      if (p + 3 > b.length) break;
      palette[i * 3] = b[p + 2] ?? 0;
      palette[i * 3 + 1] = b[p + 1] ?? 0;
      palette[i * 3 + 2] = b[p] ?? 0;
    }
  } else if (![16, 24, 32].includes(bpp)) throw new Error(`BMP of ${bpp} bits`);

  const stride = Math.ceil((width * bpp) / 32) * 4;
  if (dataAt + stride * height > b.length) throw new Error('BMP cut short');
  const out = Buffer.alloc(width * height * 4);
  const field = (mask: number) => {
    if (!mask) return (_: number) => 255;
    let shift = 0;
    while (((mask >>> shift) & 1) === 0) shift++;
    const max = mask >>> shift;
    return (px: number) => Math.round((((px & mask) >>> shift) * 255) / max);
  };
  const [mr, mg, mb, ma] = masks ?? [0, 0, 0, 0];
  const fr = field(mr);
  const fg = field(mg);
  const fb = field(mb);
  const fa = field(ma);
  let anyAlpha = false;
  for (let y = 0; y < height; y++) {
    const row = dataAt + (topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (palette) {
        const bit = x * bpp;
        const byte = b[row + (bit >> 3)] ?? 0;
        const idx = bpp === 8 ? byte : (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        out[o] = palette[idx * 3] ?? 0;
        out[o + 1] = palette[idx * 3 + 1] ?? 0;
        out[o + 2] = palette[idx * 3 + 2] ?? 0;
        out[o + 3] = 255;
      } else if (bpp === 24) {
        const p = row + x * 3;
        out[o] = b[p + 2] ?? 0;
        out[o + 1] = b[p + 1] ?? 0;
        out[o + 2] = b[p] ?? 0;
        out[o + 3] = 255;
      } else {
        const px = bpp === 16 ? b.readUInt16LE(row + x * 2) : b.readUInt32LE(row + x * 4);
        out[o] = fr(px);
        out[o + 1] = fg(px);
        out[o + 2] = fb(px);
        const a = fa(px);
        out[o + 3] = a;
        if (ma && a !== 0) anyAlpha = true;
      }
    }
  }
  const alpha = !!ma && anyAlpha;
  if (ma && !anyAlpha) for (let i = 3; i < out.length; i += 4) out[i] = 255;
  return { width, height, data: out, alpha };
}
