import { expect, type APIRequestContext } from '@playwright/test';

/**
 * What the providers hold, read through the sandbox's own provider APIs (the same list calls a
 * real provider answers), with the demo grants the sandbox documents (apps/sandbox/README.md).
 * Every read filters by a text unique to the journey, so journeys running side by side on the
 * same accounts never count each other's posts.
 */

const S = '/sandbox';
const CLIENT = { id: 'tenpo-sandbox', secret: 'tenpo-sandbox-secret' };
const JSON_ONLY = { Accept: 'application/json' };

/** A Google location as the sandbox's v4 API names it, with the grant that reaches it. */
export type GoogleLocation = { account: string; location: string; refreshToken: string };

const minato = '1//0eSandboxDemoGrant-gbp-minato-foods-example-business-manage';
export const GOOGLE = {
  shop: {
    account: '104772635510001234567',
    location: '4821390157204861230',
    refreshToken: '1//0eSandboxDemoGrant-shop-tenpo-example-business-manage',
  },
  trial: {
    account: '104772635510007654321',
    location: '5930178246613098001',
    refreshToken: '1//0eSandboxDemoGrant-trial-tenpo-example-business-manage',
  },
  // The agency's ミナトフーズ stores (leader 渋谷店, store02 新宿店, store03 池袋店).
  minatoShibuya: {
    account: '116209384756110482301',
    location: '7215038469920417301',
    refreshToken: minato,
  },
  minatoShinjuku: {
    account: '116209384756110482301',
    location: '7215038469920417302',
    refreshToken: minato,
  },
  minatoIkebukuro: {
    account: '116209384756110482301',
    location: '7215038469920417303',
    refreshToken: minato,
  },
  // The agency's 整体院 ほぐし庵 横浜 (store10): a chiropractor, checked under the medical rules.
  hogushian: {
    account: '116209384756140725604',
    location: '7569314708253301101',
    refreshToken: '1//0eSandboxDemoGrant-contact-hogushian-example-business-manage',
  },
} satisfies Record<string, GoogleLocation>;

/** The shop's Facebook Page, its linked Instagram account (one page token for both), its X user. */
export const SHOP_PAGE = {
  id: '104857392017465',
  token: 'EAATSandboxDemoGrantPage104857392017465',
};
export const SHOP_IG = '17841400000000101';
export const SHOP_X_USER = '1701234567890123456';

const ok = async <T>(r: Awaited<ReturnType<APIRequestContext['get']>>, what: string) => {
  expect(r.status(), `${what}: ${await r.text()}`).toBeLessThan(300);
  return (await r.json()) as T;
};

const googleTokens = new Map<string, string>();
async function googleToken(request: APIRequestContext, refreshToken: string): Promise<string> {
  const known = googleTokens.get(refreshToken);
  if (known) return known;
  const r = await request.post(`${S}/google/oauth2/token`, {
    form: {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
    },
  });
  const token = (await ok<{ access_token: string }>(r, 'Google token')).access_token;
  googleTokens.set(refreshToken, token);
  return token;
}

/** A GET of Google's API with the location's grant; a token that lived its hour is renewed once. */
async function googleGet(request: APIRequestContext, at: GoogleLocation, url: string) {
  const get = async () =>
    request.get(url, {
      headers: {
        ...JSON_ONLY,
        Authorization: `Bearer ${await googleToken(request, at.refreshToken)}`,
      },
    });
  let r = await get();
  if (r.status() === 401) {
    // The access token lived its hour (or the clock moved): ask for a fresh one.
    googleTokens.delete(at.refreshToken);
    r = await get();
  }
  return r;
}

/** Google: the location's local posts (v4 `localPosts.list`) whose summary holds `text`. */
export async function googlePosts(
  request: APIRequestContext,
  at: GoogleLocation,
  text: string,
): Promise<{ name: string; summary: string; state: string; createTime: string }[]> {
  const r = await googleGet(
    request,
    at,
    `${S}/google/mybusiness/v4/accounts/${at.account}/locations/${at.location}/localPosts?pageSize=100`,
  );
  type LocalPost = { name: string; summary?: string; state: string; createTime: string };
  const body = await ok<{ localPosts?: LocalPost[] }>(r, 'Google localPosts');
  return (body.localPosts ?? [])
    .filter((p) => (p.summary ?? '').includes(text))
    .map((p) => ({ ...p, summary: p.summary ?? '' }));
}

/** Facebook: the Page's published posts whose message holds `text`. */
export async function facebookPosts(
  request: APIRequestContext,
  text: string,
): Promise<{ id: string }[]> {
  const r = await request.get(`${S}/facebook/graph/v21.0/${SHOP_PAGE.id}/published_posts`, {
    params: { fields: 'id,message', limit: '100', access_token: SHOP_PAGE.token },
    headers: JSON_ONLY,
  });
  const body = await ok<{ data: { id: string; message?: string }[] }>(r, 'Facebook posts');
  return body.data.filter((p) => (p.message ?? '').includes(text)).map((p) => ({ id: p.id }));
}

/** Instagram: the account's media whose caption holds `text`. */
export async function instagramPosts(
  request: APIRequestContext,
  text: string,
): Promise<{ id: string }[]> {
  const r = await request.get(`${S}/facebook/graph/v21.0/${SHOP_IG}/media`, {
    params: { fields: 'id,caption', limit: '100', access_token: SHOP_PAGE.token },
    headers: JSON_ONLY,
  });
  const body = await ok<{ data: { id: string; caption?: string }[] }>(r, 'Instagram media');
  return body.data.filter((p) => (p.caption ?? '').includes(text)).map((p) => ({ id: p.id }));
}

let xToken: string | null = null;
/** A reading token of the shop's X user, through X's own consent and PKCE exchange. */
async function xReadToken(request: APIRequestContext): Promise<string> {
  if (xToken) return xToken;
  const verifier = `e2e-reader-${'v'.repeat(40)}`;
  const redirect = 'http://127.0.0.1/e2e-reader';
  const consent = await request.post(`${S}/x/i/oauth2/authorize`, {
    form: {
      response_type: 'code',
      client_id: CLIENT.id,
      redirect_uri: redirect,
      state: 'e2e',
      code_challenge: verifier,
      code_challenge_method: 'plain',
      scope: 'tweet.read users.read',
      user_id: SHOP_X_USER,
      decision: 'allow',
    },
    maxRedirects: 0,
  });
  expect(consent.status(), 'X consent').toBe(302);
  const code = new URL(consent.headers().location ?? '').searchParams.get('code');
  expect(code, 'X authorization code').toBeTruthy();
  const r = await request.post(`${S}/x/api/2/oauth2/token`, {
    headers: {
      Authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
    },
    form: {
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: redirect,
      code_verifier: verifier,
    },
  });
  xToken = (await ok<{ access_token: string }>(r, 'X token')).access_token;
  return xToken;
}

/** X: the shop's user timeline (`GET /2/users/:id/tweets`) entries whose text holds `text`. */
export async function xPosts(request: APIRequestContext, text: string): Promise<{ id: string }[]> {
  const r = await request.get(`${S}/x/api/2/users/${SHOP_X_USER}/tweets`, {
    params: { max_results: '100' },
    headers: { ...JSON_ONLY, Authorization: `Bearer ${await xReadToken(request)}` },
  });
  const body = await ok<{ data?: { id: string; text: string }[] }>(r, 'X timeline');
  return (body.data ?? []).filter((p) => p.text.includes(text)).map((p) => ({ id: p.id }));
}

/** A fault switch of the sandbox (apps/sandbox README, "Fault switches"); returns its id. */
export async function addFault(
  request: APIRequestContext,
  fault: Record<string, unknown>,
): Promise<{ id: string; seen: number; fired: number }> {
  const r = await request.post(`${S}/faults`, { data: fault, headers: JSON_ONLY });
  return (await ok<{ data: { id: string; seen: number; fired: number } }>(r, 'fault')).data;
}

export async function faultById(
  request: APIRequestContext,
  id: string,
): Promise<{ id: string; seen: number; fired: number } | undefined> {
  const r = await request.get(`${S}/faults`, { headers: JSON_ONLY });
  const list = (await ok<{ data: { id: string; seen: number; fired: number }[] }>(r, 'faults'))
    .data;
  return list.find((f) => f.id === id);
}

export async function clearFault(request: APIRequestContext, id: string): Promise<void> {
  const r = await request.delete(`${S}/faults/${id}`, { headers: JSON_ONLY });
  expect(r.status(), 'fault cleared').toBe(200);
}

/** Google: the location's listing fields (Business Information `locations.get` with a readMask). */
export async function googleListing(
  request: APIRequestContext,
  at: GoogleLocation,
  readMask: string,
): Promise<Record<string, unknown>> {
  const r = await googleGet(
    request,
    at,
    `${S}/google/mybusinessbusinessinformation/v1/locations/${at.location}?readMask=${readMask}`,
  );
  return ok<Record<string, unknown>>(r, 'Google location');
}

/** Google: the location's media (v4 `media.list`), newest first, as the sandbox's Google holds them. */
export async function googleMedia(
  request: APIRequestContext,
  at: GoogleLocation,
): Promise<{ name: string; googleUrl: string; dataRef?: { resourceName: string } }[]> {
  const r = await googleGet(
    request,
    at,
    `${S}/google/mybusiness/v4/accounts/${at.account}/locations/${at.location}/media?pageSize=2500`,
  );
  type Item = { name: string; googleUrl: string; dataRef?: { resourceName: string } };
  return (await ok<{ mediaItems?: Item[] }>(r, 'Google media')).mediaItems ?? [];
}

/** Google: a customer writes a review of the location (the sandbox's control endpoint). */
export async function writeGoogleReview(
  request: APIRequestContext,
  at: GoogleLocation,
  review: { star_rating: number; comment: string; reviewer: string },
): Promise<{ name: string }> {
  const r = await request.post(`${S}/control/google/reviews`, {
    data: { location_id: at.location, ...review },
  });
  return ok<{ name: string }>(r, 'Google review');
}

/** The sandbox's record of a review: how many times its reply was written (updateReply). */
export async function googleReplyCalls(request: APIRequestContext, name: string): Promise<number> {
  const id = name.split('/').pop() ?? '';
  const r = await request.get(`${S}/control/google/reviews/${id}`);
  return (await ok<{ data: { reply_calls: number } }>(r, 'Google review record')).data.reply_calls;
}

/** Google: one review (v4 `reviews.get`), with the reply Google holds. */
export async function googleReview(
  request: APIRequestContext,
  at: GoogleLocation,
  name: string,
): Promise<{ reviewReply?: { comment: string; reviewReplyState?: string } }> {
  const r = await googleGet(request, at, `${S}/google/mybusiness/v4/${name}`);
  return ok(r, 'Google review');
}
