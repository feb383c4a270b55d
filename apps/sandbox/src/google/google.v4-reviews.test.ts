import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { auth, buildSandbox, FORM, form, googleTokens } from '../shared/testing';
import { REJECT_MARKER } from './google.v4-common';
import { POLICY_VIOLATIONS, REPLY_STATES } from './google.v4-reviews';

const SHOP_ACCOUNT = '104772635510001234567';
const SHIBUYA = '4821390157204861230';
const NEW_ACCOUNT = '104772635510002468024';
const NEW_IKEBUKURO = '6104729583316724502'; // opened lately: no reviews yet
const V4 = '/sandbox/google/mybusiness/v4';
const REVIEWS = `${V4}/accounts/${SHOP_ACCOUNT}/locations/${SHIBUYA}/reviews`;
const CONTROL = '/sandbox/control/google/reviews';
const STARS = ['STAR_RATING_UNSPECIFIED', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'];
const FIXTURES = path.resolve(import.meta.dirname, '../../../../fixtures/google-reviews');
const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

type Reply = {
  comment: string;
  updateTime: string;
  reviewReplyState: string;
  policyViolation?: string;
};
type Review = Record<string, unknown> & {
  name: string;
  reviewId: string;
  reviewer: { displayName?: string; isAnonymous: boolean; profilePhotoUrl?: string };
  starRating: string;
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: Reply;
  reviewMediaItems?: { thumbnailUrl: string; thumbnailLabel?: string; videoUrl?: string }[];
  reviewReplyUrl: string;
};
type ListAnswer = {
  reviews?: Review[];
  averageRating?: number;
  totalReviewCount?: number;
  nextPageToken?: string;
};

let app: FastifyInstance;
let token = '';
beforeEach(async () => {
  ({ app } = await buildSandbox());
  token = (await googleTokens(app)).access_token;
});
afterEach(async () => {
  await app.close();
});

const get = async <T = Record<string, unknown>>(url: string, as = token) => {
  const res = await app.inject({ method: 'GET', url, headers: auth(as) });
  return { status: res.statusCode, body: res.json() as T };
};
const putReply = (name: string, comment: unknown) =>
  app.inject({
    method: 'PUT',
    url: `${V4}/${name}/reply`,
    headers: { ...auth(token), 'content-type': 'application/json' },
    payload: comment === undefined ? {} : { comment },
  });
const review = async (name: string) => (await get<Review>(`${V4}/${name}`)).body;
/** Every review of the shop's listing, all pages, in the given order. */
const everyReview = async (order = '') => {
  const out: Review[] = [];
  let next: string | undefined;
  do {
    const q = new URLSearchParams({ pageSize: '10', ...(order ? { orderBy: order } : {}) });
    if (next) q.set('pageToken', next);
    const { body } = await get<ListAnswer>(`${REVIEWS}?${q}`);
    out.push(...(body.reviews ?? []));
    next = body.nextPageToken;
  } while (next);
  return out;
};
const control = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  app.inject({ method, url, ...(payload ? { payload } : {}) });
const local = (url: string) => url.replace('http://sandbox.test', '');

/** Every key path of a JSON value (`a.b`; an array's items all count), `_source` left out. */
const keysOf = (o: unknown, prefix = ''): string[] =>
  Array.isArray(o)
    ? o.flatMap((x) => keysOf(x, prefix))
    : o && typeof o === 'object'
      ? Object.entries(o).flatMap(([k, v]) =>
          k === '_source' ? [] : [`${prefix}${k}`, ...keysOf(v, `${prefix}${k}.`)],
        )
      : [];
/** The keys Google's documented review bodies have (fixtures/google-reviews). */
const documentedReviewKeys = () =>
  new Set([
    ...keysOf(fixture('list.json').reviews),
    ...['review-reply-pending.json', 'review-reply-approved.json', 'review-reply-rejected.json']
      .map(fixture)
      .flatMap((f) => keysOf(f)),
  ]);

/** A review's enum values are the reference's. */
function expectGoogleEnums(r: Review): void {
  expect(STARS.slice(1)).toContain(r.starRating);
  if (r.reviewReply) {
    expect(REPLY_STATES).toContain(r.reviewReply.reviewReplyState);
    if (r.reviewReply.policyViolation !== undefined) {
      expect(r.reviewReply.reviewReplyState).toBe('REJECTED');
      expect(POLICY_VIOLATIONS).toContain(r.reviewReply.policyViolation);
    }
  }
}

describe('the fixtures hold only what the reference names', () => {
  it('uses StarRating, ReviewReply.State and ReviewReply.PolicyViolation values', () => {
    const bodies = [
      ...(fixture('list.json').reviews as Review[]),
      ...['review-reply-pending.json', 'review-reply-approved.json', 'review-reply-rejected.json']
        .map(fixture)
        .map((f) => f as Review),
    ];
    for (const r of bodies) expectGoogleEnums(r);
    expect(fixture('reply-pending.json').reviewReplyState).toBe('PENDING');
    expect(fixture('reply-rejected.json')).toMatchObject({ reviewReplyState: 'REJECTED' });
    expect(POLICY_VIOLATIONS).toContain(fixture('reply-rejected.json').policyViolation);
    expect(keysOf(fixture('list-empty.json'))).toEqual([]);
  });
});

describe('reviews.list (fixtures/google-reviews)', () => {
  it("answers the listing's reviews newest first, in Google's shapes, with its totals", async () => {
    const { status, body } = await get<ListAnswer>(`${REVIEWS}?pageSize=5`);
    expect(status).toBe(200);
    const known = new Set(keysOf(fixture('list.json')));
    for (const k of Object.keys(body)) expect(known).toContain(k);
    const reviews = body.reviews as Review[];
    expect(reviews).toHaveLength(5);
    expect(body.totalReviewCount).toBe(24);
    expect(body.nextPageToken).toBeTruthy();
    const times = reviews.map((r) => r.updateTime);
    expect([...times].sort().reverse()).toEqual(times);
    const documented = documentedReviewKeys();
    for (const r of reviews) {
      for (const k of keysOf(r)) expect(documented).toContain(k);
      expect(r.name).toBe(`accounts/${SHOP_ACCOUNT}/locations/${SHIBUYA}/reviews/${r.reviewId}`);
      expectGoogleEnums(r);
    }
  });

  it('pages hold every review once; pageSize is at most 50 and 50 by default', async () => {
    const all = await everyReview();
    expect(new Set(all.map((r) => r.name)).size).toBe(24);
    const whole = await get<ListAnswer>(REVIEWS);
    expect(whole.body.reviews).toHaveLength(24);
    expect(whole.body.nextPageToken).toBeUndefined();
    expect((await get<ListAnswer>(`${REVIEWS}?pageSize=0`)).body.reviews).toHaveLength(24);
    const over = await get<{ error: { code: number; status: string } }>(`${REVIEWS}?pageSize=51`);
    expect(over.status).toBe(400);
    expect(over.body.error.status).toBe('INVALID_ARGUMENT');
  });

  it('orders by rating, ascending or descending, and refuses another order', async () => {
    const stars = (rs: Review[]) => rs.map((r) => STARS.indexOf(r.starRating));
    const up = stars(await everyReview('rating'));
    expect(up).toEqual([...up].sort((a, b) => a - b));
    const down = stars(await everyReview('rating desc'));
    expect(down).toEqual([...down].sort((a, b) => b - a));
    expect((await everyReview('update_time desc')).map((r) => r.name)).toEqual(
      (await everyReview()).map((r) => r.name),
    );
    for (const bad of ['updateTime', 'createTime desc', 'stars'])
      expect((await get(`${REVIEWS}?orderBy=${encodeURIComponent(bad)}`)).status).toBe(400);
  });

  it('averageRating is the mean of the stars, as one decimal', async () => {
    const all = await everyReview();
    const mean = all.reduce((s, r) => s + STARS.indexOf(r.starRating), 0) / all.length;
    const { body } = await get<ListAnswer>(`${REVIEWS}?pageSize=1`);
    expect(body.averageRating).toBe(Math.round(mean * 10) / 10);
  });

  it('a listing without reviews answers an empty object, as proto3 JSON leaves zeros out', async () => {
    const newShop = (await googleTokens(app, 'newshop@tenpo.example')).access_token;
    const url = `${V4}/accounts/${NEW_ACCOUNT}/locations/${NEW_IKEBUKURO}/reviews`;
    const { status, body } = await get(url, newShop);
    expect(status).toBe(200);
    expect(body).toEqual({});
  });

  it("answers another account's listing PERMISSION_DENIED and an unknown review NOT_FOUND", async () => {
    const other = (await googleTokens(app, 'trial@tenpo.example')).access_token;
    expect((await get(REVIEWS, other)).status).toBe(403);
    const missing = await get<{ error: { status: string } }>(`${REVIEWS}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.status).toBe('NOT_FOUND');
  });
});

describe('the seeded reviews', () => {
  it('are Japanese, spread over six months, some stars only, anonymous, with photos or replied', async () => {
    const all = await everyReview();
    const now = Date.now();
    for (const r of all) {
      const age = now - Date.parse(r.createTime);
      expect(age).toBeGreaterThan(0);
      expect(age).toBeLessThan(182 * 86_400_000);
      if (r.reviewer.isAnonymous) expect(r.reviewer.profilePhotoUrl).toBeUndefined();
      else expect(r.reviewer.profilePhotoUrl).toMatch(/\/google\/lh3\/a\//);
    }
    const ages = all.map((r) => now - Date.parse(r.createTime));
    expect(Math.max(...ages)).toBeGreaterThan(150 * 86_400_000);
    expect(all.some((r) => r.comment === undefined)).toBe(true);
    expect(all.some((r) => r.reviewer.isAnonymous)).toBe(true);
    expect(all.some((r) => /[ぁ-んァ-ン]/.test(r.comment ?? ''))).toBe(true);
    expect(
      all.filter((r) => r.reviewReply?.reviewReplyState === 'APPROVED').length,
    ).toBeGreaterThan(5);
    const low = all.filter((r) => ['ONE', 'TWO'].includes(r.starRating) && !r.reviewReply);
    expect(low.length).toBeGreaterThan(0);
    const withMedia = all.filter((r) => r.reviewMediaItems?.length);
    expect(withMedia.length).toBeGreaterThan(0);
    const photo = await app.inject({
      url: local(withMedia[0]?.reviewMediaItems?.[0]?.thumbnailUrl ?? ''),
    });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toContain('image/');
    const stars = all.map((r) => STARS.indexOf(r.starRating));
    expect(stars.filter((s) => s >= 4).length).toBeGreaterThan(stars.filter((s) => s <= 2).length);
  });

  it('are the same every time the sandbox starts', async () => {
    const first = (await everyReview()).map((r) => [r.reviewId, r.starRating, r.comment ?? '']);
    const { app: again } = await buildSandbox();
    const other = (await googleTokens(again)).access_token;
    const res = await again.inject({ url: `${REVIEWS}?pageSize=50`, headers: auth(other) });
    const second = (res.json() as ListAnswer).reviews?.map((r) => [
      r.reviewId,
      r.starRating,
      r.comment ?? '',
    ]);
    await again.close();
    expect(second).toEqual(first);
  });

  it('a reply outlives a restart; a state seeded with an older seed is seeded again', async () => {
    const { app: first, dataDir } = await buildSandbox();
    const t1 = (await googleTokens(first)).access_token;
    const list = await first.inject({ url: REVIEWS, headers: auth(t1) });
    const target = ((list.json() as ListAnswer).reviews ?? []).find((r) => !r.reviewReply);
    await first.inject({
      method: 'PUT',
      url: `${V4}/${target?.name}/reply`,
      headers: { ...auth(t1), 'content-type': 'application/json' },
      payload: { comment: '再起動の前の返信です。' },
    });
    await first.close();
    const reopen = async () => {
      const { app: next } = await buildSandbox(dataDir);
      const t = (await googleTokens(next)).access_token;
      const res = await next.inject({ url: `${V4}/${target?.name}`, headers: auth(t) });
      await next.close();
      return res;
    };
    expect(((await reopen()).json() as Review).reviewReply?.comment).toBe('再起動の前の返信です。');
    // A state written before this seed (no version, the review without its bookkeeping).
    const file = path.join(dataDir, 'sandbox', 'google.json');
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete saved.reviewsVersion;
    fs.writeFileSync(file, JSON.stringify(saved));
    const reseeded = (await reopen()).json() as Review;
    expect(reseeded.reviewReply).toBeUndefined();
    expect(reseeded.reviewReplyUrl).toContain('/google/review-reply?review=');
  });

  it('one listing holds a reply Google rejected, with its PolicyViolation', async () => {
    const minato = (await googleTokens(app, 'gbp@minato-foods.example')).access_token;
    const url = `${V4}/accounts/116209384756110482301/locations/7215038469920417302/reviews`;
    const { body } = await get<ListAnswer>(url, minato);
    const rejected = body.reviews?.find((r) => r.reviewReply?.reviewReplyState === 'REJECTED');
    expect(rejected?.reviewReply?.policyViolation).toBe('ADVERTISING_AND_SOLICITATION');
    expect(Object.keys(rejected?.reviewReply ?? {}).sort()).toEqual(
      Object.keys(fixture('reply-rejected.json'))
        .filter((k) => k !== '_source')
        .sort(),
    );
  });

  it('new ones arrive as the days pass', async () => {
    const before = (await get<ListAnswer>(`${REVIEWS}?pageSize=1`)).body.totalReviewCount as number;
    await control('POST', '/sandbox/control/clock', { advance_seconds: 120 * 86_400 });
    token = (await googleTokens(app)).access_token;
    const { body } = await get<ListAnswer>(`${REVIEWS}?pageSize=1`);
    expect(body.totalReviewCount).toBeGreaterThan(before);
    expect(body.reviews?.[0]?.reviewReply).toBeUndefined();
  });
});

describe('updateReply and deleteReply', () => {
  const unanswered = async () => (await everyReview()).find((r) => !r.reviewReply) as Review;

  it('creates or replaces the one reply: PENDING until moderated, then APPROVED', async () => {
    const target = await unanswered();
    const first = await putReply(target.name, 'ありがとうございます。');
    expect(first.statusCode).toBe(200);
    expect(Object.keys(first.json()).sort()).toEqual(
      Object.keys(fixture('reply-pending.json'))
        .filter((k) => k !== '_source')
        .sort(),
    );
    expect(first.json()).toMatchObject({ reviewReplyState: 'PENDING' });
    const text = 'ご来店ありがとうございました。';
    expect((await putReply(target.name, text)).statusCode).toBe(200);
    const after = await review(target.name);
    expect(after.reviewReply).toMatchObject({ comment: text, reviewReplyState: 'APPROVED' });
    expect(after.reviewReply?.policyViolation).toBeUndefined();
    expect((await everyReview()).filter((r) => r.reviewReply?.comment === text)).toHaveLength(1);
    const held = await control('GET', `${CONTROL}/${target.reviewId}`);
    expect(held.json()).toMatchObject({
      data: { name: target.name, reply_calls: 2, replies_now: 1 },
    });
    const history = (held.json() as { data: { history: { op: string }[] } }).data.history;
    expect(history.map((h) => h.op)).toEqual(['updateReply', 'updateReply', 'moderation']);
  });

  it('keeps the reply PENDING while the moderation takes its time', async () => {
    await control('PATCH', '/sandbox/control/settings', { google: { postLiveAfterMs: 60_000 } });
    const target = await unanswered();
    await putReply(target.name, 'ありがとうございます。');
    expect((await review(target.name)).reviewReply?.reviewReplyState).toBe('PENDING');
    await control('POST', '/sandbox/control/clock', { advance_seconds: 61 });
    expect((await review(target.name)).reviewReply?.reviewReplyState).toBe('APPROVED');
  });

  it('a reply with the reject marker ends REJECTED with a PolicyViolation', async () => {
    const [a, b] = (await everyReview()).filter((r) => !r.reviewReply);
    await putReply((a as Review).name, `地域No.1です ${REJECT_MARKER}`);
    await putReply((b as Review).name, `宣伝です ${REJECT_MARKER}:OFF_TOPIC`);
    const first = await review((a as Review).name);
    expect(first.reviewReply).toMatchObject({
      reviewReplyState: 'REJECTED',
      policyViolation: 'GENERIC_VIOLATION',
    });
    const documented = documentedReviewKeys();
    for (const k of keysOf(first)) expect(documented).toContain(k);
    expect((await review((b as Review).name)).reviewReply?.policyViolation).toBe('OFF_TOPIC');
    // A new reply starts its moderation again, and no violation is left over.
    await putReply((a as Review).name, 'ご来店ありがとうございました。');
    const again = await review((a as Review).name);
    expect(again.reviewReply?.reviewReplyState).toBe('APPROVED');
    expect(again.reviewReply?.policyViolation).toBeUndefined();
  });

  it('refuses no comment, an empty one and one over 4,096 bytes in the v4 envelope', async () => {
    const target = await unanswered();
    for (const bad of [undefined, '', '   ', 'あ'.repeat(1366)]) {
      const res = await putReply(target.name, bad);
      expect(res.statusCode).toBe(400);
      const err = (res.json() as { error: { status: string; details: Record<string, unknown>[] } })
        .error;
      expect(err.status).toBe('INVALID_ARGUMENT');
      expect(err.details[0]?.['@type']).toBe(
        'type.googleapis.com/google.mybusiness.v4.ValidationError',
      );
    }
    expect((await putReply(target.name, 'あ'.repeat(1365))).statusCode).toBe(200);
    const held = await control('GET', `${CONTROL}/${target.reviewId}`);
    expect((held.json() as { data: { reply_calls: number } }).data.reply_calls).toBe(1);
  });

  it('deleteReply answers {} and removes it; a second delete answers NOT_FOUND', async () => {
    const target = (await everyReview()).find((r) => r.reviewReply) as Review;
    const del = () =>
      app.inject({ method: 'DELETE', url: `${V4}/${target.name}/reply`, headers: auth(token) });
    const res = await del();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect((await review(target.name)).reviewReply).toBeUndefined();
    expect((await del()).statusCode).toBe(404);
  });
});

describe('fault switches on reviews', () => {
  const fault = (payload: object) => control('POST', '/sandbox/faults', payload);

  it('a rate limit on the list answers 429 RESOURCE_EXHAUSTED once, then the list again', async () => {
    await fault({ provider: 'google', kind: 'rate_limit', path: '/reviews', count: 1 });
    const limited = await get<{ error: { code: number; status: string } }>(REVIEWS);
    expect(limited.status).toBe(429);
    expect(limited.body.error.status).toBe('RESOURCE_EXHAUSTED');
    expect((await get(REVIEWS)).status).toBe(200);
  });

  it('a 503 or 500 on updateReply changes nothing at Google', async () => {
    const target = (await everyReview()).find((r) => !r.reviewReply) as Review;
    for (const status of [503, 500]) {
      await fault({
        provider: 'google',
        kind: 'server_error',
        status,
        method: 'PUT',
        path: '/reply',
      });
      const res = await putReply(target.name, 'ありがとうございます。');
      expect(res.statusCode).toBe(status);
      expect((res.json() as { error: { status: string } }).error.status).toBe(
        status === 503 ? 'UNAVAILABLE' : 'INTERNAL',
      );
    }
    expect((await review(target.name)).reviewReply).toBeUndefined();
    const held = await control('GET', `${CONTROL}/${target.reviewId}`);
    expect((held.json() as { data: { reply_calls: number } }).data.reply_calls).toBe(0);
  });
});

describe('the controls: customers and Google at work', () => {
  it('a review written through the control is the newest; camelCase and snake_case both do', async () => {
    const res = await control('POST', CONTROL, {
      location_id: SHIBUYA,
      star_rating: 2,
      comment: '待ち時間が長かったです。',
      reviewer: '山田 太郎',
      photos: 2,
    });
    expect(res.statusCode).toBe(200);
    const written = res.json() as Review;
    for (const k of keysOf(written)) expect(documentedReviewKeys()).toContain(k);
    expect(written.reviewMediaItems).toHaveLength(2);
    const stars = await control('POST', CONTROL, {
      location: `accounts/${SHOP_ACCOUNT}/locations/${SHIBUYA}`,
      starRating: 'FIVE',
      reviewer: { displayName: '匿名', isAnonymous: true },
      createTime: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(stars.statusCode).toBe(200);
    expect(stars.json()).toMatchObject({
      starRating: 'FIVE',
      reviewer: { displayName: 'Google ユーザー', isAnonymous: true },
    });
    expect((stars.json() as Review).comment).toBeUndefined();
    const { body } = await get<ListAnswer>(`${REVIEWS}?pageSize=1`);
    expect(body.reviews?.[0]).toMatchObject({
      name: written.name,
      starRating: 'TWO',
      comment: '待ち時間が長かったです。',
      reviewer: { displayName: '山田 太郎', isAnonymous: false },
    });
    expect(body.totalReviewCount).toBe(26);
  });

  it('refuses an unknown location, stars out of range and a time in the future', async () => {
    for (const body of [
      { location_id: '1', star_rating: 3 },
      { location_id: SHIBUYA, star_rating: 6 },
      { location_id: SHIBUYA, star_rating: 3, create_time: '2999-01-01T00:00:00Z' },
    ])
      expect((await control('POST', CONTROL, body)).statusCode).toBe(400);
  });

  it('a customer edits and deletes a review', async () => {
    const [target] = await everyReview('rating');
    const id = (target as Review).reviewId;
    const edited = await control('PATCH', `${CONTROL}/${id}`, { star_rating: 4, comment: null });
    expect(edited.json()).toMatchObject({ starRating: 'FOUR' });
    expect((edited.json() as Review).comment).toBeUndefined();
    const { body } = await get<ListAnswer>(`${REVIEWS}?pageSize=1`);
    expect(body.reviews?.[0]?.reviewId).toBe(id);
    expect((await control('DELETE', `${CONTROL}/${id}`)).statusCode).toBe(200);
    expect((await get(`${V4}/${(target as Review).name}`)).status).toBe(404);
    expect((await get<ListAnswer>(`${REVIEWS}?pageSize=1`)).body.totalReviewCount).toBe(23);
  });

  it('Google rejects an approved reply later, or holds one pending', async () => {
    const target = (await everyReview()).find((r) => r.reviewReply) as Review;
    const url = `${CONTROL}/${target.reviewId}/moderation`;
    const res = await control('POST', url, {
      state: 'REJECTED',
      policy_violation: 'PERSONAL_INFO',
    });
    expect(res.json()).toMatchObject({ data: { reviewReplyState: 'REJECTED' } });
    expect((await review(target.name)).reviewReply?.policyViolation).toBe('PERSONAL_INFO');
    await control('POST', url, { state: 'PENDING' });
    expect((await review(target.name)).reviewReply?.reviewReplyState).toBe('PENDING');
    expect((await control('POST', url, { state: 'DONE' })).statusCode).toBe(400);
    expect(
      (await control('POST', url, { state: 'REJECTED', policy_violation: 'SPAM' })).statusCode,
    ).toBe(400);
  });

  it("reviewReplyUrl opens Google's reply screen, where the owner can reply too", async () => {
    const target = (await everyReview()).find((r) => !r.reviewReply && r.comment) as Review;
    const page = await app.inject({ url: local(target.reviewReplyUrl) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(target.comment);
    const sent = await app.inject({
      method: 'POST',
      url: local(target.reviewReplyUrl),
      headers: FORM,
      payload: form({ review: target.name, comment: 'ご来店ありがとうございました。' }),
    });
    expect(sent.statusCode).toBe(303);
    expect((await review(target.name)).reviewReply?.comment).toBe('ご来店ありがとうございました。');
  });
});

describe("the listing's review link", () => {
  it("Location.metadata.newReviewUri is Google's write-a-review link for the place", async () => {
    const { body } = await get<{ metadata: { newReviewUri: string; placeId: string } }>(
      `/sandbox/google/mybusinessbusinessinformation/v1/locations/${SHIBUYA}?readMask=metadata`,
    );
    expect(body.metadata.newReviewUri).toBe(
      `https://search.google.com/local/writereview?placeid=${body.metadata.placeId}`,
    );
  });
});
