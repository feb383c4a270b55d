import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PostView } from '@tenpo/domain';
import { ja } from '@tenpo/domain';
import type { ChannelError } from '../src/channels/channel';
import { credentialHandle, PublishPending } from '../src/channels/channel';
import { classifyGraph, isGoneAnswer } from '../src/channels/facebook/facebook.errors';
import { FACEBOOK_SCOPES } from '../src/channels/facebook/facebook.client';
import { createChannels } from '../src/channels';
import { classifyX } from '../src/channels/x/x.errors';
import { encrypt } from '../src/lib/tokens';
import { createPublisherRepo } from '../src/modules/publisher/publisher.repo';
import { createPublisherService } from '../src/modules/publisher/publisher.service';
import { failureLines } from '../src/modules/posts/posts.present';
import type { TargetPart } from '../src/modules/posts/posts.parts';
import { json, type TestApp } from './helpers';
import { videoMp4 } from './media-server';
import { postsHelpers, startPostsWorld, type Created, type PostsWorld } from './posts-harness';
import type { RunningSandbox } from './sandbox';

/**
 * Issue 21 items 12–15 (ADR 0063): Instagram containers resumed across runs, Facebook's page
 * token of record and its error classes, X's 24-hour caps, and every channel's post link.
 * What reached a provider is counted at the sandbox; recorded answers are the shared fixtures.
 */
const FIXTURES = path.join(import.meta.dirname, '..', '..', '..', 'fixtures');
const fixture = <T>(dir: string, name: string): T =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, dir, name), 'utf8')) as T;

let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let shop = 0;
const { countOf, submit, targetsOf, drainUntil, atProvider } = postsHelpers(() => w);

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
});

describe('Instagram: a slow reel is looked at later, and published once (IG-1)', () => {
  // Many polls of the emulator's clock: 16.6 s in a loaded CI run, against the 20 s default.
  it('a reel that takes 90 s ends published once: one container, one media_publish', async () => {
    await sb.control('PATCH', '/control/settings', {
      instagram: { videoProcessingMs: 90_000 },
      clockOffsetMs: 0,
    });
    let offset = 0;
    try {
      const text = `90秒かかるリール ${Date.now()}`;
      const res = await submit(
        { user_id: String(shop), content: text, shared_sns_type: 'instagram' },
        { 'medias[0]': { filename: 'reel.mp4', type: 'video/mp4', data: videoMp4(720, 1280, 8) } },
      );
      expect(res.statusCode, res.body).toBe(200);
      const post = json<Created>(res).data.posts[0] as PostView;
      const target = () => targetsOf(post.id).then((p) => p.targets[0]);
      await t.app.queue.drain();
      // Not published, not failed: the container is kept on the target and looked at later.
      const waiting = await target();
      expect(waiting?.state).toBe('publishing');
      const row = await t.database.db
        .selectFrom('post_targets')
        .select(['parts', 'attempts'])
        .where('id', '=', waiting?.id as number)
        .executeTakeFirstOrThrow();
      const part = (JSON.parse(row.parts as string) as TargetPart[])[0];
      expect(part?.resume?.containerId).toMatch(/^\d+$/);
      expect(row.attempts).toBe(0);
      // Time passes at both ends (Tenpo's clock and Instagram's) until the reel is ready.
      await drainUntil(async () => {
        offset += 15_000;
        t.clock.advance(15_000);
        await sb.control('PATCH', '/control/settings', { clockOffsetMs: offset });
        await t.app.queue.drain();
        return (await target())?.state === 'published';
      }, 20);
      expect(offset).toBeGreaterThanOrEqual(90_000);
      // Counted at Instagram: one container made, one publish, one post.
      expect(await countOf('POST', /\/\d+\/media$/)).toBe(1);
      expect(await countOf('POST', /\/media_publish$/)).toBe(1);
      expect(await atProvider('instagram', text)).toHaveLength(1);
      // Its link is the media's own permalink (item 15).
      expect((await target())?.url).toMatch(/^https:\/\/www\.instagram\.com\/p\/[^/]+\/$/);
    } finally {
      await sb.control('PATCH', '/control/settings', {
        instagram: { videoProcessingMs: 3000 },
        clockOffsetMs: 0,
      });
    }
  }, 90_000);
});

describe('Instagram containers: EXPIRED is made anew, ERROR fails with its status', () => {
  const ig = () => w.reader.registry.require('instagram', 'publish');
  const h = () => credentialHandle(shop, 'instagram');

  it('a kept container Instagram says EXPIRED is made again, not published', async () => {
    await sb.control('PATCH', '/control/settings', {
      instagram: { videoProcessingMs: 90_000 },
      fetchMedia: false,
      clockOffsetMs: 0,
    });
    try {
      const draft = {
        text: `期限切れ ${Date.now()}`,
        media: [{ kind: 'video' as const, url: 'https://media.tenpo.example/reel.mp4' }],
      };
      const first = await ig()
        .publish(h(), draft)
        .catch((e: unknown) => e);
      expect(first).toBeInstanceOf(PublishPending);
      const kept = (first as PublishPending).resume;
      // Instagram's clock passes the container's 24 h (Tenpo's has not moved).
      await sb.control('PATCH', '/control/settings', { clockOffsetMs: 25 * 3600_000 });
      const again = await ig()
        .publish(h(), { ...draft, resume: kept })
        .catch((e: unknown) => e);
      expect(again).toBeInstanceOf(PublishPending);
      expect((again as PublishPending).resume.containerId).not.toBe(kept.containerId);
      expect(await countOf('POST', /\/\d+\/media$/)).toBe(2);
      expect(await countOf('POST', /\/media_publish$/)).toBe(0);
    } finally {
      await sb.control('PATCH', '/control/settings', {
        instagram: { videoProcessingMs: 3000 },
        fetchMedia: true,
        clockOffsetMs: 0,
      });
    }
  }, 60_000);

  it("a container in ERROR fails as invalid with Instagram's status text", async () => {
    const err = await ig()
      .publish(h(), {
        text: `届かない動画 ${Date.now()}`,
        media: [{ kind: 'video', url: 'http://127.0.0.1:9/missing.mp4' }],
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'invalid', publisher: 'instagram' });
    expect((err as Error).message).toMatch(/ERROR: Error: .*download/);
    expect(await countOf('POST', /\/media_publish$/)).toBe(0);
  });
});

describe('X: a spent 24-hour cap is a quota until its reset (X-1)', () => {
  it('reads the headers node-twitter-api-v2 reads; remaining 0 is a quota, not 15 minutes', () => {
    const now = 1_700_000_000_000;
    const classify = classifyX(() => now);
    const spent = fixture<{ headers: Record<string, string>; body: unknown }>(
      'x-rate-limits',
      '429-user-24h-spent.json',
    );
    const at = (v: string) =>
      v.replace(/\{now\+(\d+)\}/, (_, s: string) => String(now / 1000 + Number(s)));
    const headers = new Headers(
      Object.entries(spent.headers).map(([k, v]) => [k, at(v)] as [string, string]),
    );
    const e = classify(429, spent.body, headers);
    expect(e.kind).toBe('quota');
    expect(e.retryAfterMs).toBe(86_000_000);
    // The same 429 with budget left in the day is the 15-minute window.
    headers.set('x-user-limit-24hour-remaining', '5');
    const windowed = classify(429, spent.body, headers);
    expect(windowed.kind).toBe('rate_limited');
    expect(windowed.retryAfterMs).toBe(900_000);
    // The library's own sample has budget left everywhere: a plain rate limit.
    const lib = fixture<Record<string, string>>('x-rate-limits', 'headers-15min-and-24h.json');
    expect(classify(429, spent.body, new Headers(lib)).kind).toBe('rate_limited');
  });

  it("the sandbox's spent user cap reaches Tenpo as a quota with a ~24 h wait", async () => {
    await sb.control('PATCH', '/control/settings', { x: { tweetsPer24hPerUser: 1 } });
    try {
      const h = credentialHandle(shop, 'twitter');
      const x = w.reader.registry.require('twitter', 'publish');
      const first = await x.publish(h, { text: `一日一回 ${Date.now()}`, media: [] });
      // Item 15: X's link without the @username.
      expect(first.url).toBe(`https://x.com/i/web/status/${first.id}`);
      const err = await x
        .publish(h, { text: `二回目 ${Date.now()}`, media: [] })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'quota', publisher: 'twitter' });
      expect((err as ChannelError).retryAfterMs).toBeGreaterThan(23 * 3600_000);
      expect(await countOf('POST', /\/2\/tweets$/)).toBe(2);
    } finally {
      await sb.control('PATCH', '/control/settings', { x: { tweetsPer24hPerUser: 10000 } });
    }
  });
});

describe('X: a refresh is sent once (X-2)', () => {
  it('a refresh whose answer is lost is not sent again (X rotates refresh tokens)', async () => {
    let sent = 0;
    const lost = async (): Promise<Response> => {
      sent += 1;
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
    };
    const channels = createChannels(t.config, t.clock, { fetch: lost, sleep: async () => {} });
    const err = await channels.all.twitter
      .refresh({ accessToken: 'a', refreshToken: 'r' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'outcome_unknown' });
    expect(sent).toBe(1);
    // Through grant access, the caller's own call was never sent: transient, not unknown.
    const db = t.database.db;
    const row = await db
      .selectFrom('channel_credentials')
      .select(['id', 'expires_at'])
      .where('user_id', '=', shop)
      .where('publisher_key', '=', 'twitter')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('channel_credentials')
      .set({ expires_at: new Date(t.clock.now().getTime() - 1000).toISOString() })
      .where('id', '=', row.id)
      .execute();
    try {
      const service = createPublisherService({
        repo: createPublisherRepo(db),
        channels,
        clock: t.clock,
        secretKey: t.config.secretKey,
        publicUrl: t.config.publicUrl,
        isAgencyPrefix: async () => false,
        log: { warn: () => undefined },
      });
      sent = 0;
      const publish = await service.registry
        .require('twitter', 'publish')
        .publish(credentialHandle(shop, 'twitter'), { text: 'x', media: [] })
        .catch((e: unknown) => e);
      expect(publish).toMatchObject({ kind: 'transient', publisher: 'twitter' });
      expect(sent).toBe(1);
    } finally {
      await db
        .updateTable('channel_credentials')
        .set({ expires_at: row.expires_at })
        .where('id', '=', row.id)
        .execute();
    }
  });
});

describe('Facebook (FB-1, FB-2, FB-3)', () => {
  it('368 is its own class with its message; 100/33 and 33 are "gone"', () => {
    const e = classifyGraph(400, fixture('meta-graph-errors', 'blocked-368.json'), new Headers());
    expect(e.kind).toBe('blocked');
    expect(failureLines('facebook', e, 'publish')).toEqual([
      ja.postPublishFailed('Facebook'),
      ja.channelBlocked('Facebook'),
    ]);
    expect(isGoneAnswer(fixture('meta-graph-errors', 'delete-gone-100-33.json'))).toBe(true);
    expect(isGoneAnswer(fixture('meta-graph-errors', 'gone-33.json'))).toBe(true);
    expect(isGoneAnswer(fixture('meta-graph-errors', 'blocked-368.json'))).toBe(false);
  });

  it('a post removed already (100/33 on DELETE) counts as removed', async () => {
    const h = credentialHandle(shop, 'facebook');
    const fb = w.reader.registry;
    const post = await fb.require('facebook', 'publish').publish(h, {
      text: `消える投稿 ${Date.now()}`,
      media: [],
    });
    // Item 15: a link to the post.
    expect(post.url).toBe(`https://www.facebook.com/${post.id}`);
    await fb.require('facebook', 'remove').remove(h, post.id);
    await expect(fb.require('facebook', 'remove').remove(h, post.id)).resolves.toBeUndefined();
    expect(await countOf('DELETE', new RegExp(`/${post.id}$`))).toBe(2);
  });

  it('does not ask for publish_video', () => {
    expect(FACEBOOK_SCOPES).not.toContain('publish_video');
    expect(FACEBOOK_SCOPES).toEqual(
      expect.arrayContaining(['pages_show_list', 'pages_read_engagement', 'pages_manage_posts']),
    );
  });

  it('a user token that aged out does not end the grant while the page token lives', async () => {
    const db = t.database.db;
    const before = await db
      .selectFrom('channel_credentials')
      .selectAll()
      .where('user_id', '=', shop)
      .where('publisher_key', '=', 'facebook')
      .executeTakeFirstOrThrow();
    // The user token is past its ~60 days (Graph no longer knows it); the page token is the
    // one the demo grant derived from it, which does not expire.
    await db
      .updateTable('channel_credentials')
      .set({
        access_token: encrypt(t.config.secretKey, 'EAATAgedOutUserToken'),
        expires_at: new Date(t.clock.now().getTime() - 86_400_000).toISOString(),
      })
      .where('id', '=', before.id)
      .execute();
    try {
      const h = credentialHandle(shop, 'facebook');
      const text = `ページトークンで投稿 ${Date.now()}`;
      const post = await w.reader.registry
        .require('facebook', 'publish')
        .publish(h, { text, media: [] });
      expect(post.id).toMatch(/_/);
      expect(await atProvider('facebook', text)).toHaveLength(1);
      // Graph was asked about the page token, never to re-exchange the dead user token.
      expect(await countOf('GET', /\/debug_token$/)).toBe(1);
      expect(await countOf('GET', /\/oauth\/access_token$/)).toBe(0);
      const after = await db
        .selectFrom('channel_credentials')
        .select('expires_at')
        .where('id', '=', before.id)
        .executeTakeFirstOrThrow();
      expect(after.expires_at).toBeNull();
      const conn = await db
        .selectFrom('publisher_connections')
        .select('status')
        .where('user_id', '=', shop)
        .where('publisher_key', '=', 'facebook')
        .executeTakeFirstOrThrow();
      expect(conn.status).not.toBe('error');
    } finally {
      await db
        .updateTable('channel_credentials')
        .set({ access_token: before.access_token, expires_at: before.expires_at })
        .where('id', '=', before.id)
        .execute();
    }
  });
});
