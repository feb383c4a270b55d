import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type PostView, type PublisherKey } from '@tenpo/domain';
import { credentialHandle, type PublishedPost } from '../src/channels/channel';
import { findPublished } from '../src/channels/settle';
import type { TargetPart } from '../src/modules/posts/posts.parts';
import { json, login, type TestApp } from './helpers';
import { videoMp4 } from './media-server';
import {
  photoJpeg,
  postsHelpers,
  startPostsWorld,
  type Created,
  type PostsWorld,
} from './posts-harness';
import type { RunningSandbox } from './sandbox';

/**
 * Issue 9, delivery: a post with photos and a video goes to Facebook and X as the provider
 * posts `splitPost` describes (spec 2 §4), each sent once, settled on its own after a
 * time-out, and removed at delete_date with the others; X's video goes through the chunked
 * upload; settling on X matches a text whose links X returned as t.co links; and stores on one
 * Instagram account share its 25 posts a day. Everything is counted on the sandbox's side.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
/** The page gets a path (issue 23 item 7); a provider fetches it from PUBLIC_URL. */
const providerUrl = (path: string): string => new URL(path, t.config.publicUrl).href;
let shop = 0;
const { countOf, submit, targetsOf, drainUntil, stateOf, tokyoIn } = postsHelpers(() => w);

let photo: Buffer;
const video = videoMp4(1280, 720, 8);
const SPLIT: PublisherKey[] = ['facebook', 'twitter'];

beforeAll(async () => {
  photo = await photoJpeg();
  w = await startPostsWorld({ channelTimeoutMs: 1500 });
  ({ sb, t, shop } = w);
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  await sb.control('DELETE', '/control/calls');
  // Videos are ready after 300 ms instead of the providers' seconds.
  await sb.control('PATCH', '/control/settings', {
    x: { videoProcessingMs: 300 },
    facebook: { videoProcessingMs: 300 },
  });
});

/** A photo and a video in one post. */
const files = () => ({
  'medias[0]': { filename: 'lunch.jpg', type: 'image/jpeg', data: photo },
  'medias[1]': { filename: 'shop.mp4', type: 'video/mp4', data: video },
});

/** Every post the provider lists for the shop since an hour ago (its own state). */
const listed = async (key: PublisherKey): Promise<PublishedPost[]> =>
  w.reader.registry
    .require(key, 'listRecent')
    .listRecent(credentialHandle(shop, key), { since: new Date(Date.now() - 3600_000) });
const listedIds = async (key: PublisherKey) => new Set((await listed(key)).map((p) => p.id));

const partsOfTarget = async (targetId: number): Promise<TargetPart[]> => {
  const row = await t.database.db
    .selectFrom('post_targets')
    .select('parts')
    .where('id', '=', targetId)
    .executeTakeFirstOrThrow();
  return row.parts ? (JSON.parse(row.parts) as TargetPart[]) : [];
};
const targetOf = (post: PostView, key: PublisherKey) =>
  post.targets.find((x) => x.publisher_key === key) as PostView['targets'][number];

/** Provider posts made (Facebook: a photo post and a video post; X: tweets). */
const madeAt = async (key: PublisherKey) =>
  key === 'facebook'
    ? (await countOf('POST', /\/photos$/)) +
      (await countOf('POST', /\/videos$/)) +
      (await countOf('POST', /\/feed$/))
    : countOf('POST', /\/2\/tweets$/);

describe('photo and video together: Facebook and X split the post (spec 2 §4): sending each part once', () => {
  it('one post becomes two provider posts on each channel, each sent once, all recorded', async () => {
    const text = `新メニューの動画 ${Date.now()}`;
    const res = await submit(
      { user_id: String(shop), content: text, shared_sns_type: SPLIT.join(',') },
      files(),
    );
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    await drainUntil(async () =>
      Object.values(await stateOf(post.id)).every((s) => s === 'published'),
    );
    const view = await targetsOf(post.id);
    for (const key of SPLIT) {
      expect(await madeAt(key), key).toBe(2);
      const target = targetOf(view, key);
      expect(
        target.parts?.map((p) => p.state),
        key,
      ).toEqual(['published', 'published']);
      const ids = target.parts?.map((p) => p.external_id) ?? [];
      expect(new Set(ids).size, key).toBe(2);
      // The target's link is the first part's (the one with the text).
      expect(target.external_id, key).toBe(ids[0]);
      // Both are live at the provider: the text with the photo, then the video alone.
      const live = await listed(key);
      const mine = ids.map((id) => live.find((p) => p.id === id));
      expect(mine.every(Boolean), key).toBe(true);
      expect(mine[0]?.text.startsWith(text), key).toBe(true);
      expect(mine[1]?.text.includes(text), key).toBe(false);
    }
    // X's video went through the chunked upload (initialize, append, finalize, STATUS), the
    // photo through the one-shot upload.
    expect(await countOf('POST', /\/2\/media\/upload\/initialize$/)).toBe(1);
    expect(await countOf('POST', /\/2\/media\/upload\/\d+\/append$/)).toBe(1);
    expect(await countOf('POST', /\/2\/media\/upload\/\d+\/finalize$/)).toBe(1);
    expect(await countOf('GET', /\/2\/media\/upload$/)).toBeGreaterThan(0);
    expect(await countOf('POST', /\/2\/media\/upload$/)).toBe(1);

    // Draining again sends nothing more.
    await t.app.queue.drain();
    for (const key of SPLIT) expect(await madeAt(key), key).toBe(2);
  });

  it("the first part's call times out: settled with the provider, never sent twice, then the video", async () => {
    for (const key of SPLIT) {
      await sb.control('DELETE', '/faults');
      await sb.control('DELETE', '/control/calls');
      const text = `動画つき週末のお知らせ ${key} ${Date.now()}`;
      // The first create call answers after our time-out (1.5 s) and still makes the post.
      await sb.control('POST', '/faults', {
        provider: key === 'twitter' ? 'x' : 'facebook',
        kind: 'slow',
        delay_ms: 3500,
        method: 'POST',
        path: key === 'twitter' ? '/2/tweets' : '/photos',
        count: 1,
      });
      const before = await listedIds(key);
      const res = await submit(
        { user_id: String(shop), content: text, shared_sns_type: key },
        files(),
      );
      expect(res.statusCode, res.body).toBe(200);
      const post = json<Created>(res).data.posts[0] as PostView;
      await drainUntil(async () => (await stateOf(post.id))[key] === 'unknown');
      expect(await madeAt(key), key).toBe(1);
      // The provider finishes the slow call; then the job reads the provider and finds it.
      for (let i = 0; i < 200 && (await listedIds(key)).size === before.size; i++)
        await new Promise((r) => setTimeout(r, 50));
      t.clock.advance(60_000);
      await drainUntil(async () => (await stateOf(post.id))[key] === 'published');
      expect(await madeAt(key), key).toBe(2);
      const fresh = [...(await listedIds(key))].filter((id) => !before.has(id));
      expect(fresh, key).toHaveLength(2);
      const parts = targetOf(await targetsOf(post.id), key).parts ?? [];
      expect(new Set(parts.map((p) => p.external_id)), key).toEqual(new Set(fresh));
    }
  });

  it('three videos on Facebook: a part that never reached the provider is sent, not mistaken for the part before it', async () => {
    const text = `動画三本 ${Date.now()}`;
    const mp4 = (n: number) => ({ filename: `clip${n}.mp4`, type: 'video/mp4', data: video });
    const res = await submit(
      {
        user_id: String(shop),
        content: text,
        shared_sns_type: 'facebook',
        publish_date: tokyoIn(5 * 60_000),
      },
      { 'medias[0]': mp4(0), 'medias[1]': mp4(1), 'medias[2]': mp4(2) },
    );
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    const target = targetOf(post, 'facebook');
    const h = credentialHandle(shop, 'facebook');
    const publisher = w.reader.registry.require('facebook', 'publish');
    // Parts 1 and 2 went out and were recorded; the third was about to be sent when the worker
    // died, before its call reached Facebook.
    const one = await publisher.publish(h, {
      text,
      media: [{ kind: 'video', url: providerUrl(post.media_url[0] as string) }],
    });
    const two = await publisher.publish(h, {
      text: '',
      media: [{ kind: 'video', url: providerUrl(post.media_url[1] as string) }],
    });
    const live = (id: string, url: string | null): TargetPart => ({
      id,
      url,
      state: 'published',
      sent_at: null,
      media_ids: [],
      removed_at: null,
    });
    const sentAt = new Date().toISOString();
    const parts: TargetPart[] = [
      live(one.id, one.url),
      live(two.id, two.url),
      { id: null, url: null, state: 'pending', sent_at: sentAt, media_ids: [], removed_at: null },
    ];
    await t.database.db
      .updateTable('post_targets')
      .set({ state: 'publishing', attempts: 1, sent_at: sentAt, parts: JSON.stringify(parts) })
      .where('id', '=', target.id)
      .execute();
    await sb.control('DELETE', '/control/calls');
    t.clock.advance(5 * 60_000 + 1000);
    await drainUntil(async () => (await stateOf(post.id)).facebook === 'published');
    // The second text-less video is already ours: the third is sent, once.
    expect(await countOf('POST', /\/videos$/)).toBe(1);
    const recorded = (await partsOfTarget(target.id)).map((p) => p.id);
    expect(recorded.slice(0, 2)).toEqual([one.id, two.id]);
    expect(new Set(recorded).size).toBe(3);
    expect((await listedIds('facebook')).has(recorded[2] as string)).toBe(true);
  });
});

describe('photo and video together: Facebook and X split the post (spec 2 §4): a dead worker, and removal', () => {
  it('a worker that died after sending the text-less video part: the next run finds it by its media, sends nothing', async () => {
    for (const key of SPLIT) {
      const text = `店内の様子 ${key} ${Date.now()}`;
      const res = await submit(
        {
          user_id: String(shop),
          content: text,
          shared_sns_type: key,
          publish_date: tokyoIn(5 * 60_000),
        },
        files(),
      );
      const post = json<Created>(res).data.posts[0] as PostView;
      const target = targetOf(post, key);
      const h = credentialHandle(shop, key);
      const registry = w.reader.registry;
      // What the dead worker did: the photo part went out and was recorded; the video part
      // was sent (its media uploaded first on X) and the worker died before recording it.
      const first = await registry.require(key, 'publish').publish(h, {
        text,
        media: [{ kind: 'photo', url: providerUrl(post.media_url[0] as string) }],
      });
      const uploaded =
        key === 'twitter'
          ? await registry
              .require(key, 'uploadMedia')
              .uploadMedia(h, { kind: 'video', contentType: 'video/mp4', bytes: video })
          : { kind: 'video' as const, url: providerUrl(post.media_url[1] as string) };
      const sentAt = new Date().toISOString();
      // A text-less video of someone else's making in the same minute: not ours. On X it is
      // the newest (the media id tells them apart); on Facebook, which lists no media ids, it
      // comes first and ours is the newest text-less video.
      const postStranger = async () =>
        registry.require(key, 'publish').publish(h, {
          text: '',
          media: [
            key === 'twitter'
              ? await registry
                  .require(key, 'uploadMedia')
                  .uploadMedia(h, { kind: 'video', contentType: 'video/mp4', bytes: video })
              : { kind: 'video', url: providerUrl(post.media_url[1] as string) },
          ],
        });
      const early = key === 'facebook' ? await postStranger() : null;
      const second = await registry
        .require(key, 'publish')
        .publish(h, { text: '', media: [uploaded] });
      const stranger = early ?? (await postStranger());
      const parts: TargetPart[] = [
        {
          id: first.id,
          url: first.url,
          state: 'published',
          sent_at: null,
          media_ids: [],
          removed_at: null,
        },
        {
          id: null,
          url: null,
          state: 'pending',
          sent_at: sentAt,
          media_ids: uploaded.providerId ? [uploaded.providerId] : [],
          removed_at: null,
        },
      ];
      await t.database.db
        .updateTable('post_targets')
        .set({ state: 'publishing', attempts: 1, sent_at: sentAt, parts: JSON.stringify(parts) })
        .where('id', '=', target.id)
        .execute();
      await sb.control('DELETE', '/control/calls');
      t.clock.advance(5 * 60_000 + 1000);
      await drainUntil(async () => (await stateOf(post.id))[key] === 'published');
      expect(await madeAt(key), key).toBe(0);
      const recorded = (await partsOfTarget(target.id)).map((p) => p.id);
      expect(recorded, key).toEqual([first.id, second.id]);
      expect(recorded, key).not.toContain(stranger.id);
    }
  });

  it('removal at delete_date takes down every part, each once', async () => {
    const text = `期間限定の動画 ${Date.now()}`;
    const res = await submit(
      {
        user_id: String(shop),
        content: text,
        shared_sns_type: SPLIT.join(','),
        delete_date: tokyoIn(20 * 60_000),
      },
      files(),
    );
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    await drainUntil(async () =>
      Object.values(await stateOf(post.id)).every((s) => s === 'published'),
    );
    const view = await targetsOf(post.id);
    const ids = Object.fromEntries(
      SPLIT.map((k) => [k, targetOf(view, k).parts?.map((p) => p.external_id as string) ?? []]),
    ) as Record<PublisherKey, string[]>;
    for (const key of SPLIT) {
      expect(ids[key], key).toHaveLength(2);
      const live = await listedIds(key);
      for (const id of ids[key]) expect(live.has(id), key).toBe(true);
    }
    await sb.control('DELETE', '/control/calls');
    t.clock.advance(20 * 60_000 + 1000);
    await drainUntil(async () =>
      Object.values(await stateOf(post.id)).every((s) => s === 'removed'),
    );
    for (const key of SPLIT) {
      const live = await listedIds(key);
      for (const id of ids[key]) expect(live.has(id), `${key} ${id}`).toBe(false);
      const parts = targetOf(await targetsOf(post.id), key).parts ?? [];
      expect(
        parts.map((p) => p.state),
        key,
      ).toEqual(['removed', 'removed']);
    }
    expect(await countOf('DELETE', /\/2\/tweets\/\d+$/)).toBe(2);
    expect(await countOf('DELETE', /\/\d+_\d+$/)).toBe(2);
    // Nothing more on another pass.
    await t.app.queue.drain();
    expect(await countOf('DELETE', /\/2\/tweets\/\d+$/)).toBe(2);
  });
});

describe('a split post whose later part was refused', () => {
  it('the target failed with its first part live: removal at delete_date still takes that part down', async () => {
    const text = `動画は届かず ${Date.now()}`;
    const res = await submit(
      {
        user_id: String(shop),
        content: text,
        shared_sns_type: 'twitter',
        publish_date: tokyoIn(5 * 60_000),
        delete_date: tokyoIn(20 * 60_000),
      },
      files(),
    );
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    const target = targetOf(post, 'twitter');
    // What delivery left: the photo part went out, X refused the video part for good.
    const first = await w.reader.registry
      .require('twitter', 'publish')
      .publish(credentialHandle(shop, 'twitter'), { text, media: [] });
    const parts: TargetPart[] = [
      {
        id: first.id,
        url: first.url,
        state: 'published',
        sent_at: null,
        media_ids: [],
        removed_at: null,
      },
      { id: null, url: null, state: 'pending', sent_at: null, media_ids: [], removed_at: null },
    ];
    await t.database.db
      .updateTable('post_targets')
      .set({
        state: 'failed',
        error_kind: 'invalid',
        external_id: first.id,
        parts: JSON.stringify(parts),
      })
      .where('id', '=', target.id)
      .execute();
    await sb.control('DELETE', '/control/calls');
    t.clock.advance(20 * 60_000 + 1000);
    await drainUntil(async () => (await stateOf(post.id)).twitter === 'removed');
    expect(await countOf('DELETE', /\/2\/tweets\/\d+$/)).toBe(1);
    expect(await countOf('POST', /\/2\/tweets$/)).toBe(0);
    expect((await listedIds('twitter')).has(first.id)).toBe(false);
  });
});

describe('settling on X with links: X returns them as t.co links (providers.md §4.6)', () => {
  it('a timed-out post with a link is found by its text, links normalised, and not sent again', async () => {
    const text = `ご予約はこちら ${Date.now()}`;
    await sb.control('POST', '/faults', {
      provider: 'x',
      kind: 'slow',
      delay_ms: 3500,
      method: 'POST',
      path: '/2/tweets',
      count: 1,
    });
    const res = await submit({
      user_id: String(shop),
      content: `${text} https://cafe-tenpo.example/menu?from=x`,
      button_type: '1',
      button_link: 'https://cafe-tenpo.example/book',
      shared_sns_type: 'twitter',
    });
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    await drainUntil(async () => (await stateOf(post.id)).twitter === 'unknown');
    const mine = async () => (await listed('twitter')).filter((p) => p.text.startsWith(text));
    for (let i = 0; i < 200 && (await mine()).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    // X holds the links as t.co links: the text as sent is not what it lists.
    const [shown] = await mine();
    expect(shown?.text).toMatch(
      new RegExp(`^${text} https://t\\.co/[\\w-]{10}\\nhttps://t\\.co/[\\w-]{10}$`),
    );
    t.clock.advance(60_000);
    await drainUntil(async () => (await stateOf(post.id)).twitter === 'published');
    expect(await countOf('POST', /\/2\/tweets$/)).toBe(1);
    expect(await mine()).toHaveLength(1);
    expect((await targetsOf(post.id)).targets[0]?.external_id).toBe(shown?.id);
  });

  it('findPublished: links compared as links, the media link allowed, other posts and kinds not', () => {
    const at = new Date('2026-11-24T00:00:00Z');
    const post = (id: string, text: string, more: Partial<PublishedPost> = {}): PublishedPost => ({
      id,
      text,
      createdAt: at,
      url: null,
      ...more,
    });
    const sent = { text: '予約 https://cafe.example/a?b=1' };
    expect(findPublished([post('1', '予約 https://t.co/AbCdEfGhIj')], sent, at)?.id).toBe('1');
    expect(
      findPublished([post('1', '予約 https://t.co/AbCdEfGhIj https://t.co/0123456789')], sent, at)
        ?.id,
    ).toBe('1');
    expect(findPublished([post('1', '予約しない https://t.co/AbCdEfGhIj')], sent, at)).toBeNull();
    // A text-less video part: only a post carrying our media, not one recorded already.
    const video = { text: '', kind: 'video' as const, mediaIds: ['55'] };
    const posts = [
      post('9', 'https://t.co/zzzzzzzzzz', { mediaIds: ['44'] }),
      post('8', 'https://t.co/yyyyyyyyyy', { mediaIds: ['55'] }),
    ];
    expect(findPublished(posts, video, at)?.id).toBe('8');
    expect(findPublished(posts, video, at, { exclude: ['8'] })).toBeNull();
    // Facebook lists kinds, not media: a text-less photo post is not our video.
    expect(findPublished([post('7', '', { kind: 'photo' })], { text: '', kind: 'video' }, at)).toBe(
      null,
    );
  });
});

describe('per-account limits count by the provider account, not by the store', () => {
  it('two stores on one Instagram account share its 25 posts a day; a quota Instagram says is spent is not asked again in a loop', async () => {
    // store02 (an agency's store) is connected to the shop's Facebook page and so to the same
    // Instagram business account, as connecting it to that page would leave it.
    const db = t.database.db;
    const other = (
      await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'store02@tenpo.example')
        .executeTakeFirstOrThrow()
    ).id;
    for (const key of ['facebook', 'instagram'] as const) {
      const conn = await db
        .selectFrom('publisher_connections')
        .selectAll()
        .where('user_id', '=', shop)
        .where('publisher_key', '=', key)
        .executeTakeFirstOrThrow();
      const cred = await db
        .selectFrom('channel_credentials')
        .selectAll()
        .where('user_id', '=', shop)
        .where('publisher_key', '=', key)
        .executeTakeFirstOrThrow();
      await db
        .deleteFrom('publisher_connections')
        .where('user_id', '=', other)
        .where('publisher_key', '=', key)
        .execute();
      await db
        .deleteFrom('channel_credentials')
        .where('user_id', '=', other)
        .where('publisher_key', '=', key)
        .execute();
      const { id: _c, ...connRow } = conn;
      const { id: _k, ...credRow } = cred;
      await db
        .insertInto('publisher_connections')
        .values({ ...connRow, user_id: other })
        .execute();
      await db
        .insertInto('channel_credentials')
        .values({ ...credRow, user_id: other })
        .execute();
    }
    const agency = await login(t.app, 'agency@tenpo.example');
    const posts: number[] = [];
    for (let i = 0; i < 13; i++)
      for (const [store, as] of [
        [shop, w.token],
        [other, agency],
      ] as const) {
        const res = await submit(
          {
            user_id: String(store),
            content: `本日の一枚 ${store} ${i} ${Date.now()}`,
            shared_sns_type: 'instagram',
          },
          { 'medias[0]': { filename: 'today.jpg', type: 'image/jpeg', data: photo } },
          as,
        );
        expect(res.statusCode, res.body).toBe(200);
        posts.push((json<Created>(res).data.posts[0] as PostView).id);
      }
    const states = async () => {
      const rows = await db
        .selectFrom('post_targets')
        .select('state')
        .where('post_id', 'in', posts)
        .execute();
      return rows.map((r) => r.state);
    };
    await drainUntil(
      async () => (await states()).filter((s) => s === 'published').length === 25,
      400,
    );
    for (let i = 0; i < 3; i++) await t.app.queue.drain();
    const end = await states();
    expect(end.filter((s) => s === 'published')).toHaveLength(25);
    expect(end.filter((s) => s === 'scheduled')).toHaveLength(1);
    // Counted at Instagram: 25 publishes, none refused for the quota; its own usage says 25.
    expect(await countOf('POST', /\/media_publish$/)).toBe(25);
    const igUser = (
      await db
        .selectFrom('channel_credentials')
        .select('ig_user_id')
        .where('user_id', '=', shop)
        .where('publisher_key', '=', 'instagram')
        .executeTakeFirstOrThrow()
    ).ig_user_id as string;
    expect(
      await w.reader.grants.use(credentialHandle(shop, 'instagram'), async (g) => {
        const fb = t.config.channels.facebook;
        const url = new URL(`${fb.graphUrl}/${fb.graphVersion}/${igUser}/content_publishing_limit`);
        url.searchParams.set('fields', 'quota_usage,config');
        url.searchParams.set('access_token', g.accessToken);
        const body = (await (await fetch(url)).json()) as { data: { quota_usage: number }[] };
        return body.data[0]?.quota_usage;
      }),
    ).toBe(25);

    // A day later by Tenpo's clock (Instagram's, the wall clock, has not moved): the 26th is
    // tried, Instagram refuses it for its quota, and the target waits, not asking in a loop.
    t.clock.advance(24 * 3600_000 + 60_000);
    await drainUntil(async () =>
      (
        await db
          .selectFrom('post_targets')
          .select('error_kind')
          .where('post_id', 'in', posts)
          .execute()
      ).some((r) => r.error_kind === 'quota'),
    );
    for (let i = 0; i < 5; i++) await t.app.queue.drain();
    expect(await countOf('POST', /\/media_publish$/)).toBe(26);
    expect((await states()).filter((s) => s === 'scheduled')).toHaveLength(1);
  });
});
