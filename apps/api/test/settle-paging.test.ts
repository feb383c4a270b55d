import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PostView, PublisherKey } from '@tenpo/domain';
import { credentialHandle } from '../src/channels/channel';
import { LIST_PAGE_SIZE } from '../src/channels/paging';
import { json, type TestApp } from './helpers';
import {
  ALL,
  CREATE,
  photoJpeg,
  postsHelpers,
  startPostsWorld,
  type Created,
  type PostsWorld,
} from './posts-harness';
import type { RunningSandbox } from './sandbox';

/**
 * Issue 20, "exactly once after a crash, at any volume": a send whose answer is lost (the
 * provider keeps the post, the answer comes after our time-out), then more posts on the same
 * account than one page of the provider's list holds (more than the 50 settling used to read,
 * and more than the 100 a page), then the settle. Each channel finds the lost post by paging back
 * and records it: one create call for it at the sandbox, one post with its text.
 */
const OTHERS = LIST_PAGE_SIZE + 20;

let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
/** The page gets a path (issue 23 item 7); a provider fetches it from PUBLIC_URL. */
const providerUrl = (path: string): string => new URL(path, t.config.publicUrl).href;
let shop = 0;
let photo: Buffer;
const { countOf, submit, targetsOf, drainUntil, stateOf, atProvider } = postsHelpers(() => w);

/** Where each provider's create call is, for the fault that loses its answer. */
const FAULT: Record<PublisherKey, { provider: string; path: string }> = {
  google_my_business: { provider: 'google', path: '/localPosts' },
  facebook: { provider: 'facebook', path: '/feed' },
  instagram: { provider: 'instagram', path: '/media_publish' },
  twitter: { provider: 'x', path: '/2/tweets' },
};

beforeAll(async () => {
  photo = await photoJpeg();
  w = await startPostsWorld({ channelTimeoutMs: 1500 });
  ({ sb, t, shop } = w);
  // One account takes every post here: the providers' per-account limits would stop the
  // crowd of other posts long before it fills a page (Instagram's 25 a day, Google's 10 a
  // minute), and they are not what is tested.
  await sb.control('PATCH', '/control/settings', {
    google: { editsPerMinutePerProfile: 1_000_000, queriesPerMinute: 1_000_000 },
    instagram: { quotaTotal: 1_000_000 },
    x: { tweetsPer15MinPerUser: 1_000_000 },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  await sb.control('DELETE', '/control/calls');
});

describe(`a lost send, then ${String(OTHERS)} other posts on the same account, then the settle`, () => {
  for (const key of ALL)
    it(`${key}: found on a later page of the provider's list, recorded, never sent again`, async () => {
      const text = `取り違え試験 ${key} ${Date.now()}`;
      await sb.control('POST', '/faults', {
        ...FAULT[key],
        kind: 'slow',
        delay_ms: 3500,
        method: 'POST',
        count: 1,
      });
      const res = await submit(
        { user_id: String(shop), content: text, shared_sns_type: key },
        key === 'instagram'
          ? { 'medias[0]': { filename: 'p.jpg', type: 'image/jpeg', data: photo } }
          : {},
      );
      expect(res.statusCode, res.body).toBe(200);
      const post = json<Created>(res).data.posts[0] as PostView;
      await drainUntil(async () => (await stateOf(post.id))[key] === 'unknown');
      // The provider finishes the call we gave up on: the post is there.
      for (let i = 0; i < 200 && (await atProvider(key, text)).length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(await atProvider(key, text), key).toHaveLength(1);

      // Other stores on the same account (a shared Page, location or user) post meanwhile.
      const h = credentialHandle(shop, key);
      const publisher = w.reader.registry.require(key, 'publish');
      for (let i = 0; i < OTHERS; i++)
        await publisher.publish(h, {
          text: `別店舗の投稿 ${key} ${Date.now()} ${String(i)}`,
          media:
            key === 'instagram'
              ? [{ kind: 'photo', url: providerUrl(post.media_url[0] as string) }]
              : [],
        });
      expect(await countOf('POST', CREATE[key]), key).toBe(1 + OTHERS);

      t.clock.advance(60_000);
      await drainUntil(async () => (await stateOf(post.id))[key] === 'published');
      // Counted at the sandbox: no second create call, one post with the text.
      expect(await countOf('POST', CREATE[key]), key).toBe(1 + OTHERS);
      const [found, ...more] = await atProvider(key, text);
      expect(more, key).toHaveLength(0);
      const target = (await targetsOf(post.id)).targets[0];
      expect(target?.external_id, key).toBe(found?.id);
    }, 120_000);
});
