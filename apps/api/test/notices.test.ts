import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NoticeView, Page } from '@tenpo/domain';
import { call, json, login, type TestApp } from './helpers';
import { startPostsWorld, type PostsWorld } from './posts-harness';
import type { RunningSandbox } from './sandbox';

/**
 * In-app notices and the review mail choice (issue 25 item 2, ADR 0094): a review written at the
 * sandbox's Google reaches the store's notices and, as each user chose, its mailbox at once, in
 * the day's digest, or not at all.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let token = '';
let shop = 0;
const LOCATION = '4821390157204861230';
const SHOP = 'shop@tenpo.example';

type Notices = { data: Page<NoticeView>; unread: number };
const notices = async (as = token): Promise<Notices> => {
  const res = await call(t.app, { method: 'GET', url: '/api/notices', token: as });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: Notices }>(res).data;
};
const setMail = async (mode: string) => {
  const res = await call(t.app, {
    method: 'PUT',
    url: '/api/notices/settings',
    token,
    payload: { review_mail: mode },
  });
  expect(res.statusCode, res.body).toBe(200);
};
let written = 0;
/** A customer writes a review at Google; the next sync reads it. */
async function newReview(stars = 4): Promise<string> {
  written += 1;
  const comment = `テスト口コミ${written}：また来たいと思います。`;
  const res = await fetch(`${sb.url}/control/google/reviews`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ location_id: LOCATION, star_rating: stars, comment, reviewer: '佐藤' }),
  });
  expect(res.status).toBe(200);
  t.clock.advance(1000); // the test's clock stands still unless moved
  expect(await t.app.reviews.sync.syncStore(shop)).toMatchObject({ state: 'done', added: 1 });
  await t.app.queue.drain();
  return comment;
}
const mails = () => t.mailbox.list({ to: SHOP });

beforeAll(async () => {
  w = await startPostsWorld({ channelTimeoutMs: 1500 });
  ({ sb, t, token, shop } = w);
  await t.app.reviews.sync.syncStore(shop); // the first reading: old reviews tell nobody
  await t.app.queue.drain();
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});

describe('new reviews', () => {
  it('the first reading of Google tells nobody', async () => {
    expect((await notices()).unread).toBe(0);
    expect(mails().filter((m) => m.subject.includes('新しい口コミ'))).toHaveLength(0);
  });

  it('raise a notice and, by default, a mail at once; read, the notice counts no more', async () => {
    const comment = await newReview();
    const n = await notices();
    expect(n.unread).toBe(1);
    expect(n.data.data[0]).toMatchObject({
      kind: 'reviews_new',
      store_id: shop,
      read_at: null,
      link: `/reviews?user_id=${shop}&replied=unreplied`,
    });
    expect(n.data.data[0]?.title).toContain('新しい口コミが1件');
    expect(mails()[0]?.text).toContain(comment);

    const read = await call(t.app, {
      method: 'POST',
      url: '/api/notices/read',
      token,
      payload: { ids: [n.data.data[0]?.id] },
    });
    expect(json<{ data: { unread: number } }>(read).data.unread).toBe(0);
  });

  it("another user's notices are not read by marking their ids", async () => {
    await newReview();
    const other = await login(t.app, 'agency@tenpo.example');
    const mine = (await notices()).data.data[0]?.id as number;
    await call(t.app, {
      method: 'POST',
      url: '/api/notices/read',
      token: other,
      payload: { ids: [mine] },
    });
    expect((await notices()).unread).toBe(1);
    const all = await call(t.app, { method: 'POST', url: '/api/notices/read', token, payload: {} });
    expect(all.statusCode).toBe(200);
    expect((await notices()).unread).toBe(0);
  });

  it('with the daily digest, no mail at once; one digest at the hour, once', async () => {
    await setMail('daily');
    const before = mails().length;
    const a = await newReview(3);
    const b = await newReview(5);
    expect(mails().length).toBe(before);
    expect((await notices()).unread).toBe(2);

    t.clock.advance(60_000);
    const [one, two] = await Promise.all([
      t.app.reviews.notices.digest(),
      t.app.reviews.notices.digest(),
    ]);
    expect(one.sent + two.sent).toBe(1);
    await t.app.queue.drain();
    const digest = mails()[0];
    expect(mails().length).toBe(before + 1);
    expect(digest?.subject).toContain('新しい口コミが2件');
    expect(digest?.text).toContain(a);
    expect(digest?.text).toContain(b);

    expect((await t.app.reviews.notices.digest()).sent).toBe(0);
    await t.app.queue.drain();
    expect(mails().length).toBe(before + 1);
  });

  it('switched off, no mail at all, the notice still kept', async () => {
    await setMail('off');
    const before = mails().length;
    await newReview();
    expect(mails().length).toBe(before);
    expect((await t.app.reviews.notices.digest()).sent).toBe(0);
    expect((await notices()).data.data[0]?.kind).toBe('reviews_new');
    const settings = await call(t.app, { method: 'GET', url: '/api/notices/settings', token });
    expect(json<{ data: { review_mail: string } }>(settings).data.review_mail).toBe('off');
    await setMail('immediate');
  });

  it('refuses an unknown mail choice', async () => {
    const res = await call(t.app, {
      method: 'PUT',
      url: '/api/notices/settings',
      token,
      payload: { review_mail: 'hourly' },
    });
    expect(res.statusCode).toBe(422);
  });
});
