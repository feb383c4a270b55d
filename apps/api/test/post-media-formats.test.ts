import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ja, type PostView, type PublisherKey } from '@tenpo/domain';
import type { TestApp } from './helpers';
import { json } from './helpers';
import {
  CREATE,
  postsHelpers,
  startPostsWorld,
  type Created,
  type PostsWorld,
} from './posts-harness';
import type { RunningSandbox } from './sandbox';

/**
 * Formats the channels really take (ADR 0062), end to end: a post made with a PNG, a BMP or a
 * HEIC (the samples of fixtures/media) goes through the job engine to the emulators, which
 * refuse what the real services refuse (Instagram: JPEG only; X: no HEIC). What reached each
 * provider is read at the sandbox: its call counters and its log of the media it fetched.
 *
 * Without the conversion (mediaFor handing over the original), the Instagram and X cases end
 * `failed` at the provider and the Facebook case sends a BMP: each test below fails.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let shop = 0;
const { countOf, atProvider, submit, targetsOf, drainUntil, stateOf } = postsHelpers(() => w);

const FIXTURES = path.resolve(__dirname, '../../../fixtures/media');
const sample = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

type Fetch = {
  provider: string;
  url: string;
  ok: boolean;
  media?: { mime: string; format: string; width?: number; height?: number };
};
const fetches = async (provider: string): Promise<Fetch[]> =>
  ((await (await fetch(`${sb.url}/control/fetches`)).json()) as { data: Fetch[] }).data.filter(
    (f) => f.provider === provider,
  );

beforeAll(async () => {
  w = await startPostsWorld();
  ({ sb, t, shop } = w);
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  await sb.control('DELETE', '/control/calls');
  await sb.control('DELETE', '/control/fetches');
});

/** Posts one file to one channel and runs the jobs until the target is done. */
async function postOne(key: PublisherKey, text: string, file: string, type: string, data: Buffer) {
  const res = await submit(
    { user_id: String(shop), content: text, shared_sns_type: key },
    { 'medias[0]': { filename: file, type, data } },
  );
  expect(res.statusCode, res.body).toBe(200);
  const post = json<Created>(res).data.posts[0] as PostView;
  await drainUntil(async () => {
    t.clock.advance(60_000);
    const s = (await stateOf(post.id))[key];
    return s === 'published' || s === 'failed';
  });
  return post;
}

describe('each channel gets a format it takes, converted on the server', () => {
  it('a PNG to Instagram: Instagram fetched a JPEG, and published once', async () => {
    const text = `PNGの写真 ${Date.now()}`;
    const post = await postOne('instagram', text, 'menu.png', 'image/png', sample('sample.png'));
    expect((await stateOf(post.id)).instagram, JSON.stringify(await targetsOf(post.id))).toBe(
      'published',
    );
    expect(await countOf('POST', CREATE.instagram)).toBe(1);
    expect(await atProvider('instagram', text)).toHaveLength(1);
    const got = await fetches('instagram');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      ok: true,
      media: { format: 'jpeg', mime: 'image/jpeg', width: 1200, height: 900 },
    });
    expect(got[0]?.url).toMatch(/\/uploads\/media\/posts\/renditions\/[\w-]+-jpeg\.jpg/);
    // The rendition is a real JPEG of the picture, served from our storage.
    const served = Buffer.from(await (await fetch(got[0]?.url as string)).arrayBuffer());
    expect((await sharp(served).metadata()).format).toBe('jpeg');
  });

  it('a BMP to Facebook: Facebook fetched a JPEG, and published once', async () => {
    const text = `BMPの写真 ${Date.now()}`;
    const post = await postOne('facebook', text, 'shop.bmp', 'image/bmp', sample('sample.bmp'));
    expect((await stateOf(post.id)).facebook).toBe('published');
    expect(await countOf('POST', CREATE.facebook)).toBe(1);
    expect(await atProvider('facebook', text)).toHaveLength(1);
    const got = await fetches('facebook');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      ok: true,
      media: { format: 'jpeg', mime: 'image/jpeg', width: 480, height: 360 },
    });
  });

  it('a HEIC to X: uploaded as JPEG (X refuses HEIC), one upload, one tweet', async () => {
    const text = `HEICの写真 ${Date.now()}`;
    const post = await postOne(
      'twitter',
      text,
      'IMG_0001.HEIC',
      'image/heic',
      sample('sample.heic'),
    );
    expect((await stateOf(post.id)).twitter, JSON.stringify(await targetsOf(post.id))).toBe(
      'published',
    );
    expect(await countOf('POST', /\/2\/media\/upload$/)).toBe(1);
    expect(await countOf('POST', CREATE.twitter)).toBe(1);
    expect(await atProvider('twitter', text)).toHaveLength(1);
  });

  it('a HEIC to Google: Google fetched a JPEG (it takes JPG and PNG only)', async () => {
    const text = `HEICの写真をGoogleへ ${Date.now()}`;
    const post = await postOne(
      'google_my_business',
      text,
      'IMG_0002.heic',
      'image/heic',
      // Google takes no photo under 10 KB: the grainy sample weighs 60 KB.
      sample('sample-grain.heic'),
    );
    expect((await stateOf(post.id)).google_my_business).toBe('published');
    expect(await countOf('POST', CREATE.google_my_business)).toBe(1);
    const got = await fetches('google');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      ok: true,
      media: { format: 'jpeg', mime: 'image/jpeg', width: 400, height: 300 },
    });
  });

  it('Instagram outside 4:5 … 1.91:1: refused at submit with the reason in Japanese, nothing sent', async () => {
    const tall = await sharp(sample('sample.png'))
      .resize(600, 1200, { fit: 'fill' })
      .png()
      .toBuffer();
    const res = await submit(
      { user_id: String(shop), content: `縦長 ${Date.now()}`, shared_sns_type: 'instagram' },
      { 'medias[0]': { filename: 'tall.png', type: 'image/png', data: tall } },
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(JSON.stringify(json(res))).toContain(ja.mediaAspectRatio('Instagram', '4:5〜1.91:1'));
    expect(await countOf('POST', /\/media$/)).toBe(0);
    expect(await countOf('POST', CREATE.instagram)).toBe(0);
  });
});
