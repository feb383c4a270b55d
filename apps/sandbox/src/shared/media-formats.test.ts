import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { imageProblem } from '../instagram/instagram.graph';
import { mediaViolations } from '../google/google.v4';
import { probeMedia } from './media';
import { auth, buildSandbox, facebookUserToken, fakeJpeg, pageToken, xTokens } from './testing';

/**
 * The emulators read a file's format from its bytes and refuse what the real services refuse
 * (ADR 0062): Instagram JPEG only; X's one-shot upload no HEIC (jpeg, bmp, png, webp, tiff);
 * Google photos JPG/PNG; Facebook photos JPEG, BMP, PNG, GIF, TIFF. The samples are those of
 * fixtures/media, which Tenpo's tests post too.
 */
const FIXTURES = path.resolve(__dirname, '../../../../fixtures/media');
const sample = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

describe('probeMedia: the format from the bytes', () => {
  it.each([
    ['sample.png', 'png', 1200, 900],
    ['sample.bmp', 'bmp', 480, 360],
    ['sample.tiff', 'tiff', undefined, undefined],
    ['sample.heic', 'heic', undefined, undefined],
  ])('%s is %s', (file, format, width, height) => {
    const info = probeMedia(sample(file));
    expect(info.format).toBe(format);
    expect([info.width, info.height]).toEqual([width, height]);
  });

  it('an HEIF whose major brand is generic (mif1) but lists heic is a HEIC', () => {
    const b = Buffer.from(sample('sample.heic'));
    b.write('mif1', 8, 'latin1');
    expect(probeMedia(b).format).toBe('heic');
  });

  it('Instagram refuses all but JPEG (2207052); Google all but JPEG and PNG', () => {
    for (const f of ['sample.png', 'sample.bmp', 'sample.tiff', 'sample.heic'])
      expect(imageProblem(probeMedia(sample(f)))?.subcode, f).toBe(2207052);
    expect(imageProblem(probeMedia(fakeJpeg(1200, 900)))).toBeUndefined();
    for (const f of ['sample.bmp', 'sample.tiff', 'sample.heic'])
      expect(mediaViolations(probeMedia(sample(f)), 'PHOTO', 'media')[0]?.message, f).toBe(
        'Unsupported photo format. Use JPG or PNG.',
      );
  });
});

describe('uploads', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    ({ app } = await buildSandbox());
  });
  afterEach(async () => {
    await app.close();
  });

  it('X one-shot upload: HEIC refused, BMP and PNG taken, the type read from the bytes', async () => {
    const t = await xTokens(app);
    const up = (file: string) =>
      app.inject({
        method: 'POST',
        url: '/sandbox/x/api/2/media/upload',
        headers: auth(t.access_token),
        payload: { media: sample(file).toString('base64'), media_category: 'tweet_image' },
      });
    const heic = await up('sample.heic');
    expect(heic.statusCode).toBe(400);
    expect(heic.body).toContain('UnsupportedMedia');
    for (const [file, type] of [
      ['sample.bmp', 'image/bmp'],
      ['sample.png', 'image/png'],
    ]) {
      const ok = await up(file as string);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data.image.image_type, file).toBe(type);
    }
  });

  it('Facebook /photos takes a BMP and a TIFF, refuses a HEIC (324)', async () => {
    const page = await pageToken(app, await facebookUserToken(app), '104857392017467');
    const boundary = 'XyZ';
    const post = (file: string) =>
      app.inject({
        method: 'POST',
        url: '/sandbox/facebook/graph/v25.0/104857392017467/photos',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="access_token"\r\n\r\n${page}\r\n`,
          ),
          // The name says JPEG: the sandbox goes by the bytes.
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="source"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
          ),
          sample(file),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
    for (const f of ['sample.bmp', 'sample.tiff']) {
      const res = await post(f);
      expect(res.statusCode, `${f} ${res.body}`).toBe(200);
      expect(res.json().post_id).toBeTruthy();
    }
    const heic = await post('sample.heic');
    expect(heic.json().error.code).toBe(324);
  });
});
