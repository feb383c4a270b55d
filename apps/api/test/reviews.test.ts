import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reviewJa, ruleSetsForCategory, type Page, type ReviewView } from '@tenpo/domain';
import { call, json, login, type TestApp } from './helpers';
import { postsHelpers, startPostsWorld, type PostsWorld } from './posts-harness';
import type { RunningSandbox } from './sandbox';
import { shopGoogleToken } from './sandbox';

/**
 * The reviews inbox (issue 25, ADR 0090) against the Google emulator on a free port. What Google
 * holds is read from the sandbox's own v4 reviews, with the shop's demo grant.
 */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let token = '';
let shop = 0;
const { countOf } = postsHelpers(() => w);

const ACCOUNT = '104772635510001234567';
const LOCATION = '4821390157204861230';
const PARENT = `accounts/${ACCOUNT}/locations/${LOCATION}`;

type GoogleReview = {
  name: string;
  starRating: string;
  comment?: string;
  reviewReply?: { comment: string; updateTime: string };
};

const googleToken = (): Promise<string> => shopGoogleToken(sb.url);

/** Google's side: one review as the v4 get answers. */
async function atGoogle(name: string): Promise<GoogleReview> {
  const res = await fetch(`${sb.url}/google/mybusiness/v4/${name}`, {
    headers: { authorization: `Bearer ${await googleToken()}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as GoogleReview;
}

/** Google's side: every review of the location, every page. */
async function allAtGoogle(): Promise<GoogleReview[]> {
  const out: GoogleReview[] = [];
  let token: string | undefined;
  do {
    const q = new URLSearchParams({ pageSize: '50', ...(token ? { pageToken: token } : {}) });
    const res = await fetch(`${sb.url}/google/mybusiness/v4/${PARENT}/reviews?${q}`, {
      headers: { authorization: `Bearer ${await googleToken()}` },
    });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { reviews?: GoogleReview[]; nextPageToken?: string };
    out.push(...(page.reviews ?? []));
    token = page.nextPageToken;
  } while (token);
  return out;
}

const sync = () => t.app.reviews.sync.syncStore(shop);
const list = async (query: string, as = token): Promise<Page<ReviewView>> => {
  const res = await call(t.app, { method: 'GET', url: `/api/reviews?${query}`, token: as });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: { data: Page<ReviewView> } }>(res).data.data;
};
const reply = (id: number, comment: string, override = false) =>
  call(t.app, {
    method: 'POST',
    url: `/api/reviews/${id}/reply`,
    token,
    payload: { user_id: shop, comment, override },
  });
const nameOf = async (id: number) =>
  (
    await t.database.db
      .selectFrom('reviews')
      .select('name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).name;

beforeAll(async () => {
  w = await startPostsWorld({ channelTimeoutMs: 1500 });
  ({ sb, t, token, shop } = w);
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
});

describe('the reviews sync', () => {
  it("reads every review of the shop's location, and a second run reads only the first page", async () => {
    const google = await allAtGoogle();
    expect(google.length).toBeGreaterThan(0);
    await sb.control('DELETE', '/control/calls');
    expect(await sync()).toMatchObject({ state: 'done' });
    const all = await list(`user_id=${shop}&limit=50`);
    expect(all.total).toBe(google.length);
    const again = await sync();
    expect(again).toMatchObject({ state: 'done', pages: 1, added: 0 });
    expect((await list(`user_id=${shop}&limit=50`)).total).toBe(google.length);
  });

  it('filters by stars, replied and text, as the rows say', async () => {
    await sync();
    const all = await list(`user_id=${shop}&limit=50`);
    const low = await list(`user_id=${shop}&limit=50&stars=1,2&replied=unreplied`);
    const expected = all.data.filter((r) => r.star_rating <= 2 && r.reply === null);
    expect(all.total).toBeLessThanOrEqual(50); // the seeded location: every row on one page
    expect(low.total).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);
    for (const r of low.data) {
      expect(r.star_rating).toBeLessThanOrEqual(2);
      expect(r.reply).toBeNull();
    }
    const withText = all.data.find((r) => (r.comment ?? '').length > 4);
    if (withText?.comment) {
      const word = withText.comment.slice(0, 4);
      const found = await list(`user_id=${shop}&q=${encodeURIComponent(word)}`);
      expect(found.data.map((r) => r.id)).toContain(withText.id);
    }
  });
});

describe('a new review at Google', () => {
  it('reaches the inbox and the store’s mailbox once, at the next sync', async () => {
    await sync();
    const before = t.mailbox.list({ to: 'shop@tenpo.example' }).length;
    const res = await fetch(`${sb.url}/control/google/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        location_id: LOCATION,
        star_rating: 1,
        comment: '料理が冷めていて残念でした。',
        reviewer: '山田 太郎',
      }),
    });
    expect(res.status).toBe(200);
    expect(await sync()).toMatchObject({ state: 'done', added: 1 });
    const found = await list(`user_id=${shop}&stars=1&q=${encodeURIComponent('冷めて')}`);
    expect(found.data).toHaveLength(1);
    expect(found.data[0]).toMatchObject({
      reviewer_name: '山田 太郎',
      star_rating: 1,
      reply: null,
    });
    await t.app.queue.drain();
    await sync();
    await t.app.queue.drain();
    const mails = t.mailbox.list({ to: 'shop@tenpo.example' });
    expect(mails.length - before).toBe(1);
    expect(mails[0]?.subject).toContain('新しい口コミが1件');
    expect(mails[0]?.text).toContain('料理が冷めていて残念でした。');
  });
});

describe('POST /api/reviews/{id}/reply', () => {
  it('sends the reply to Google once, even sent twice; the copy shows it pending', async () => {
    await sync();
    const [target] = (await list(`user_id=${shop}&replied=unreplied`)).data;
    expect(target).toBeDefined();
    const id = (target as ReviewView).id;
    await sb.control('DELETE', '/control/calls');
    const text = 'ご来店ありがとうございました。またのお越しをお待ちしております。';
    const first = await reply(id, text);
    expect(first.statusCode, first.body).toBe(200);
    expect(json<{ message: string; data: ReviewView }>(first)).toMatchObject({
      message: reviewJa.replySent,
      data: { id, reply: { comment: text } },
    });
    expect((await reply(id, text)).statusCode).toBe(200);
    const google = await atGoogle(await nameOf(id));
    expect(google.reviewReply?.comment).toBe(text);
    expect(await countOf('PUT', /\/reply$/)).toBe(2);
    // One reply at Google however many times it was sent (updateReply is a PUT).
    expect((await allAtGoogle()).filter((r) => r.reviewReply?.comment === text)).toHaveLength(1);
  });

  it("checks by the store's Google category, reading its listing once when Tenpo has none", async () => {
    await t.database.db.deleteFrom('store_profiles').where('store_id', '=', shop).execute();
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/reviews/check',
      token,
      payload: { user_id: shop, comment: 'ありがとうございます。' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const held = await t.database.db
      .selectFrom('store_profiles')
      .select('core')
      .where('store_id', '=', shop)
      .executeTakeFirstOrThrow();
    const category = (JSON.parse(held.core) as { primary_category: { name: string } })
      .primary_category;
    expect(category.name).toBe('categories/gcid:cafe');
    expect(json<{ data: { rule_sets: string[] } }>(res).data.rule_sets).toEqual(
      ruleSetsForCategory({ id: 'gcid:cafe', name: '' }),
    );
  });

  it('while Google cannot be read, the listing is asked for once, not on every check', async () => {
    await t.database.db.deleteFrom('store_profiles').where('store_id', '=', shop).execute();
    await sb.control('POST', '/faults', {
      provider: 'google',
      kind: 'server_error',
      status: 503,
      method: 'GET',
      path: '/v1/locations/',
      count: 'until_cleared',
    });
    await sb.control('DELETE', '/control/calls');
    const reads: number[] = [];
    for (const comment of ['ありがとうございます。', 'またのご来店をお待ちしております。']) {
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/reviews/check',
        token,
        payload: { user_id: shop, comment },
      });
      expect(res.statusCode, res.body).toBe(200);
      // The general rule sets, without the category.
      expect(json<{ data: { rule_sets: string[] } }>(res).data.rule_sets).toEqual(
        ruleSetsForCategory(null),
      );
      reads.push(await countOf('GET', /\/v1\/locations\/[^/]+$/));
    }
    // The first check read (with the client's own retries); the second did not.
    expect(reads[0]).toBeGreaterThan(0);
    expect(reads[1]).toBe(reads[0]);
    await sb.control('DELETE', '/faults');
  });

  it('refuses an empty reply and sends nothing', async () => {
    await sync();
    const [target] = (await list(`user_id=${shop}&replied=unreplied`)).data;
    await sb.control('DELETE', '/control/calls');
    const res = await reply((target as ReviewView).id, '   ');
    expect(res.statusCode).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(res).errors.comment).toEqual([
      reviewJa.replyRequired,
    ]);
    expect(await countOf('PUT', /\/reply$/)).toBe(0);
  });

  it('a blocking phrase is refused with its rule and nothing is sent; an override sends it and the audit log keeps it', async () => {
    await sync();
    const [target] = (await list(`user_id=${shop}&replied=unreplied`)).data;
    const id = (target as ReviewView).id;
    const text = 'ありがとうございます。当店は地域No.1のカフェです。';
    const check = await call(t.app, {
      method: 'POST',
      url: '/api/reviews/check',
      token,
      payload: { user_id: shop, review_id: id, comment: text },
    });
    expect(check.statusCode, check.body).toBe(200);
    const findings = json<{
      data: { findings: { rule_id: string; severity: string; phrase: string }[] };
    }>(check).data.findings;
    const blocking = findings.filter((f) => f.severity === 'block');
    expect(blocking.map((f) => f.rule_id)).toContain('prem.no1');
    await sb.control('DELETE', '/control/calls');
    const refused = await reply(id, text);
    expect(refused.statusCode).toBe(422);
    const lines = json<{ errors: Record<string, string[]> }>(refused).errors.comment ?? [];
    expect(lines[0]).toBe(reviewJa.replyBlocked);
    expect(lines.length).toBe(1 + blocking.length);
    expect(await countOf('PUT', /\/reply$/)).toBe(0);
    expect((await atGoogle(await nameOf(id))).reviewReply).toBeUndefined();

    const sent = await reply(id, text, true);
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await atGoogle(await nameOf(id))).reviewReply?.comment).toBe(text);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['entity', 'entity_id', 'summary', 'after'])
      .where('entity', '=', 'review')
      .where('entity_id', '=', String(id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.summary).toContain(reviewJa.auditOverride);
    expect(JSON.parse(audit[0]?.after ?? '{}')).toMatchObject({ override: true });
  });

  it('deletes the reply at Google and in the copy', async () => {
    await sync();
    const [target] = (await list(`user_id=${shop}&replied=unreplied`)).data;
    const id = (target as ReviewView).id;
    expect((await reply(id, 'ありがとうございます。')).statusCode).toBe(200);
    const res = await call(t.app, {
      method: 'DELETE',
      url: `/api/reviews/${id}/reply?user_id=${shop}`,
      token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ data: ReviewView }>(res).data.reply).toBeNull();
    expect((await atGoogle(await nameOf(id))).reviewReply).toBeUndefined();
  });

  it("another agency's store's review answers 404 to the agency", async () => {
    await sync();
    const agency = await login(t.app, 'agency@tenpo.example');
    const [target] = (await list(`user_id=${shop}`)).data;
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/reviews/${(target as ReviewView).id}?user_id=${shop}`,
      token: agency,
    });
    expect(res.statusCode).toBe(404);
  });
});
