import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ja, type PostView } from '@tenpo/domain';
import { credentialHandle } from '../src/channels/channel';
import { call, json, login, type TestApp } from './helpers';
import {
  ALL,
  CREATE,
  photoJpeg,
  postsHelpers,
  startPostsWorld,
  type Created,
  type PostsWorld,
} from './posts-harness';
import { connectThroughConsent, X_USER, type RunningSandbox } from './sandbox';

/**
 * Posts end to end (issue 9, parts 2 and 3): the API and its job engine against the emulators
 * on a free port. The API listens on a port of its own too, because the providers fetch the
 * media from its public URL as the real ones do. What reached a provider is counted on the
 * sandbox's side: its call counters and its own post lists.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let token = '';
let shop = 0;
const { countOf, atProvider, submit, targetsOf, drainUntil, stateOf, tokyoIn } = postsHelpers(
  () => w,
);

/** A photo every channel takes: 1200×900 (one of X's sizes), noisy so it weighs over 10 KB. */
let photo: Buffer;

const rows = async () => {
  const db = t.database.db;
  const n = async (table: 'posts' | 'post_media' | 'post_targets' | 'jobs') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((e) => e.fn.countAll<number>().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
  const dir = path.join(t.config.dataDir, 'uploads', 'media');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).length : 0;
  return {
    posts: await n('posts'),
    media: await n('post_media'),
    targets: await n('post_targets'),
    jobs: await n('jobs'),
    files,
  };
};

beforeAll(async () => {
  photo = await photoJpeg();
  // A short provider time-out (1.5 s, room for a loaded machine): a slow one ends `outcome_unknown`.
  w = await startPostsWorld({ channelTimeoutMs: 1500 });
  ({ sb, t, token, shop } = w);
});

afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  await sb.control('DELETE', '/control/calls');
});

describe('POST /api/posts delivers one post per store × channel: sending, scheduled, timed out', () => {
  it('text and a photo to all four channels of the demo shop: exactly one post at each provider', async () => {
    const text = `本日のおすすめ ${Date.now()}`;
    const res = await submit(
      { user_id: String(shop), content: text, shared_sns_type: ALL.join(',') },
      { 'medias[0]': { filename: 'lunch.jpg', type: 'image/jpeg', data: photo } },
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = json<Created>(res).data;
    expect(body.posts).toHaveLength(1);
    const post = body.posts[0] as PostView;
    expect(post.targets.map((x) => [x.publisher_key, x.state])).toEqual(
      ALL.map((k) => [k, 'scheduled']),
    );
    // The page shows it on whatever host it was opened on (issue 23 item 7); providers get an
    // absolute URL (posts.jobs, storage.url).
    expect(post.media_url[0]).toMatch(/^\/uploads\/media\/posts\/.+\.jpg$/);

    await drainUntil(async () =>
      Object.values(await stateOf(post.id)).every((s) => s === 'published'),
    );
    for (const key of ALL) {
      expect(await countOf('POST', CREATE[key]), key).toBe(1);
      expect(await atProvider(key, text), key).toHaveLength(1);
    }
    const after = await targetsOf(post.id);
    expect(after.state).toBe('published');
    for (const x of after.targets) {
      expect(x.external_id).toBeTruthy();
      expect(x.errors).toEqual([]);
    }
    // The providers fetched the photo from our public URL.
    const media = await fetch(`${t.config.publicUrl}${post.media_url[0] as string}`);
    expect(media.status).toBe(200);
    // Read to the end: an unread body keeps the connection busy, and the server's close waits.
    expect(Buffer.from(await media.arrayBuffer()).equals(photo)).toBe(true);

    // Draining again sends nothing more.
    await t.app.queue.drain();
    for (const key of ALL) expect(await countOf('POST', CREATE[key]), key).toBe(1);

    // The list shows it, paged in the spec's shape.
    const list = await call(t.app, {
      method: 'GET',
      url: `/api/posts?user_id=${shop}&post_key_search=${encodeURIComponent(text)}`,
      token,
    });
    expect(list.statusCode, list.body).toBe(200);
    const page = json<{ data: { data: { data: PostView[]; total: number; per_page: number } } }>(
      list,
    ).data.data;
    expect(page.total).toBe(1);
    expect(page.per_page).toBe(5);
    expect(page.data[0]?.targets).toHaveLength(4);
  });

  it('a scheduled post is not sent before its time, and is sent when due', async () => {
    const text = `週末限定メニュー ${Date.now()}`;
    const res = await submit({
      user_id: String(shop),
      content: text,
      shared_sns_type: 'google_my_business,facebook',
      publish_date: tokyoIn(10 * 60_000),
    });
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    await t.app.queue.drain();
    expect(await stateOf(post.id)).toEqual({
      google_my_business: 'scheduled',
      facebook: 'scheduled',
    });
    expect(await countOf('POST', CREATE.google_my_business)).toBe(0);
    expect(await countOf('POST', CREATE.facebook)).toBe(0);

    t.clock.advance(10 * 60_000 + 1000);
    await drainUntil(async () =>
      Object.values(await stateOf(post.id)).every((s) => s === 'published'),
    );
    expect(await atProvider('google_my_business', text)).toHaveLength(1);
    expect(await atProvider('facebook', text)).toHaveLength(1);
  });

  it('a publish that times out is settled with the provider: published, never sent twice', async () => {
    const text = `臨時休業のお知らせ ${Date.now()}`;
    // X answers after our time-out (1.5 s) and still creates the tweet.
    await sb.control('POST', '/faults', {
      provider: 'x',
      kind: 'slow',
      delay_ms: 3500,
      method: 'POST',
      path: '/2/tweets',
    });
    const res = await submit({ user_id: String(shop), content: text, shared_sns_type: 'twitter' });
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    await drainUntil(async () => (await stateOf(post.id)).twitter === 'unknown');
    const unknown = (await targetsOf(post.id)).targets[0];
    expect(unknown?.errors).toEqual([ja.channelOutcomeUnknown('X')]);
    expect(unknown?.retryable).toBe(false);
    // Not before the settle delay: the job waits, and sends nothing meanwhile.
    await t.app.queue.drain();
    expect(await countOf('POST', CREATE.twitter)).toBe(1);
    // The provider finishes; then the job reads its timeline and finds the tweet.
    for (let i = 0; i < 200 && (await atProvider('twitter', text)).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    t.clock.advance(60_000);
    await drainUntil(async () => (await stateOf(post.id)).twitter === 'published');
    expect(await countOf('POST', CREATE.twitter)).toBe(1);
    expect(await atProvider('twitter', text)).toHaveLength(1);
    expect((await targetsOf(post.id)).targets[0]?.external_id).toBeTruthy();
  });
});

describe('POST /api/posts delivers one post per store × channel: failures, retries, removal', () => {
  it('a failure on one channel leaves the others published; the failed one shows why', async () => {
    const text = `新商品のご案内 ${Date.now()}`;
    // Instagram answers 503 to every publish: its target fails after its retries, alone.
    const fault = await sb.control('POST', '/faults', {
      provider: 'instagram',
      kind: 'server_error',
      status: 503,
      count: 'until_cleared',
      method: 'POST',
    });
    expect(JSON.stringify(fault)).toContain('"instagram"');
    const res = await submit(
      {
        user_id: String(shop),
        content: text,
        shared_sns_type: 'google_my_business,facebook,instagram',
      },
      { 'medias[0]': { filename: 'new.jpg', type: 'image/jpeg', data: photo } },
    );
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    await drainUntil(async () => {
      t.clock.advance(2 * 3600_000);
      return Object.values(await stateOf(post.id)).every(
        (s) => s === 'published' || s === 'failed',
      );
    });
    await sb.control('DELETE', '/faults');
    const after = await targetsOf(post.id);
    expect(Object.fromEntries(after.targets.map((x) => [x.publisher_key, x.state]))).toEqual({
      google_my_business: 'published',
      facebook: 'published',
      instagram: 'failed',
    });
    expect(after.state).toBe('partially_published');
    const ig = after.targets.find((x) => x.publisher_key === 'instagram');
    expect(ig?.error_kind).toBe('transient');
    expect(ig?.errors).toEqual([ja.postPublishFailed('Instagram'), ja.channelRetry('Instagram')]);
    expect(ig?.retryable).toBe(true);
    expect(await atProvider('google_my_business', text)).toHaveLength(1);
    expect(await atProvider('facebook', text)).toHaveLength(1);
  });

  it('a target that failed after its retries succeeds when retried from the screen, once', async () => {
    const text = `店内改装のお知らせ ${Date.now()}`;
    await sb.control('POST', '/faults', {
      provider: 'facebook',
      kind: 'server_error',
      status: 503,
      count: 'until_cleared',
      method: 'POST',
      path: '/feed',
    });
    const res = await submit({
      user_id: String(shop),
      content: text,
      shared_sns_type: 'facebook,google_my_business',
    });
    const post = json<Created>(res).data.posts[0] as PostView;
    // The engine backs off between attempts: move the clock past each wait.
    await drainUntil(async () => {
      t.clock.advance(2 * 3600_000);
      return (await stateOf(post.id)).facebook === 'failed';
    });
    const failed = (await targetsOf(post.id)).targets.find((x) => x.publisher_key === 'facebook');
    expect(failed?.errors).toEqual([ja.postPublishFailed('Facebook'), ja.channelRetry('Facebook')]);
    expect(await atProvider('facebook', text)).toHaveLength(0);
    expect((await stateOf(post.id)).google_my_business).toBe('published');

    await sb.control('DELETE', '/faults');
    await sb.control('DELETE', '/control/calls');
    const retry = await call(t.app, {
      method: 'POST',
      url: `/api/posts/${post.id}/targets/${failed?.id}/retry`,
      token,
    });
    expect(retry.statusCode, retry.body).toBe(200);
    await drainUntil(async () => (await stateOf(post.id)).facebook === 'published');
    expect(await countOf('POST', CREATE.facebook)).toBe(1);
    expect(await atProvider('facebook', text)).toHaveLength(1);
    // A published target is not retried.
    const again = await call(t.app, {
      method: 'POST',
      url: `/api/posts/${post.id}/targets/${failed?.id}/retry`,
      token,
    });
    expect(again.statusCode).toBe(422);
  });

  it('removes the post at delete_date from Google, Facebook and X; Instagram keeps it and says so', async () => {
    const text = `期間限定セール ${Date.now()}`;
    const res = await submit(
      {
        user_id: String(shop),
        content: text,
        shared_sns_type: ALL.join(','),
        delete_date: tokyoIn(20 * 60_000),
      },
      { 'medias[0]': { filename: 'sale.jpg', type: 'image/jpeg', data: photo } },
    );
    expect(res.statusCode, res.body).toBe(200);
    const created = json<Created>(res).data;
    expect(created.notes).toEqual([ja.postNoRemoval('Instagram')]);
    const post = created.posts[0] as PostView;
    await drainUntil(async () =>
      Object.values(await stateOf(post.id)).every((s) => s === 'published'),
    );
    for (const key of ALL) expect(await atProvider(key, text), key).toHaveLength(1);
    // Not before its time.
    await t.app.queue.drain();
    for (const key of ALL) expect(await atProvider(key, text), key).toHaveLength(1);

    t.clock.advance(20 * 60_000 + 1000);
    await drainUntil(async () => {
      const s = await stateOf(post.id);
      return (
        s.google_my_business === 'removed' && s.facebook === 'removed' && s.twitter === 'removed'
      );
    });
    expect((await stateOf(post.id)).instagram).toBe('published');
    for (const key of ['google_my_business', 'facebook', 'twitter'] as const)
      expect(await atProvider(key, text), key).toHaveLength(0);
    expect(await atProvider('instagram', text)).toHaveLength(1);
  });
});

describe('faults on the way', () => {
  it("a rate limit waits for the provider's reset time, then publishes once", async () => {
    const text = `雨の日割引 ${Date.now()}`;
    await sb.control('POST', '/faults', {
      provider: 'x',
      kind: 'rate_limit',
      retry_after_seconds: 600,
      method: 'POST',
      path: '/2/tweets',
    });
    const res = await submit({ user_id: String(shop), content: text, shared_sns_type: 'twitter' });
    const post = json<Created>(res).data.posts[0] as PostView;
    await drainUntil(
      async () => (await targetsOf(post.id)).targets[0]?.error_kind === 'rate_limited',
    );
    const waiting = (await targetsOf(post.id)).targets[0];
    expect(waiting?.state).toBe('scheduled');
    expect(waiting?.errors).toEqual([ja.postPublishFailed('X'), ja.channelQuota('X')]);
    // Before the reset nothing is sent.
    t.clock.advance(5 * 60_000);
    await t.app.queue.drain();
    expect(await countOf('POST', CREATE.twitter)).toBe(1);
    t.clock.advance(6 * 60_000);
    await drainUntil(async () => (await stateOf(post.id)).twitter === 'published');
    expect(await countOf('POST', CREATE.twitter)).toBe(2);
    expect(await atProvider('twitter', text)).toHaveLength(1);
    expect((await targetsOf(post.id)).targets[0]?.errors).toEqual([]);
  });

  it('a worker that died after sending: the next run finds the post and sends nothing', async () => {
    const text = `閉店時間変更 ${Date.now()}`;
    const res = await submit({
      user_id: String(shop),
      content: text,
      shared_sns_type: 'facebook',
      publish_date: tokyoIn(5 * 60_000),
    });
    const post = json<Created>(res).data.posts[0] as PostView;
    const target = post.targets[0];
    // What the dead worker did: marked the target, sent the post, and died before recording.
    await t.database.db
      .updateTable('post_targets')
      .set({ state: 'publishing', attempts: 1, sent_at: new Date().toISOString() })
      .where('id', '=', target?.id as number)
      .execute();
    const sent = await w.reader.registry
      .require('facebook', 'publish')
      .publish(credentialHandle(shop, 'facebook'), { text, media: [] });
    await sb.control('DELETE', '/control/calls');
    t.clock.advance(5 * 60_000 + 1000);
    await drainUntil(async () => (await stateOf(post.id)).facebook === 'published');
    expect(await countOf('POST', CREATE.facebook)).toBe(0);
    expect((await targetsOf(post.id)).targets[0]?.external_id).toBe(sent.id);
    expect(await atProvider('facebook', text)).toHaveLength(1);
  });

  it('a channel disconnected before the post was due: failed at once, with the reason', async () => {
    const text = `予約投稿 ${Date.now()}`;
    const res = await submit({
      user_id: String(shop),
      content: text,
      shared_sns_type: 'twitter',
      publish_date: tokyoIn(5 * 60_000),
    });
    const post = json<Created>(res).data.posts[0] as PostView;
    const off = await call(t.app, {
      method: 'PUT',
      url: '/api/publisher/disconnect',
      token,
      payload: { user_id: shop, publisher_id: 4 },
    });
    expect(off.statusCode, off.body).toBe(200);
    try {
      t.clock.advance(5 * 60_000 + 1000);
      await drainUntil(async () => (await stateOf(post.id)).twitter === 'failed');
      expect((await targetsOf(post.id)).targets[0]?.errors).toEqual([
        ja.postPublishFailed('X'),
        ja.channelNotConnected('X'),
      ]);
      expect(await countOf('POST', CREATE.twitter)).toBe(0);
    } finally {
      // X back as before, connected as the browser does.
      await connectThroughConsent(t.app, token, shop, 'twitter', {
        user_id: X_USER,
        decision: 'allow',
      });
    }
  });
});

describe('refused requests save nothing', () => {
  const bad: [string, () => Promise<Record<string, string>>, string, number][] = [
    [
      'a link button without an http(s) link',
      async () => ({ button_type: '4', button_link: 'ftp://example.com' }),
      ja.postButtonLinkInvalid,
      422,
    ],
    [
      'a publish date in the past (Tokyo)',
      async () => ({ publish_date: tokyoIn(-3600_000) }),
      ja.postDateFromNow,
      422,
    ],
    [
      'an unknown channel',
      async () => ({ shared_sns_type: 'google_my_business,myspace' }),
      ja.postChannelUnknown,
      422,
    ],
    [
      'a store the session may not act for (404, before any field check)',
      async () => {
        const trial = await t.database.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'newshop@tenpo.example')
          .executeTakeFirstOrThrow();
        return { user_id: String(trial.id) };
      },
      '',
      404,
    ],
  ];

  it.each(bad)('%s', async (_what, extra, message, status) => {
    const before = await rows();
    const res = await submit(
      {
        user_id: String(shop),
        content: '本文',
        shared_sns_type: 'google_my_business',
        ...(await extra()),
      },
      { 'medias[0]': { filename: 'a.jpg', type: 'image/jpeg', data: photo } },
    );
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(JSON.stringify(json(res))).toContain(message);
    expect(await rows()).toEqual(before);
  });

  it('a channel not connected for one of the stores: 422 in Japanese, nothing saved', async () => {
    const before = await rows();
    const agency = await login(t.app, 'agency@tenpo.example');
    const stores = await t.database.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', 'in', ['store02@tenpo.example', 'store04@tenpo.example'])
      .orderBy('email')
      .execute();
    const res = await submit(
      {
        user_id: stores.map((s) => s.id).join(','),
        content: '本文',
        shared_sns_type: 'google_my_business',
      },
      { 'medias[0]': { filename: 'a.jpg', type: 'image/jpeg', data: photo } },
      agency,
    );
    expect(res.statusCode, res.body).toBe(422);
    const errors = json<{ errors: Record<string, string[]> }>(res).errors;
    expect(errors.shared_sns_type?.[0]).toContain('Google');
    expect(await rows()).toEqual(before);
  });

  it('eleven files, or a file that is not an image or video: 422, nothing saved', async () => {
    const before = await rows();
    const files = Object.fromEntries(
      Array.from({ length: 11 }, (_, i) => [
        `medias[${i}]`,
        { filename: `${i}.jpg`, type: 'image/jpeg', data: photo },
      ]),
    );
    const many = await submit(
      { user_id: String(shop), content: '本文', shared_sns_type: 'facebook' },
      files,
    );
    expect([413, 422]).toContain(many.statusCode);
    const fake = await submit(
      { user_id: String(shop), content: '本文', shared_sns_type: 'facebook' },
      { 'medias[0]': { filename: 'a.jpg', type: 'image/jpeg', data: Buffer.from('not a jpeg') } },
    );
    expect(fake.statusCode).toBe(422);
    expect(JSON.stringify(json(fake))).toContain(ja.postFileFormat);
    expect(await rows()).toEqual(before);
  });
});

describe('the channels’ rules, checked on the server from the stored bytes (ADR 0025)', () => {
  it('refuses what a target channel cannot take, with its Japanese message, and saves nothing', async () => {
    const before = await rows();
    // 200×200: under Google's 250×250, whatever the file claims to be.
    const small = await sharp({
      create: { width: 200, height: 200, channels: 3, background: '#8a5' },
    })
      .jpeg()
      .toBuffer();
    const tooSmall = await submit(
      { user_id: String(shop), content: '本日のおすすめ', shared_sns_type: 'google_my_business' },
      { 'medias[0]': { filename: 'small.jpg', type: 'image/jpeg', data: small } },
    );
    expect(tooSmall.statusCode, tooSmall.body).toBe(422);
    expect(JSON.stringify(json(tooSmall))).toContain('解像度が小さすぎます');
    // Instagram takes no post without a photo or video.
    const textOnly = await submit({
      user_id: String(shop),
      content: '本日のおすすめ',
      shared_sns_type: 'instagram',
    });
    expect(textOnly.statusCode).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(textOnly).errors.medias).toEqual([
      ja.postMediaRequired('Instagram'),
    ]);
    expect(await rows()).toEqual(before);
  });
});

describe('an agency posts to several stores in one submission', () => {
  it('one post per store, one target each, all published', async () => {
    const agency = await login(t.app, 'agency@tenpo.example');
    const stores = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', 'in', [
        'store02@tenpo.example',
        'store03@tenpo.example',
        'store05@tenpo.example',
      ])
      .execute();
    const ids = stores.map((s) => s.id);
    const text = `エリア合同キャンペーン ${Date.now()}`;
    const res = await submit(
      { user_id: ids.join(','), content: text, shared_sns_type: 'google_my_business' },
      {},
      agency,
    );
    expect(res.statusCode, res.body).toBe(200);
    const created = json<Created>(res).data;
    expect(created.posts.map((p) => p.user_id).sort()).toEqual([...ids].sort());
    expect(new Set(created.posts.map((p) => p.submission_id)).size).toBe(1);
    await drainUntil(async () => {
      const list = await call(t.app, {
        method: 'GET',
        url: `/api/posts?user_id=${ids.join(',')}&limit=10&post_key_search=${encodeURIComponent(text)}`,
        token: agency,
      });
      const page = json<{ data: { data: { data: PostView[] } } }>(list).data.data;
      return page.data.length === 3 && page.data.every((p) => p.state === 'published');
    });
    expect(await countOf('POST', CREATE.google_my_business)).toBe(3);
  });
});
