import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ja } from '@tenpo/domain';
import { createLocalStorage, createUrlSigner, type MediaStorage } from '../storage';
import { MediaPrepError, prepareMedia, renditionKeyOf, toJpeg, type MediaRow } from './convert';
import { inspectMedia } from './inspect';

// The samples of fixtures/media (made by its make.mjs): left half red, right half blue, a white
// bar across the top tenth, so that a turned or mirrored picture shows.
const FIXTURES = path.resolve(__dirname, '../../../../fixtures/media');
const sample = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

/** The colour at a point (fractions of width and height) of a JPEG. */
async function colourAt(jpeg: Buffer, fx: number, fy: number): Promise<number[]> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const x = Math.floor(info.width * fx);
  const y = Math.floor(info.height * fy);
  const i = (y * info.width + x) * info.channels;
  return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
}
const near = (got: number[], want: number[]) =>
  got.every((v, i) => Math.abs(v - (want[i] ?? 0)) <= 24);
const RED = [200, 40, 40];
const BLUE = [40, 60, 200];
const WHITE = [255, 255, 255];

async function expectSamplePicture(jpeg: Buffer) {
  expect(near(await colourAt(jpeg, 0.25, 0.5), RED)).toBe(true);
  expect(near(await colourAt(jpeg, 0.75, 0.5), BLUE)).toBe(true);
  expect(near(await colourAt(jpeg, 0.5, 0.03), WHITE)).toBe(true);
}

describe('toJpeg: each format the spec lets users pick, as a plain JPEG', () => {
  it.each([
    ['sample.heic', 'heic', 1200, 900],
    ['sample.png', 'png', 1200, 900],
    ['sample.bmp', 'bmp', 480, 360],
    ['sample.tiff', 'tiff', 640, 480],
  ])('%s → JPEG of the same picture, no metadata', async (file, format, width, height) => {
    const out = await toJpeg(sample(file), format);
    const meta = await sharp(out.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width, height, space: 'srgb' });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    await expectSamplePicture(out.bytes);
    // Google's 10 KB floor: a flat 1200×900 picture compresses under it, and is made at q100.
    if (width >= 1200) expect(out.bytes.length).toBeGreaterThanOrEqual(10 * 1024);
    // What Tenpo's own inspection reads of it.
    const seen = await inspectMedia(out.bytes, 'x.jpg');
    expect(seen).toMatchObject({ ok: true, meta: { ext: 'jpeg', width, height } });
  });

  it('EXIF orientation 6 is applied (the picture turned, the tag gone) and GPS is dropped', async () => {
    const { data, info } = await sharp(sample('sample.png'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const tiff = await sharp(data, { raw: info })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '35/1 41/1 0/1' } })
      .tiff()
      .toBuffer();
    expect((await sharp(tiff).metadata()).orientation).toBe(6);
    const out = await toJpeg(tiff, 'tiff');
    const meta = await sharp(out.bytes).metadata();
    expect(meta).toMatchObject({ width: 900, height: 1200 });
    expect(meta.exif).toBeUndefined();
    // Turned a quarter clockwise: the white bar is now on the right.
    expect(near(await colourAt(out.bytes, 0.97, 0.5), WHITE)).toBe(true);
    expect(near(await colourAt(out.bytes, 0.4, 0.25), RED)).toBe(true);
  });

  it('transparency becomes white, a GIF gives its first frame', async () => {
    const png = await sharp({
      create: { width: 600, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    expect(near(await colourAt((await toJpeg(png, 'png')).bytes, 0.5, 0.5), WHITE)).toBe(true);
    const gif = await sharp(sample('sample.png')).gif().toBuffer();
    await expectSamplePicture((await toJpeg(gif, 'gif')).bytes);
  });

  it('bytes that are no picture are refused', async () => {
    await expect(toJpeg(Buffer.from('not a picture at all'), 'png')).rejects.toThrow();
    await expect(toJpeg(sample('sample.heic').subarray(0, 600), 'heic')).rejects.toThrow();
  });
});

describe('prepareMedia: what each channel gets, made once per media', () => {
  let dir: string;
  let storage: MediaStorage;
  let puts: string[];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-convert-'));
    const base = createLocalStorage({
      root: dir,
      baseUrl: 'http://127.0.0.1/uploads',
      private: false,
      urlTtlSeconds: 3600,
      signer: createUrlSigner(Buffer.alloc(32, 7)),
    });
    puts = [];
    storage = {
      ...base,
      put: async (body, o) => {
        const r = await base.put(body, o);
        puts.push(r.key);
        return r;
      },
    };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const stored = async (file: string, mime: string, width: number, height: number) => {
    const { key } = await storage.put(Readable.from([sample(file)]), {
      folder: 'media/posts',
      ext: path.extname(file).slice(1),
      contentType: mime,
    });
    puts.length = 0;
    return { storage_key: key, kind: 'photo', mime, width, height } satisfies MediaRow;
  };
  const read = async (key: string) => {
    const chunks: Buffer[] = [];
    for await (const c of await storage.open(key)) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };

  it('a PNG to Instagram: a JPEG rendition, stored once and reused by the next target', async () => {
    const m = await stored('sample.png', 'image/png', 1200, 900);
    const a = await prepareMedia(storage, m, 'instagram');
    expect(a).toEqual({
      key: renditionKeyOf(m.storage_key),
      contentType: 'image/jpeg',
      converted: true,
    });
    expect(a.key).toMatch(/^media\/posts\/renditions\/[A-Za-z0-9_-]+-jpeg\.jpg$/);
    expect((await sharp(await read(a.key)).metadata()).format).toBe('jpeg');
    expect((await storage.stat(a.key))?.contentType).toBe('image/jpeg');
    expect(puts).toEqual([a.key]);
    // Again (a retry, another store's target), and for Facebook: the same object, no new put.
    expect(await prepareMedia(storage, m, 'instagram')).toEqual(a);
    expect(puts).toEqual([a.key]);
    // Google and Facebook take PNG as it is; X too.
    for (const ch of ['google_my_business', 'facebook', 'twitter'] as const)
      expect(await prepareMedia(storage, m, ch)).toMatchObject({
        key: m.storage_key,
        converted: false,
      });
  });

  it('a HEIC: JPEG for X, Google, Facebook and Instagram (none takes HEIC)', async () => {
    const m = await stored('sample.heic', 'image/heic', 1200, 900);
    for (const ch of ['twitter', 'google_my_business', 'facebook', 'instagram'] as const)
      expect(await prepareMedia(storage, m, ch)).toMatchObject({
        key: renditionKeyOf(m.storage_key),
        contentType: 'image/jpeg',
      });
    expect(puts).toHaveLength(1);
    await expectSamplePicture(await read(renditionKeyOf(m.storage_key)));
  });

  it('a BMP and a TIFF to Facebook: JPEG', async () => {
    for (const [file, mime, w, h] of [
      ['sample.bmp', 'image/bmp', 480, 360],
      ['sample.tiff', 'image/tiff', 640, 480],
    ] as const) {
      const m = await stored(file, mime, w, h);
      const r = await prepareMedia(storage, m, 'facebook');
      expect(r).toMatchObject({ converted: true, contentType: 'image/jpeg' });
      await expectSamplePicture(await read(r.key));
    }
  });

  it('the format is read from the bytes, not the stored type or name', async () => {
    const m = await stored('sample.png', 'image/jpeg', 1200, 900);
    expect(await prepareMedia(storage, m, 'instagram')).toMatchObject({ converted: true });
    const j = await storage.put(
      Readable.from([await sharp(sample('sample.png')).jpeg().toBuffer()]),
      {
        folder: 'media/posts',
        ext: 'png',
        contentType: 'image/png',
      },
    );
    expect(
      await prepareMedia(
        storage,
        { storage_key: j.key, kind: 'photo', mime: 'image/png', width: 1200, height: 900 },
        'instagram',
      ),
    ).toEqual({ key: j.key, contentType: 'image/jpeg', converted: false });
  });

  it('Instagram outside 4:5 … 1.91:1 is refused before sending, in Japanese', async () => {
    const m = await stored('sample.png', 'image/png', 600, 1200);
    const err = await prepareMedia(storage, m, 'instagram').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaPrepError);
    expect(err).toMatchObject({
      kind: 'invalid',
      publisher: 'instagram',
      detail: [ja.mediaAspectRatio('Instagram', '4:5〜1.91:1')],
    });
  });

  it('a broken picture is a clear failure of the target, not a crash', async () => {
    const { key } = await storage.put(Readable.from([sample('sample.heic').subarray(0, 700)]), {
      folder: 'media/posts',
      ext: 'heic',
      contentType: 'image/heic',
    });
    const err = await prepareMedia(
      storage,
      { storage_key: key, kind: 'photo', mime: 'image/heic', width: 1200, height: 900 },
      'twitter',
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaPrepError);
    expect(err).toMatchObject({ kind: 'invalid', detail: [ja.mediaConvertFailed('X')] });
    expect(await storage.stat(renditionKeyOf(key))).toBeNull();
  });

  it('videos go as they are', async () => {
    const r = await prepareMedia(
      storage,
      {
        storage_key: 'media/posts/abcdefgh123.mp4',
        kind: 'video',
        mime: 'video/mp4',
        width: 1,
        height: 1,
      },
      'instagram',
    );
    expect(r).toEqual({
      key: 'media/posts/abcdefgh123.mp4',
      contentType: 'video/mp4',
      converted: false,
    });
  });
});
