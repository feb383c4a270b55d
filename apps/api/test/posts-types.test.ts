import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatPostDate, ja, type PostView, type PublisherKey } from '@tenpo/domain';
import { createChannels } from '../src/channels';
import { credentialHandle } from '../src/channels/channel';
import { createPublisherRepo } from '../src/modules/publisher/publisher.repo';
import {
  createPublisherService,
  type PublisherService,
} from '../src/modules/publisher/publisher.service';
import { buildTestApp, call, json, login, multipart, type TestApp } from './helpers';
import { connectThroughConsent, startSandbox, X_USER, type RunningSandbox } from './sandbox';

/**
 * Buttons, offers, events and news at the providers (ADR 0030), after posts.test.ts's harness
 * (issue 9, parts 2 and 3): the API and its job engine against the emulators
 * on a free port. The API listens on a port of its own too, because the providers fetch the
 * media from its public URL as the real ones do. What reached a provider is counted on the
 * sandbox's side: its call counters and its own post lists.
 */
let sb: RunningSandbox;
let t: TestApp;
let token = '';
let shop = 0;
/** Reads the providers' lists (the providers' own state) with the demo shop's grants. */
let reader: PublisherService;

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => resolve(port));
    });
  });

const calls = async (): Promise<Record<string, number>> =>
  ((await (await fetch(`${sb.url}/control/calls`)).json()) as { data: Record<string, number> })
    .data;
const countOf = async (method: string, pathEnd: RegExp): Promise<number> =>
  Object.entries(await calls())
    .filter(([k]) => k.startsWith(`${method} `) && pathEnd.test(k))
    .reduce((n, [, v]) => n + v, 0);

/** The create calls that make a post at each provider. */
const CREATE: Record<PublisherKey, RegExp> = {
  google_my_business: /\/localPosts$/,
  facebook: /\/(feed|photos|videos)$/,
  instagram: /\/media_publish$/,
  twitter: /\/2\/tweets$/,
};

/** The posts the provider lists for the shop whose text is `text`. */
const atProvider = async (key: PublisherKey, text: string) =>
  (
    await reader.registry
      .require(key, 'listRecent')
      .listRecent(credentialHandle(shop, key), { since: new Date(Date.now() - 3600_000) })
  ).filter((p) => p.text === text || p.text.startsWith(`${text} https://t.co/`));

const submit = (
  fields: Record<string, string>,
  files: Record<string, { filename: string; type: string; data: Buffer }> = {},
  as = token,
) => call(t.app, { method: 'POST', url: '/api/posts', token: as, ...multipart(fields, files) });

type Created = { data: { submission_id: string; posts: PostView[]; notes: string[] } };

const targetsOf = async (postId: number, storeId = shop) => {
  const res = await call(t.app, {
    method: 'GET',
    url: `/api/posts/${postId}?user_id=${storeId}`,
    token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: PostView[] }>(res).data[0] as PostView;
};

/** Runs due jobs until `done` holds (no fixed sleeps: the engine is driven, then looked at). */
async function drainUntil(done: () => Promise<boolean>, rounds = 50): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await t.app.queue.drain();
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('drainUntil: never done');
}

const stateOf = async (postId: number) =>
  Object.fromEntries((await targetsOf(postId)).targets.map((x) => [x.publisher_key, x.state]));

const tokyoIn = (ms: number) => formatPostDate(new Date(t.clock.now().getTime() + ms));

beforeAll(async () => {
  sb = await startSandbox();
  const port = await freePort();
  t = await buildTestApp(
    { SANDBOX_URL: sb.url, PUBLIC_URL: `http://127.0.0.1:${port}` },
    // A short time-out (1.5 s, room for a loaded machine), so a slow provider ends `outcome_unknown`.
    { channels: (config, clock) => createChannels(config, clock, { timeoutMs: 1500 }) },
  );
  await t.app.listen({ port, host: '127.0.0.1' });
  reader = createPublisherService({
    repo: createPublisherRepo(t.database.db),
    channels: createChannels(t.config, t.clock),
    clock: t.clock,
    secretKey: t.config.secretKey,
    publicUrl: t.config.publicUrl,
    isAgencyPrefix: async () => false,
    log: { warn: () => undefined },
  });
  shop = (
    await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'shop@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
  token = await login(t.app, 'shop@tenpo.example');
  await connectX();
});

/** The shop connects X as the browser does (the demo data leaves it to connect). */
const connectX = () =>
  connectThroughConsent(t.app, token, shop, 'twitter', { user_id: X_USER, decision: 'allow' });
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
  reader.grants.use(credentialHandle(shop, 'google_my_business'), async (g) => {
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
