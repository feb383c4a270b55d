import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NoticeView, Page } from '@tenpo/domain';
import { SPIKE_BASELINE_DAYS, spikeThreshold } from '../src/modules/reviews/reviews.spikes';
import { call, json, type TestApp } from './helpers';
import { startPostsWorld, type PostsWorld } from './posts-harness';
import type { RunningSandbox } from './sandbox';

/**
 * Bursts of low ratings (issue 25 item 9): ★1–2 reviews written at the sandbox's Google, read by
 * the sync, raise one alert a day per store once they reach three times the usual daily count.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let token = '';
let shop = 0;
const LOCATION = '4821390157204861230';
const DAY_MS = 86_400_000;

describe('spikeThreshold', () => {
  it.each([
    [0, 3],
    [30, 3],
    [90, 3],
    [120, 4],
    [900, 30],
  ])('%i low ratings in 90 days → %i in a day', (base, expected) => {
    expect(spikeThreshold(base)).toBe(expected);
  });
});

let written = 0;
async function lowReview(): Promise<string> {
  written += 1;
  const comment = `低評価テスト${written}：店員の態度が悪かった。`;
  const res = await fetch(`${sb.url}/control/google/reviews`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ location_id: LOCATION, star_rating: 1, comment, reviewer: '匿名希望' }),
  });
  expect(res.status).toBe(200);
  t.clock.advance(1000);
  expect(await t.app.reviews.sync.syncStore(shop)).toMatchObject({ state: 'done', added: 1 });
  await t.app.queue.drain();
  return comment;
}
const spikeNotices = async () => {
  const res = await call(t.app, { method: 'GET', url: '/api/notices?limit=50', token });
  return json<{ data: { data: Page<NoticeView> } }>(res).data.data.data.filter(
    (n) => n.kind === 'reviews_spike',
  );
};

beforeAll(async () => {
  w = await startPostsWorld({ channelTimeoutMs: 1500 });
  ({ sb, t, token, shop } = w);
  await t.app.reviews.sync.syncStore(shop);
  // The seeded reviews of the last day, if any, moved a year back: the test counts its own.
  await t.database.db
    .updateTable('reviews')
    .set({ created_at: new Date(Date.now() - 365 * DAY_MS).toISOString() })
    .where('store_id', '=', shop)
    .where('created_at', '>=', new Date(t.clock.now().getTime() - 2 * DAY_MS).toISOString())
    .execute();
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});

describe('a burst of low ratings', () => {
  it('alerts the store once, when the day reaches three times the usual count', async () => {
    const now = t.clock.now().getTime();
    const base = await t.database.db
      .selectFrom('reviews')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('store_id', '=', shop)
      .where('star_rating', '<=', 2)
      .where('created_at', '>=', new Date(now - (SPIKE_BASELINE_DAYS + 1) * DAY_MS).toISOString())
      .where('created_at', '<', new Date(now - DAY_MS).toISOString())
      .executeTakeFirstOrThrow();
    const threshold = spikeThreshold(Number(base.n));
    const comments: string[] = [];
    for (let i = 1; i < threshold; i += 1) comments.push(await lowReview());
    expect(await spikeNotices()).toHaveLength(0);

    comments.push(await lowReview());
    const alerts = await spikeNotices();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.title).toContain(`${threshold}件`);
    expect(alerts[0]?.link).toContain('stars=1,2');
    const mail = t.mailbox.list({ to: 'shop@tenpo.example' })[0];
    expect(mail?.subject).toContain('低評価の口コミが急に増えています');
    for (const c of comments) expect(mail?.text).toContain(c);
    expect(mail?.text).toContain('support.google.com/business/answer/4596773');

    await lowReview();
    expect(await spikeNotices()).toHaveLength(1);
  });
});
