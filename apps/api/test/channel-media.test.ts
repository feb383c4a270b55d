import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChannels } from '../src/channels';
import { localPostOf } from '../src/channels/google/google.channel';
import type { PublisherKey } from '@tenpo/domain';
import { credentialHandle, type PostDraft } from '../src/channels/channel';
import {
  createPublisherService,
  type PublisherService,
} from '../src/modules/publisher/publisher.service';
import { createPublisherRepo } from '../src/modules/publisher/publisher.repo';
import { buildTestApp, login, type TestApp } from './helpers';
import { startMediaServer, type MediaServer } from './media-server';
import {
  X_USER,
  connectThroughConsent,
  shopGoogleToken,
  startSandbox,
  type RunningSandbox,
} from './sandbox';

/**
 * Each channel's publish with media, against the emulators on a free port: the providers that
 * take media by URL (Google, Facebook, Instagram) fetch it over HTTP from a media server the test
 * runs, as they fetch Tenpo's media URLs in production; X takes an upload first. The sandbox's
 * own log (`/control/fetches`) shows what each provider fetched and what it made of it.
 */
let sb: RunningSandbox;
let t: TestApp;
let media: MediaServer;
let p: PublisherService;
let shop: number;

type Fetch = {
  provider: string;
  url: string;
  ok: boolean;
  status?: number;
  object_id?: string;
  media?: { mime: string; bytes: number; width?: number; height?: number };
};
const fetches = async (): Promise<Fetch[]> =>
  ((await (await fetch(`${sb.url}/control/fetches`)).json()) as { data: Fetch[] }).data;
const calls = async (): Promise<Record<string, number>> =>
  ((await (await fetch(`${sb.url}/control/calls`)).json()) as { data: Record<string, number> })
    .data;
const countOf = async (method: string, pathEnd: string): Promise<number> =>
  Object.entries(await calls())
    .filter(([k]) => k.startsWith(`${method} `) && k.endsWith(pathEnd))
    .reduce((n, [, v]) => n + v, 0);

beforeAll(async () => {
  media = await startMediaServer();
  sb = await startSandbox();
  t = await buildTestApp({ SANDBOX_URL: sb.url });
  p = createPublisherService({
    repo: createPublisherRepo(t.database.db),
    channels: createChannels(t.config, t.clock, { timeoutMs: 5000 }),
    clock: t.clock,
    secretKey: t.config.secretKey,
    publicUrl: t.config.publicUrl,
    isAgencyPrefix: async () => false,
    log: { warn: () => undefined },
    grantAccess: { pollMs: 10 },
  });
  const u = await t.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'shop@tenpo.example')
    .executeTakeFirstOrThrow();
  shop = u.id;
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
  await media?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  await sb.control('DELETE', '/control/calls');
  await sb.control('DELETE', '/control/fetches');
  // Reels and carousels are ready after 300 ms instead of Meta's seconds.
  await sb.control('PATCH', '/control/settings', {
    instagram: { videoProcessingMs: 300 },
    facebook: { videoProcessingMs: 300 },
  });
});

const publish = (key: PublisherKey, draft: PostDraft) =>
  p.registry.require(key, 'publish').publish(credentialHandle(shop, key), draft);
const photo = (name: string) => ({ kind: 'photo' as const, url: `${media.url}/media/${name}` });
const video = (name: string) => ({ kind: 'video' as const, url: `${media.url}/media/${name}` });

describe('Google: a local post with its photo by sourceUrl', () => {
  it('news with a photo: Google fetched the JPEG and keeps it on the post', async () => {
    const post = await publish('google_my_business', {
      text: `ランチはじめました ${Date.now()}`,
      media: [photo('lunch.jpg')],
      link: 'https://cafe-tenpo.example/lunch',
    });
    expect(post.id).toMatch(/\/localPosts\/\d+$/);
    const [f] = (await fetches()).filter((x) => x.object_id === post.id);
    expect(f).toMatchObject({
      provider: 'google',
      ok: true,
      url: `${media.url}/media/lunch.jpg`,
      media: { mime: 'image/jpeg', width: 1080, height: 1080 },
    });
    expect(media.hits.get('/media/lunch.jpg')).toBeGreaterThan(0);
  });

  it('event and offer posts go out as EVENT and OFFER with their fields', async () => {
    const day = { year: 2026, month: 12, day: 24 };
    const event = await publish('google_my_business', {
      text: `クリスマス試食会 ${Date.now()}`,
      media: [photo('cake.jpg')],
      topic: {
        type: 'event',
        title: '試食会',
        start: { date: day, time: { hours: 10, minutes: 0 } },
        end: { date: day, time: { hours: 17, minutes: 30 } },
      },
      button: { action: 'BOOK', url: 'https://cafe-tenpo.example/book' },
    });
    const offer = await publish('google_my_business', {
      text: `年末セール ${Date.now()}`,
      media: [],
      topic: {
        type: 'offer',
        title: '10% オフ',
        start: { date: { year: 2026, month: 12, day: 26 } },
        end: { date: { year: 2026, month: 12, day: 31 } },
        couponCode: 'TENPO10',
        redeemUrl: 'https://cafe-tenpo.example/sale',
        terms: 'お一人様一回限り',
      },
    });
    const token = await sandboxGoogleToken();
    const read = async (name: string) =>
      (await (
        await fetch(`${sb.url}/google/mybusiness/v4/${name}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as Record<string, unknown>;
    expect(await read(event.id)).toMatchObject({
      topicType: 'EVENT',
      event: {
        title: '試食会',
        schedule: { startDate: day, startTime: { hours: 10, minutes: 0 }, endDate: day },
      },
      callToAction: { actionType: 'BOOK', url: 'https://cafe-tenpo.example/book' },
    });
    expect(await read(offer.id)).toMatchObject({
      topicType: 'OFFER',
      offer: {
        couponCode: 'TENPO10',
        redeemOnlineUrl: 'https://cafe-tenpo.example/sale',
        termsConditions: 'お一人様一回限り',
      },
    });
  });

  it('a photo URL that is not there is refused as invalid (Google could not fetch it)', async () => {
    await expect(
      publish('google_my_business', { text: '写真なし', media: [photo('gone.jpg')] }),
    ).rejects.toMatchObject({ kind: 'invalid', publisher: 'google_my_business' });
    expect((await fetches()).at(-1)).toMatchObject({ ok: false, status: 404 });
  });

  it('a call button has no url; a draft without a topic is STANDARD', () => {
    expect(localPostOf({ text: 'a', media: [], button: { action: 'CALL' } })).toMatchObject({
      topicType: 'STANDARD',
      callToAction: { actionType: 'CALL' },
    });
    expect(localPostOf({ text: 'a', media: [] }).callToAction).toBeUndefined();
  });
});

const sandboxGoogleToken = (): Promise<string> => shopGoogleToken(sb.url);

describe('Facebook: photos by url, a video by file_url', () => {
  it('one photo: /photos with url; Facebook fetched it; the post lists back', async () => {
    const text = `本日のケーキ ${Date.now()}`;
    const post = await publish('facebook', { text, media: [photo('cake.jpg')] });
    expect(post.id).toMatch(/^104857392017465_\d+$/);
    expect(await countOf('POST', '/photos')).toBe(1);
    const [f] = (await fetches()).filter((x) => x.provider === 'facebook');
    expect(f).toMatchObject({ ok: true, media: { mime: 'image/jpeg', width: 1080 } });
    const list = await p.registry
      .require('facebook', 'listRecent')
      .listRecent(credentialHandle(shop, 'facebook'), { since: new Date(Date.now() - 60_000) });
    expect(list.find((x) => x.id === post.id)?.text).toBe(text);
  });

  it('two photos: each fetched unpublished, then one feed post attaches them', async () => {
    const post = await publish('facebook', {
      text: `二枚の写真 ${Date.now()}`,
      media: [photo('lunch.jpg'), photo('cake.jpg')],
    });
    expect(await countOf('POST', '/photos')).toBe(2);
    expect(await countOf('POST', '/feed')).toBe(1);
    expect((await fetches()).filter((x) => x.provider === 'facebook' && x.ok)).toHaveLength(2);
    await p.registry
      .require('facebook', 'remove')
      .remove(credentialHandle(shop, 'facebook'), post.id);
  });

  it('a video: /videos with file_url; the post is removable by its id', async () => {
    const text = `店内の様子 ${Date.now()}`;
    const post = await publish('facebook', { text, media: [video('shop.mp4')] });
    expect(await countOf('POST', '/videos')).toBe(1);
    const [f] = (await fetches()).filter((x) => x.provider === 'facebook');
    expect(f).toMatchObject({ ok: true, media: { mime: 'video/mp4' } });
    const h = credentialHandle(shop, 'facebook');
    const since = new Date(Date.now() - 60_000);
    const list = await p.registry.require('facebook', 'listRecent').listRecent(h, { since });
    expect(list.find((x) => x.id === post.id)?.text).toBe(text);
    await p.registry.require('facebook', 'remove').remove(h, post.id);
    const after = await p.registry.require('facebook', 'listRecent').listRecent(h, { since });
    expect(after.map((x) => x.id)).not.toContain(post.id);
  });

  it('a photo URL that answers HTML is refused as invalid (#324)', async () => {
    const err = await publish('facebook', { text: 'x', media: [photo('page.jpg')] }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ kind: 'invalid', publisher: 'facebook' });
    expect((err as Error).message).toContain('324');
  });
});

describe('Instagram: containers by image_url / video_url, then media_publish', () => {
  it('a photo: fetched, published once, listed back', async () => {
    const text = `本日のランチ ${Date.now()}`;
    const post = await publish('instagram', { text, media: [photo('lunch.jpg')] });
    expect(await countOf('POST', '/media')).toBe(1);
    expect(await countOf('POST', '/media_publish')).toBe(1);
    const [f] = (await fetches()).filter((x) => x.provider === 'instagram');
    expect(f).toMatchObject({ ok: true, media: { mime: 'image/jpeg', width: 1080 } });
    const list = await p.registry
      .require('instagram', 'listRecent')
      .listRecent(credentialHandle(shop, 'instagram'), { since: new Date(Date.now() - 60_000) });
    expect(list.find((x) => x.id === post.id)?.text).toBe(text);
  });

  it('a reel: the container is polled until FINISHED, then published', async () => {
    await publish('instagram', { text: `動画 ${Date.now()}`, media: [video('shop.mp4')] });
    expect(await countOf('POST', '/media_publish')).toBe(1);
    expect((await fetches()).find((x) => x.provider === 'instagram')?.media?.mime).toBe(
      'video/mp4',
    );
  });

  it('a carousel of a photo and a video item, published once', async () => {
    await publish('instagram', {
      text: `まとめて ${Date.now()}`,
      media: [photo('cake.jpg'), video('shop.mp4')],
    });
    expect(await countOf('POST', '/media')).toBe(3);
    expect(await countOf('POST', '/media_publish')).toBe(1);
  });

  it('a URL that is not there: "Media download has failed", invalid, nothing published', async () => {
    const err = await publish('instagram', { text: 'x', media: [photo('gone.jpg')] }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ kind: 'invalid', publisher: 'instagram' });
    expect((err as Error).message).toContain('Media download has failed');
    expect(await countOf('POST', '/media_publish')).toBe(0);
  });
});

describe('X: the image is uploaded, then the post names it', () => {
  it('upload then publish with media_ids', async () => {
    const storeId = await connectX();
    const h = credentialHandle(storeId, 'twitter');
    const bytes = new Uint8Array(await (await fetch(`${media.url}/media/lunch.jpg`)).arrayBuffer());
    const item = await p.registry
      .require('twitter', 'uploadMedia')
      .uploadMedia(h, { kind: 'photo', contentType: 'image/jpeg', bytes });
    expect(item.providerId).toBeTruthy();
    const post = await p.registry
      .require('twitter', 'publish')
      .publish(h, { text: `写真付き ${Date.now()}`, media: [item] });
    expect(await countOf('POST', '/2/tweets')).toBe(1);
    await p.registry.require('twitter', 'remove').remove(h, post.id);
  });
});

/** The shop connects its X account through the API, as the browser does. */
async function connectX(): Promise<number> {
  const token = await login(t.app, 'shop@tenpo.example');
  await connectThroughConsent(t.app, token, shop, 'twitter', {
    user_id: X_USER,
    decision: 'allow',
  });
  return shop;
}
