import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { auth, buildSandbox, googleTokens } from '../shared/testing';
import { REJECT_MARKER } from './google.v4-common';

const SHOP_ACCOUNT = '104772635510001234567';
const SHIBUYA = '4821390157204861230';
const REVIEWS = `/sandbox/google/mybusiness/v4/accounts/${SHOP_ACCOUNT}/locations/${SHIBUYA}/reviews`;
const FIXTURES = path.resolve(import.meta.dirname, '../../../../fixtures/google-reviews');
const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

type Review = Record<string, unknown> & {
  name: string;
  starRating: string;
  updateTime: string;
  reviewReply?: Record<string, unknown>;
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

const get = async (url: string) => {
  const res = await app.inject({ method: 'GET', url, headers: auth(token) });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
};
const putReply = (name: string, comment: unknown) =>
  app.inject({
    method: 'PUT',
    url: `/sandbox/google/mybusiness/v4/${name}/reply`,
    headers: { ...auth(token), 'content-type': 'application/json' },
    payload: { comment },
  });

/** Every key of an object, nested objects' keys as `a.b` (arrays by their first item). */
const keysOf = (o: unknown, prefix = ''): string[] =>
  o && typeof o === 'object'
    ? Object.entries(Array.isArray(o) ? (o[0] ?? {}) : o).flatMap(([k, v]) =>
        k === '_source' ? [] : [`${prefix}${k}`, ...keysOf(v, `${prefix}${k}.`)],
      )
    : [];

describe('v4 reviews (fixtures/google-reviews)', () => {
  it("lists the location's reviews newest first, in Google's shapes, with its totals", async () => {
    const { status, body } = await get(`${REVIEWS}?pageSize=5`);
    expect(status).toBe(200);
    const reviews = body.reviews as Review[];
    expect(reviews).toHaveLength(5);
    expect(body.totalReviewCount).toBeGreaterThan(5);
    expect(typeof body.averageRating).toBe('number');
    expect(body.nextPageToken).toBeTruthy();
    const times = reviews.map((r) => r.updateTime);
    expect([...times].sort().reverse()).toEqual(times);
    // Every key the emulator answers is one Google's documented answer has.
    const known = new Set(keysOf(fixture('list.json')));
    for (const r of reviews) for (const k of keysOf(r)) expect(known).toContain(`reviews.${k}`);
    for (const r of reviews)
      expect(['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE']).toContain(r.starRating);
    // The pages together hold every review once.
    const names = new Set<string>();
    let next: unknown = undefined;
    do {
      const page = await get(`${REVIEWS}?pageSize=50${next ? `&pageToken=${String(next)}` : ''}`);
      for (const r of page.body.reviews as Review[]) names.add(r.name);
      next = page.body.nextPageToken;
    } while (next);
    expect(names.size).toBe(body.totalReviewCount);
  });

  it('refuses a page size over 50, as Google does', async () => {
    expect((await get(`${REVIEWS}?pageSize=51`)).status).toBe(400);
  });

  it('updateReply creates or replaces the one reply, PENDING until moderated, then APPROVED', async () => {
    const { body } = await get(`${REVIEWS}?pageSize=50`);
    const target = (body.reviews as Review[]).find((r) => !r.reviewReply) as Review;
    const first = await putReply(target.name, 'ありがとうございます。');
    expect(first.statusCode).toBe(200);
    expect(Object.keys(first.json()).sort()).toEqual(
      Object.keys(fixture('reply-pending.json'))
        .filter((k) => k !== '_source')
        .sort(),
    );
    expect(first.json()).toMatchObject({ reviewReplyState: 'PENDING' });
    await putReply(target.name, 'ご来店ありがとうございました。');
    const after = (await get(`/sandbox/google/mybusiness/v4/${target.name}`)).body as Review;
    expect(after.reviewReply?.comment).toBe('ご来店ありがとうございました。');
    expect(after.reviewReply?.reviewReplyState).toBe('APPROVED');
  });

  it('a reply with the reject marker ends REJECTED with a policy violation', async () => {
    const { body } = await get(`${REVIEWS}?pageSize=50`);
    const target = (body.reviews as Review[])[0] as Review;
    await putReply(target.name, `地域No.1です ${REJECT_MARKER}`);
    const after = (await get(`/sandbox/google/mybusiness/v4/${target.name}`)).body as Review;
    expect(Object.keys(after.reviewReply ?? {}).sort()).toEqual(
      Object.keys(fixture('reply-rejected.json'))
        .filter((k) => k !== '_source')
        .sort(),
    );
    expect(after.reviewReply?.reviewReplyState).toBe('REJECTED');
  });

  it('refuses an empty reply and one over 4,096 bytes; deleteReply removes it', async () => {
    const { body } = await get(`${REVIEWS}?pageSize=50`);
    const target = (body.reviews as Review[])[0] as Review;
    expect((await putReply(target.name, '')).statusCode).toBe(400);
    expect((await putReply(target.name, 'あ'.repeat(1366))).statusCode).toBe(400);
    expect((await putReply(target.name, 'あ'.repeat(1365))).statusCode).toBe(200);
    const del = await app.inject({
      method: 'DELETE',
      url: `/sandbox/google/mybusiness/v4/${target.name}/reply`,
      headers: auth(token),
    });
    expect(del.statusCode).toBe(200);
    expect(
      ((await get(`/sandbox/google/mybusiness/v4/${target.name}`)).body as Review).reviewReply,
    ).toBeUndefined();
  });

  it('a review written through the control endpoint is the newest', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/sandbox/control/google/reviews',
      payload: { location_id: SHIBUYA, star_rating: 2, comment: '待ち時間が長かったです。' },
    });
    expect(res.statusCode).toBe(200);
    const { body } = await get(`${REVIEWS}?pageSize=1`);
    expect((body.reviews as Review[])[0]).toMatchObject({
      starRating: 'TWO',
      comment: '待ち時間が長かったです。',
    });
  });
});
