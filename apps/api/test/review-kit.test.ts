import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewKitJa } from '@tenpo/domain';
import { call, json, login, type TestApp } from './helpers';
import { startPostsWorld, type PostsWorld } from './posts-harness';
import type { RunningSandbox } from './sandbox';
import { shopGoogleToken } from './sandbox';

/** The review-request kit (issue 25 item 8): the link is the one Google holds for the listing. */
let w: PostsWorld;
let sb: RunningSandbox;
let t: TestApp;
let token = '';
let shop = 0;
const LOCATION = '4821390157204861230';

beforeAll(async () => {
  w = await startPostsWorld({ channelTimeoutMs: 1500 });
  ({ sb, t, token, shop } = w);
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});

describe('GET /reviews/request-kit', () => {
  it("answers Google's write-a-review link for the listing, its QR code and the rules", async () => {
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/reviews/request-kit?user_id=${shop}`,
      token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const kit = json<{
      data: { new_review_uri: string; qr_svg: string; rules: string[]; store_name: string };
    }>(res).data;
    const google = await fetch(
      `${sb.url}/google/mybusinessbusinessinformation/v1/locations/${LOCATION}?readMask=metadata`,
      { headers: { authorization: `Bearer ${await shopGoogleToken(sb.url)}` } },
    );
    const { metadata } = (await google.json()) as { metadata: { newReviewUri: string } };
    expect(kit.new_review_uri).toBe(metadata.newReviewUri);
    expect(kit.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(kit.rules).toEqual([...reviewKitJa.rules]);
    expect(kit.store_name).toBe('カフェ テンポ 渋谷店');
  });

  it('a store without Google connected is told so', async () => {
    const other = await login(t.app, 'newshop@tenpo.example');
    const { id } = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'newshop@tenpo.example')
      .executeTakeFirstOrThrow();
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/reviews/request-kit?user_id=${id}`,
      token: other,
    });
    expect(res.statusCode).toBe(409);
  });
});
