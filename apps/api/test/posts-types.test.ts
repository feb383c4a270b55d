import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ja, type PostView } from '@tenpo/domain';
import { credentialHandle } from '../src/channels/channel';
import { call, json, multipart, type TestApp } from './helpers';
import {
  CREATE,
  postsHelpers,
  startPostsWorld,
  type Created,
  type PostsWorld,
} from './posts-harness';
import { type RunningSandbox } from './sandbox';

/**
 * Buttons, offers, events and news at the providers (ADR 0030), in the posts suites' world
 * (posts-harness.ts): what reached a provider is counted on the sandbox's side.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let token = '';
let shop = 0;
const { countOf, atProvider, submit, targetsOf, drainUntil, stateOf, tokyoIn } = postsHelpers(
  () => w,
);

beforeAll(async () => {
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

/** The Google local post a target became, read from the sandbox with the shop's grant. */
const googlePost = (name: string) =>
  w.reader.grants.use(credentialHandle(shop, 'google_my_business'), async (g) => {
    const res = await fetch(`${t.config.channels.google.myBusinessUrl}/v4/${name}`, {
      headers: { authorization: `Bearer ${g.accessToken}` },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  });

describe('the button reaches the providers', () => {
  it("Google's post carries the call to action; X gets the link in its text", async () => {
    const text = `ご予約はこちら ${Date.now()}`;
    const res = await submit({
      user_id: String(shop),
      content: text,
      button_type: '1',
      button_link: 'https://shop.example/book',
      shared_sns_type: 'google_my_business,twitter',
    });
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    await drainUntil(async () =>
      Object.values(await stateOf(post.id)).every((s) => s === 'published'),
    );
    const g = (await targetsOf(post.id)).targets.find(
      (x) => x.publisher_key === 'google_my_business',
    );
    const live = await googlePost(g?.external_id as string);
    expect(live.body).toMatchObject({
      topicType: 'STANDARD',
      callToAction: { actionType: 'BOOK', url: 'https://shop.example/book' },
    });
    expect(await atProvider('twitter', `${text}\nhttps://shop.example/book`)).toHaveLength(1);
    expect(await countOf('POST', CREATE.twitter)).toBe(1);
  });

  it('call now is a CALL action without a url', async () => {
    const text = `お電話ください ${Date.now()}`;
    const res = await submit({
      user_id: String(shop),
      content: text,
      button_type: '6',
      phone_number: '+81312345678',
      shared_sns_type: 'google_my_business',
    });
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    await drainUntil(async () => (await stateOf(post.id)).google_my_business === 'published');
    const live = await googlePost((await targetsOf(post.id)).targets[0]?.external_id as string);
    expect(live.body.callToAction).toEqual({ actionType: 'CALL' });
  });
});

describe('offers, events and news are Google local posts of their type', () => {
  it('an offer: OFFER with its fields at Google; edited there by PATCH; deleted there', async () => {
    const text = `春の特典 ${Date.now()}`;
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/posts/offers',
      token,
      ...multipart({
        user_id: String(shop),
        content: text,
        title: '10%オフ',
        start_date: tokyoIn(60_000),
        end_date: tokyoIn(7 * 86_400_000),
        coupon_code: 'SPRING10',
        redeem_link: 'https://shop.example/offer',
        terms: '店頭のみ',
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    expect(post.post_type).toBe('offer');
    await drainUntil(async () => (await stateOf(post.id)).google_my_business === 'published');
    const name = (await targetsOf(post.id)).targets[0]?.external_id as string;
    expect((await googlePost(name)).body).toMatchObject({
      topicType: 'OFFER',
      event: { title: '10%オフ' },
      offer: {
        couponCode: 'SPRING10',
        redeemOnlineUrl: 'https://shop.example/offer',
        termsConditions: '店頭のみ',
      },
    });

    const edit = await call(t.app, {
      method: 'POST',
      url: `/api/posts/offers/${post.id}`,
      token,
      ...multipart({ user_id: String(shop), title: '20%オフ', coupon_code: 'SPRING20' }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await countOf('PATCH', /\/localPosts\/\d+$/)).toBe(1);
    expect((await googlePost(name)).body).toMatchObject({
      summary: text,
      event: { title: '20%オフ' },
      offer: { couponCode: 'SPRING20' },
    });
    // Google reviews the edited post (PROCESSING); the publish job follows it to LIVE (ADR 0060).
    await t.app.queue.drain();
    expect((await targetsOf(post.id)).targets[0]?.state).toBe('published');

    const list = await call(t.app, {
      method: 'GET',
      url: `/api/posts/offers?user_id=${shop}`,
      token,
    });
    const page = json<{ data: { data: { data: PostView[]; per_page: number } } }>(list).data.data;
    expect(page.per_page).toBe(10);
    expect(page.data.every((p) => p.post_type === 'offer')).toBe(true);
    const events = await call(t.app, {
      method: 'GET',
      url: `/api/posts/events/${post.id}?user_id=${shop}`,
      token,
    });
    expect(events.statusCode).toBe(404);

    const del = await call(t.app, {
      method: 'DELETE',
      url: `/api/posts/offers/${post.id}?user_id=${shop}`,
      token,
    });
    expect(del.statusCode, del.body).toBe(200);
    expect((await googlePost(name)).status).toBe(404);
  });

  it('an event: EVENT with its schedule; a bad redeem link or an end before the start is 422', async () => {
    const bad = await call(t.app, {
      method: 'POST',
      url: '/api/posts/events',
      token,
      ...multipart({
        user_id: String(shop),
        content: 'x',
        title: '夏祭り',
        start_date: tokyoIn(86_400_000),
        end_date: tokyoIn(3_600_000),
      }),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain(ja.topicEndBeforeStart);
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/posts/events',
      token,
      ...multipart({
        user_id: String(shop),
        content: `夏祭り ${Date.now()}`,
        title: '夏祭り',
        start_date: tokyoIn(3_600_000),
        end_date: tokyoIn(86_400_000),
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const post = json<Created>(res).data.posts[0] as PostView;
    await drainUntil(async () => (await stateOf(post.id)).google_my_business === 'published');
    const name = (await targetsOf(post.id)).targets[0]?.external_id as string;
    expect((await googlePost(name)).body).toMatchObject({
      topicType: 'EVENT',
      event: { title: '夏祭り', schedule: { startDate: expect.any(Object) } },
    });
    const filtered = await call(t.app, {
      method: 'GET',
      url: `/api/posts?user_id=${shop}&post_type=event&limit=50`,
      token,
    });
    const rows = json<{ data: { data: { data: PostView[] } } }>(filtered).data.data.data;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((p) => p.post_type === 'event')).toBe(true);
  });
});
