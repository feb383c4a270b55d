import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  auth,
  buildSandbox,
  facebookUserToken,
  FORM,
  form,
  googleTokens,
  pageToken,
  startMediaServer,
  xTokens,
} from './shared/testing';
import type { FetchLogEntry } from './shared/media';

/**
 * Publishing with media by URL: each emulator fetches the URL over HTTP from a real server the
 * test runs (as the providers fetch Tenpo's media URLs), and answers the provider's own errors
 * when the URL is unreachable, missing or not media.
 */
const G = '/sandbox/facebook/graph/v25.0';
const V4 = '/sandbox/google/mybusiness/v4';
const PAGE = '104857392017465';
const IG = '17841400000000101';
const GPARENT = `${V4}/accounts/104772635510001234567/locations/4821390157204861230`;

let media: Awaited<ReturnType<typeof startMediaServer>>;
let app: FastifyInstance;
beforeAll(async () => {
  media = await startMediaServer();
});
afterAll(async () => {
  await media.close();
});
beforeEach(async () => {
  ({ app } = await buildSandbox());
});
afterEach(async () => {
  await app.close();
});

const fetches = async (): Promise<FetchLogEntry[]> =>
  (await app.inject({ url: '/sandbox/control/fetches' })).json().data as FetchLogEntry[];
const settings = (payload: object) =>
  app.inject({ method: 'PATCH', url: '/sandbox/control/settings', payload });
const advance = (seconds: number) =>
  app.inject({
    method: 'POST',
    url: '/sandbox/control/clock',
    payload: { advance_seconds: seconds },
  });

describe('Facebook: /{page}/photos url and /{page}/videos file_url are fetched', () => {
  it('a reachable photo is fetched and kept with its size and type', async () => {
    const page = await pageToken(app, await facebookUserToken(app), PAGE);
    const before = media.hits.get('/photo.jpg') ?? 0;
    const res = await app.inject({
      method: 'POST',
      url: `${G}/${PAGE}/photos`,
      headers: FORM,
      payload: form({ url: `${media.url}/photo.jpg`, message: '本日のケーキ', access_token: page }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id, post_id } = res.json() as { id: string; post_id: string };
    expect(post_id).toMatch(new RegExp(`^${PAGE}_\\d+$`));
    expect(media.hits.get('/photo.jpg')).toBe(before + 1);
    const [entry] = (await fetches()).filter((f) => f.object_id === id);
    expect(entry).toMatchObject({
      provider: 'facebook',
      ok: true,
      url: `${media.url}/photo.jpg`,
      media: { bytes: 60_000, mime: 'image/jpeg', width: 1080, height: 1080 },
    });
    const node = (
      await app.inject({ url: `${G}/${id}?fields=width,height&access_token=${page}` })
    ).json();
    expect(node).toMatchObject({ width: 1080, height: 1080 });
  });

  it.each([
    ['a 404', '/missing.jpg'],
    ['HTML served as image/jpeg (the bytes decide)', '/page.html'],
    ['an unreachable host', 'unreachable'],
  ])('%s is refused with (#324)', async (_label, p) => {
    const page = await pageToken(app, await facebookUserToken(app), PAGE);
    const url = p === 'unreachable' ? 'http://127.0.0.1:9/photo.jpg' : `${media.url}${p}`;
    const res = await app.inject({
      method: 'POST',
      url: `${G}/${PAGE}/photos`,
      headers: FORM,
      payload: form({ url, access_token: page }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 324, type: 'OAuthException' });
    expect(res.json().error.fbtrace_id).toBeTruthy();
  });

  it('a video by file_url is fetched; a missing one and a photo are refused', async () => {
    const page = await pageToken(app, await facebookUserToken(app), PAGE);
    const ok = await app.inject({
      method: 'POST',
      url: `${G}/${PAGE}/videos`,
      headers: FORM,
      payload: form({
        file_url: `${media.url}/clip.mp4`,
        description: '店内の様子',
        access_token: page,
      }),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const id = ok.json().id as string;
    const [entry] = (await fetches()).filter((f) => f.object_id === id);
    expect(entry?.media).toMatchObject({ mime: 'video/mp4', bytes: 200_000, duration_seconds: 10 });

    const missing = await app.inject({
      method: 'POST',
      url: `${G}/${PAGE}/videos`,
      headers: FORM,
      payload: form({ file_url: `${media.url}/missing.mp4`, access_token: page }),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: 6000, error_subcode: 1363030 });
    const photo = await app.inject({
      method: 'POST',
      url: `${G}/${PAGE}/videos`,
      headers: FORM,
      payload: form({ file_url: `${media.url}/photo.jpg`, access_token: page }),
    });
    expect(photo.json().error).toMatchObject({ code: 352 });
  });

  it('the feed lists what was created, newest first, and a delete removes it', async () => {
    const page = await pageToken(app, await facebookUserToken(app), PAGE);
    const ids: string[] = [];
    for (const message of ['一つ目', '二つ目', '三つ目']) {
      const r = await app.inject({
        method: 'POST',
        url: `${G}/${PAGE}/feed`,
        headers: FORM,
        payload: form({ message, access_token: page }),
      });
      ids.push(r.json().id as string);
      await advance(1);
    }
    const list = async () =>
      (
        (
          await app.inject({
            url: `${G}/${PAGE}/published_posts?fields=id,message&access_token=${page}`,
          })
        ).json().data as { id: string }[]
      ).map((p) => p.id);
    expect(await list()).toEqual([...ids].reverse());
    const del = await app.inject({ method: 'DELETE', url: `${G}/${ids[1]}?access_token=${page}` });
    expect(del.json()).toEqual({ success: true });
    expect(await list()).toEqual([ids[2], ids[0]]);
  });
});

describe('Instagram: containers from image_url / video_url', () => {
  const create = (user: string, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: `${G}/${IG}/media`,
      headers: FORM,
      payload: form({ ...fields, access_token: user }),
    });
  const statusOf = async (user: string, id: string) =>
    (await app.inject({ url: `${G}/${id}?fields=status_code,status&access_token=${user}` })).json();
  const publish = (user: string, id: string) =>
    app.inject({
      method: 'POST',
      url: `${G}/${IG}/media_publish?creation_id=${id}&access_token=${user}`,
    });

  it('an image is fetched, checked and kept on the container and the published media', async () => {
    const user = await facebookUserToken(app);
    const c = await create(user, { image_url: `${media.url}/photo.jpg`, caption: '新作' });
    expect(c.statusCode, c.body).toBe(200);
    const id = c.json().id as string;
    expect((await fetches()).find((f) => f.object_id === id)?.media).toMatchObject({
      mime: 'image/jpeg',
      width: 1080,
    });
    expect(await statusOf(user, id)).toMatchObject({ status_code: 'FINISHED' });
    expect((await publish(user, id)).statusCode).toBe(200);
  });

  it("a 404 or a non-image answers Meta's media errors", async () => {
    const user = await facebookUserToken(app);
    const missing = await create(user, { image_url: `${media.url}/missing.jpg` });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({
      code: 9004,
      error_subcode: 2207052,
      message: "Media download has failed. The media URI doesn't meet our requirements.",
      is_transient: false,
    });
    const html = await create(user, { image_url: `${media.url}/page.html` });
    expect(html.json().error).toMatchObject({ code: 9004, error_subcode: 2207052 });
    const wide = await create(user, { image_url: `${media.url}/wide.jpg` });
    expect(wide.json().error).toMatchObject({ code: 36003, error_subcode: 2207009 });
    const failed = (await fetches()).filter((f) => !f.ok);
    expect(failed).toContainEqual(
      expect.objectContaining({ provider: 'instagram', reason: 'status', status: 404 }),
    );
  });

  it('a URL that does not answer in time is a download time-out (-2 / 2207003)', async () => {
    const user = await facebookUserToken(app);
    await settings({ mediaFetchTimeoutMs: 300 });
    const res = await create(user, { image_url: `${media.url}/hang.jpg` });
    expect(res.json().error).toMatchObject({ code: -2, error_subcode: 2207003 });
    expect((await fetches()).at(-1)).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('a reel is IN_PROGRESS, refused by media_publish, then FINISHED and published', async () => {
    const user = await facebookUserToken(app);
    const c = await create(user, {
      media_type: 'REELS',
      video_url: `${media.url}/clip.mp4`,
      caption: '動画',
    });
    const id = c.json().id as string;
    expect(await statusOf(user, id)).toMatchObject({ status_code: 'IN_PROGRESS' });
    const early = await publish(user, id);
    expect(early.json().error).toMatchObject({ code: 9007, error_subcode: 2207027 });
    await advance(4);
    expect(await statusOf(user, id)).toMatchObject({ status_code: 'FINISHED' });
    expect((await publish(user, id)).statusCode).toBe(200);
    expect(await statusOf(user, id)).toMatchObject({ status_code: 'PUBLISHED' });
  });

  it('a reel from a missing URL ends in status ERROR with the download subcode', async () => {
    const user = await facebookUserToken(app);
    const c = await create(user, { media_type: 'REELS', video_url: `${media.url}/gone.mp4` });
    const st = await statusOf(user, c.json().id as string);
    expect(st.status_code).toBe('ERROR');
    expect(st.status).toContain('2207052');
  });

  it('a carousel of a photo and a VIDEO item is published once both are ready', async () => {
    const user = await facebookUserToken(app);
    const a = await create(user, {
      image_url: `${media.url}/photo.jpg`,
      is_carousel_item: 'true',
    });
    const b = await create(user, {
      media_type: 'VIDEO',
      video_url: `${media.url}/clip.mp4`,
      is_carousel_item: 'true',
    });
    expect(b.statusCode, b.body).toBe(200);
    const feedVideo = await create(user, {
      media_type: 'VIDEO',
      video_url: `${media.url}/clip.mp4`,
    });
    expect(feedVideo.json().error).toMatchObject({ error_subcode: 2207067 });
    const car = await create(user, {
      media_type: 'CAROUSEL',
      children: `${a.json().id},${b.json().id}`,
      caption: 'まとめて',
    });
    const id = car.json().id as string;
    expect(await statusOf(user, id)).toMatchObject({ status_code: 'IN_PROGRESS' });
    await advance(4);
    const pub = await publish(user, id);
    expect(pub.statusCode, pub.body).toBe(200);
  });

  it('content_publishing_limit counts a rolling 24 h; the 26th publish is refused', async () => {
    const user = await facebookUserToken(app);
    const limit = async () =>
      (
        await app.inject({
          url: `${G}/${IG}/content_publishing_limit?fields=quota_usage,config&access_token=${user}`,
        })
      ).json().data[0];
    expect(await limit()).toEqual({
      quota_usage: 0,
      config: { quota_total: 25, quota_duration: 86400 },
    });
    const one = async () => {
      const c = await create(user, { image_url: `${media.url}/photo.jpg` });
      return publish(user, c.json().id as string);
    };
    for (let i = 0; i < 25; i += 1) expect((await one()).statusCode).toBe(200);
    expect((await limit()).quota_usage).toBe(25);
    const over = await one();
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toMatchObject({
      code: 9,
      error_subcode: 2207042,
      type: 'OAuthException',
    });
    // A day later the window has rolled past them.
    await advance(24 * 3600 + 1);
    expect((await limit()).quota_usage).toBe(0);
    expect((await one()).statusCode).toBe(200);
  });
});

describe('Google local posts: STANDARD, EVENT, OFFER with media by sourceUrl', () => {
  const post = (token: string, body: object) =>
    app.inject({
      method: 'POST',
      url: `${GPARENT}/localPosts`,
      headers: auth(token),
      payload: body,
    });
  const day = (d: number) => ({ year: 2026, month: 12, day: d });

  it('a STANDARD post with a photo: fetched, kept, and served from Google’s own host', async () => {
    const t = await googleTokens(app);
    const res = await post(t.access_token, {
      languageCode: 'ja',
      summary: '冬季限定メニュー',
      topicType: 'STANDARD',
      media: [{ mediaFormat: 'PHOTO', sourceUrl: `${media.url}/photo.jpg` }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    const [entry] = (await fetches()).filter((f) => f.object_id === created.name);
    expect(entry?.media).toMatchObject({ mime: 'image/jpeg', bytes: 60_000, width: 1080 });
    expect(created.media[0].dimensions).toEqual({ widthPixels: 1080, heightPixels: 1080 });
    const served = await app.inject({
      url: new URL(created.media[0].googleUrl as string).pathname,
    });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.length).toBe(60_000);
  });

  it.each([
    ['a 404', '/missing.jpg', 1000, 'Fetching image failed.'],
    ['HTML claiming to be a JPEG', '/page.html', 3, 'Unsupported photo format. Use JPG or PNG.'],
  ])('%s is a v4 ValidationError', async (_l, p, code, message) => {
    const t = await googleTokens(app);
    const res = await post(t.access_token, {
      summary: 'x',
      media: [{ mediaFormat: 'PHOTO', sourceUrl: `${media.url}${p}` }],
    });
    expect(res.statusCode).toBe(400);
    const body = res.json().error;
    expect(body).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(JSON.stringify(body.details)).toContain(message);
    expect(JSON.stringify(body.details)).toContain(`"code":${code}`);
  });

  it('EVENT and OFFER posts keep their fields; the rules are checked', async () => {
    const t = await googleTokens(app);
    const event = await post(t.access_token, {
      summary: 'クリスマス試食会',
      topicType: 'EVENT',
      event: {
        title: '試食会',
        schedule: {
          startDate: day(20),
          startTime: { hours: 10 },
          endDate: day(20),
          endTime: { hours: 17 },
        },
      },
      callToAction: { actionType: 'SIGN_UP', url: 'https://cafe-tenpo.example/event' },
    });
    expect(event.statusCode, event.body).toBe(200);
    expect(event.json()).toMatchObject({
      topicType: 'EVENT',
      event: { title: '試食会' },
      callToAction: { actionType: 'SIGN_UP' },
    });
    const offer = await post(t.access_token, {
      summary: 'ケーキ 10% オフ',
      topicType: 'OFFER',
      event: { title: '年末セール', schedule: { startDate: day(26), endDate: day(31) } },
      offer: {
        couponCode: 'TENPO10',
        redeemOnlineUrl: 'https://cafe-tenpo.example/sale',
        termsConditions: 'お一人様一回限り',
      },
      callToAction: { actionType: 'LEARN_MORE', url: 'https://cafe-tenpo.example' },
    });
    expect(offer.statusCode, offer.body).toBe(200);
    expect(offer.json().offer).toEqual({
      couponCode: 'TENPO10',
      redeemOnlineUrl: 'https://cafe-tenpo.example/sale',
      termsConditions: 'お一人様一回限り',
    });
    // callToAction is ignored for OFFER posts.
    expect(offer.json().callToAction).toBeUndefined();

    const bad = async (body: object, field: string) => {
      const r = await post(t.access_token, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.json().error.details)).toContain(`"field":"${field}"`);
    };
    await bad({ summary: 'x', topicType: 'EVENT' }, 'event.title');
    await bad({ summary: 'x', topicType: 'OFFER', offer: { couponCode: 'A' } }, 'event.title');
    await bad(
      {
        summary: 'x',
        topicType: 'EVENT',
        event: { title: 'e', schedule: { startDate: day(21), endDate: day(20) } },
      },
      'event.schedule',
    );
    await bad(
      {
        summary: 'x',
        topicType: 'OFFER',
        event: { title: 'o', schedule: { startDate: day(20), endDate: day(21) } },
        offer: { redeemOnlineUrl: 'javascript:alert(1)' },
      },
      'offer.redeem_online_url',
    );
    await bad({ summary: 'x', offer: { couponCode: 'A' } }, 'offer');
    await bad(
      { summary: 'x', callToAction: { actionType: 'CALL', url: 'https://a.example' } },
      'call_to_action.url',
    );
    await bad({ summary: 'x', topicType: 'PRODUCT' }, 'topic_type');
  });

  it('the list is newest first; a deleted post is gone from it and from GET', async () => {
    const t = await googleTokens(app);
    const names: string[] = [];
    for (const summary of ['A', 'B', 'C'])
      names.push((await post(t.access_token, { summary })).json().name as string);
    const list = async () =>
      (
        (await app.inject({ url: `${GPARENT}/localPosts`, headers: auth(t.access_token) })).json()
          .localPosts as { name: string }[]
      ).map((p) => p.name);
    expect(await list()).toEqual([...names].reverse());
    const id = (names[1] as string).split('/').at(-1);
    const del = await app.inject({
      method: 'DELETE',
      url: `${GPARENT}/localPosts/${id}`,
      headers: auth(t.access_token),
    });
    expect(del.json()).toEqual({});
    expect(await list()).toEqual([names[2], names[0]]);
    const gone = await app.inject({
      url: `${GPARENT}/localPosts/${id}`,
      headers: auth(t.access_token),
    });
    expect(gone.statusCode).toBe(404);
  });
});

describe('X: text length, delete, timeline newest first', () => {
  it('refuses text over 280 weighted characters, deletes, lists newest first', async () => {
    const t = await xTokens(app);
    const long = await app.inject({
      method: 'POST',
      url: '/sandbox/x/api/2/tweets',
      headers: auth(t.access_token),
      payload: { text: 'あ'.repeat(141) },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({
      type: 'https://api.x.com/2/problems/invalid-request',
    });
    const ids: string[] = [];
    for (const text of ['一', '二', '三']) {
      const r = await app.inject({
        method: 'POST',
        url: '/sandbox/x/api/2/tweets',
        headers: auth(t.access_token),
        payload: { text },
      });
      expect(r.statusCode, r.body).toBe(201);
      ids.push(r.json().data.id as string);
      await advance(1);
    }
    const timeline = async () =>
      (
        (
          await app.inject({
            url: '/sandbox/x/api/2/users/1701234567890123456/tweets',
            headers: auth(t.access_token),
          })
        ).json().data as { id: string }[]
      ).map((x) => x.id);
    expect(await timeline()).toEqual([...ids].reverse());
    const del = await app.inject({
      method: 'DELETE',
      url: `/sandbox/x/api/2/tweets/${ids[0]}`,
      headers: auth(t.access_token),
    });
    expect(del.json()).toEqual({ data: { deleted: true } });
    expect(await timeline()).toEqual([ids[2], ids[1]]);
  });
});

describe('faults for a fraction of calls, reproducible under a seed', () => {
  const N = 300;
  const run = async (token: string): Promise<number[]> => {
    const statuses: number[] = [];
    for (let i = 0; i < N; i += 1)
      statuses.push(
        (
          await app.inject({
            url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
            headers: auth(token),
          })
        ).statusCode,
      );
    return statuses;
  };

  it('about a fifth of the calls fail with 429 or 5xx in the provider’s shape; the same seed repeats', async () => {
    const t = await googleTokens(app);
    await settings({ google: { queriesPerMinute: 100_000 } });
    const add = () =>
      app.inject({
        method: 'POST',
        url: '/sandbox/faults',
        payload: { kind: 'flaky', fraction: 0.2, seed: 7, path: '/accounts' },
      });
    const added = await add();
    expect(added.statusCode).toBe(201);
    expect(added.json().data).toMatchObject({ provider: null, fraction: 0.2, remaining: null });
    const first = await run(t.access_token);
    const failed = first.filter((s) => s !== 200);
    expect(failed.length).toBeGreaterThan(N * 0.14);
    expect(failed.length).toBeLessThan(N * 0.26);
    expect(failed.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(failed.filter((s) => s >= 500).length).toBeGreaterThan(0);
    const listed = (
      await app.inject({ url: '/sandbox/faults', headers: { accept: 'application/json' } })
    ).json().data[0];
    expect(listed).toMatchObject({ seen: N, fired: failed.length });

    // Same seed, same calls: the same calls fail.
    await app.inject({ method: 'DELETE', url: '/sandbox/faults' });
    await add();
    expect(await run(t.access_token)).toEqual(first);
  }, 60_000);

  it('the 429 carries Google’s RetryInfo; X’s carries x-rate-limit-*; limits by provider and method hold', async () => {
    const g = await googleTokens(app);
    await app.inject({
      method: 'POST',
      url: '/sandbox/faults',
      payload: { provider: 'google', kind: 'rate_limit', fraction: 1, retry_after_seconds: 30 },
    });
    const limited = await app.inject({
      url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
      headers: auth(g.access_token),
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.status).toBe('RESOURCE_EXHAUSTED');
    expect(JSON.stringify(limited.json().error.details)).toContain('RetryInfo');
    await app.inject({ method: 'DELETE', url: '/sandbox/faults' });

    const x = await xTokens(app);
    await app.inject({
      method: 'POST',
      url: '/sandbox/faults',
      payload: { provider: 'x', kind: 'rate_limit', fraction: 0.5, seed: 3, method: 'POST' },
    });
    // GETs are not affected.
    for (let i = 0; i < 10; i += 1)
      expect(
        (await app.inject({ url: '/sandbox/x/api/2/users/me', headers: auth(x.access_token) }))
          .statusCode,
      ).toBe(200);
    const answers = [];
    for (let i = 0; i < 20; i += 1)
      answers.push(
        await app.inject({
          method: 'POST',
          url: '/sandbox/x/api/2/tweets',
          headers: auth(x.access_token),
          payload: { text: `投稿 ${i}` },
        }),
      );
    const limitedX = answers.filter((r) => r.statusCode === 429);
    expect(limitedX.length).toBeGreaterThan(2);
    expect(limitedX.length).toBeLessThan(18);
    expect(limitedX[0]?.headers['x-rate-limit-remaining']).toBe('0');
    expect(limitedX[0]?.json()).toMatchObject({ title: 'Too Many Requests', status: 429 });
    expect(answers.filter((r) => r.statusCode === 201).length).toBe(20 - limitedX.length);
  });

  it('a bad fraction is refused; the per-path count fault still works', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/sandbox/faults',
      payload: { provider: 'x', kind: 'server_error', fraction: 1.5 },
    });
    expect(bad.statusCode).toBe(400);
    const g = await googleTokens(app);
    await app.inject({
      method: 'POST',
      url: '/sandbox/faults',
      payload: {
        provider: 'google',
        kind: 'server_error',
        status: 500,
        count: 2,
        path: '/accounts',
      },
    });
    const codes = [];
    for (let i = 0; i < 3; i += 1)
      codes.push(
        (
          await app.inject({
            url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
            headers: auth(g.access_token),
          })
        ).statusCode,
      );
    expect(codes).toEqual([500, 500, 200]);
  });
});
