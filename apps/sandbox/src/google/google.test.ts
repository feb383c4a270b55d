import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sandboxDemoGrants } from '../index';
import {
  auth,
  buildSandbox,
  CLIENT,
  FORM,
  form,
  GOOGLE_SCOPE,
  googleTokens,
  REDIRECT,
  redirectQuery,
  fakeJpeg,
} from '../shared/testing';
import { s256 } from '../shared/oauth';
import { quotaExceeded, v4ValidationError } from './google.errors';

const SHOP_ACCOUNT = '104772635510001234567';
const SHIBUYA = '4821390157204861230';
const TRIAL_LOCATION = '5930178246613098001';
const BI = '/sandbox/google/mybusinessbusinessinformation/v1';
const PERF = '/sandbox/google/businessprofileperformance/v1';
const V4 = '/sandbox/google/mybusiness/v4';

let app: FastifyInstance;
let dataDir: string;
beforeEach(async () => {
  ({ app, dataDir } = await buildSandbox());
});
afterEach(async () => {
  await app.close();
});

const consentParams = {
  client_id: CLIENT.id,
  redirect_uri: REDIRECT,
  response_type: 'code',
  scope: GOOGLE_SCOPE,
  state: 'xyz',
  access_type: 'offline',
};

describe('Google OAuth: consent and code exchange', () => {
  it('shows a consent page listing the test accounts', async () => {
    const res = await app.inject({
      url: `/sandbox/google/accounts/o/oauth2/v2/auth?${form(consentParams)}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('shop@tenpo.example');
    expect(res.body).toContain('newshop@tenpo.example');
    expect(res.body).toContain('許可');
  });

  it('refuses an unknown client on its own page', async () => {
    const res = await app.inject({
      url: `/sandbox/google/accounts/o/oauth2/v2/auth?${form({ ...consentParams, client_id: 'other' })}`,
    });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('invalid_client');
  });

  it('redirects with error=access_denied and the state when the user denies', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/sandbox/google/accounts/o/oauth2/v2/auth',
      headers: FORM,
      payload: form({ ...consentParams, account: 'shop@tenpo.example', decision: 'deny' }),
    });
    expect(res.statusCode).toBe(302);
    const q = redirectQuery(res.headers.location as string);
    expect(q.get('error')).toBe('access_denied');
    expect(q.get('state')).toBe('xyz');
  });

  it('exchanges a code once, with the right secret and redirect URI', async () => {
    // newshop holds no grant yet, so its first offline consent brings a refresh token.
    const res = await app.inject({
      method: 'POST',
      url: '/sandbox/google/accounts/o/oauth2/v2/auth',
      headers: FORM,
      payload: form({ ...consentParams, account: 'newshop@tenpo.example', decision: 'allow' }),
    });
    const q = redirectQuery(res.headers.location as string);
    expect(q.get('state')).toBe('xyz');
    const code = q.get('code') as string;
    const exchange = (extra: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/sandbox/google/oauth2/token',
        headers: FORM,
        payload: form({
          code,
          client_id: CLIENT.id,
          client_secret: CLIENT.secret,
          redirect_uri: REDIRECT,
          grant_type: 'authorization_code',
          ...extra,
        }),
      });
    const badSecret = await exchange({ client_secret: 'nope' });
    expect(badSecret.statusCode).toBe(401);
    expect(badSecret.json().error).toBe('invalid_client');
    const badRedirect = await exchange({ redirect_uri: 'http://evil.test/cb' });
    expect(badRedirect.json().error).toBe('redirect_uri_mismatch');
    const ok = await exchange({});
    expect(ok.statusCode).toBe(200);
    const body = ok.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3599, scope: GOOGLE_SCOPE });
    expect(body.access_token).toMatch(/^ya29\./);
    expect(body.refresh_token).toMatch(/^1\/\//);
    const again = await exchange({});
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
  });

  it('issues a refresh token again only with prompt=consent', async () => {
    await googleTokens(app);
    const withoutPrompt = await googleTokens(app, 'shop@tenpo.example', { prompt: '' });
    expect(withoutPrompt.refresh_token).toBeUndefined();
    const withPrompt = await googleTokens(app, 'shop@tenpo.example', { prompt: 'consent' });
    expect(withPrompt.refresh_token).toBeDefined();
  });

  it('verifies a PKCE S256 challenge when one was sent', async () => {
    const verifier = 'a'.repeat(50);
    const res = await app.inject({
      method: 'POST',
      url: '/sandbox/google/accounts/o/oauth2/v2/auth',
      headers: FORM,
      payload: form({
        ...consentParams,
        code_challenge: s256(verifier),
        code_challenge_method: 'S256',
        account: 'shop@tenpo.example',
        decision: 'allow',
      }),
    });
    const code = redirectQuery(res.headers.location as string).get('code') as string;
    const bad = await app.inject({
      method: 'POST',
      url: '/sandbox/google/oauth2/token',
      headers: FORM,
      payload: form({
        code,
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uri: REDIRECT,
        grant_type: 'authorization_code',
        code_verifier: 'b'.repeat(50),
      }),
    });
    expect(bad.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: 'Invalid code verifier.',
    });
  });
});

describe('Google OAuth: token lifetime and revoke', () => {
  it('expires access tokens, refreshes them, and ends the grant on revoke', async () => {
    const t = await googleTokens(app);
    expect(
      (
        await app.inject({
          url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
          headers: auth(t.access_token),
        })
      ).statusCode,
    ).toBe(200);
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 3600 },
    });
    const expired = await app.inject({
      url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
      headers: auth(t.access_token),
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['www-authenticate']).toContain('invalid_token');
    expect(expired.json().error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
    expect(expired.json().error.details[0]).toMatchObject({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'ACCESS_TOKEN_EXPIRED',
    });

    const refreshed = await app.inject({
      method: 'POST',
      url: '/sandbox/google/oauth2/token',
      headers: FORM,
      payload: form({
        grant_type: 'refresh_token',
        refresh_token: t.refresh_token as string,
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
      }),
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().refresh_token).toBeUndefined();
    const fresh = refreshed.json().access_token as string;
    expect(
      (
        await app.inject({
          url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
          headers: auth(fresh),
        })
      ).statusCode,
    ).toBe(200);

    const revoke = await app.inject({
      method: 'POST',
      url: '/sandbox/google/oauth2/revoke',
      headers: FORM,
      payload: form({ token: t.refresh_token as string }),
    });
    expect(revoke.statusCode).toBe(200);
    expect(
      (
        await app.inject({
          url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
          headers: auth(fresh),
        })
      ).statusCode,
    ).toBe(401);
    const after = await app.inject({
      method: 'POST',
      url: '/sandbox/google/oauth2/token',
      headers: FORM,
      payload: form({
        grant_type: 'refresh_token',
        refresh_token: t.refresh_token as string,
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
      }),
    });
    expect(after.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('honours a shorter access-token lifetime set through the control', async () => {
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { google: { accessTokenTtlSeconds: 60 } },
    });
    const t = await googleTokens(app);
    expect(t.expires_in).toBe(60);
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 61 },
    });
    expect(
      (
        await app.inject({
          url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
          headers: auth(t.access_token),
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('Account Management and Business Information: accounts and locations', () => {
  it("lists the caller's accounts and their locations with the read mask applied", async () => {
    const t = await googleTokens(app);
    const accounts = (
      await app.inject({
        url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
        headers: auth(t.access_token),
      })
    ).json();
    expect(accounts.accounts).toEqual([
      {
        name: `accounts/${SHOP_ACCOUNT}`,
        accountName: 'Tenpo Demo Shop',
        type: 'PERSONAL',
        role: 'PRIMARY_OWNER',
        verificationState: 'UNVERIFIED',
        vettedState: 'NOT_VETTED',
        permissionLevel: 'OWNER_LEVEL',
      },
    ]);
    const res = await app.inject({
      url: `${BI}/accounts/${SHOP_ACCOUNT}/locations?readMask=name,title,storefrontAddress,phoneNumbers`,
      headers: auth(t.access_token),
    });
    expect(res.statusCode).toBe(200);
    const locs = res.json().locations as Record<string, unknown>[];
    expect(locs).toHaveLength(3);
    expect(Object.keys(locs[0] as object).sort()).toEqual([
      'name',
      'phoneNumbers',
      'storefrontAddress',
      'title',
    ]);
    expect(locs[0]).toMatchObject({
      name: `locations/${SHIBUYA}`,
      title: 'カフェ テンポ 渋谷店',
      storefrontAddress: { regionCode: 'JP', administrativeArea: '東京都' },
    });
  });

  it('leaves an empty list out of the answer, as proto3 JSON does', async () => {
    const t = await googleTokens(app, 'empty@tenpo.example');
    const accounts = (
      await app.inject({
        url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
        headers: auth(t.access_token),
      })
    ).json();
    const account = (accounts.accounts as { name: string }[])[0]?.name;
    expect(account).toMatch(/^accounts\/\d+$/);
    const res = await app.inject({
      url: `${BI}/${account}/locations?readMask=name,title`,
      headers: auth(t.access_token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    const none = await app.inject({
      url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts?filter=type%3DLOCATION_GROUP',
      headers: auth(t.access_token),
    });
    expect(none.json()).toEqual({});
  });

  it("requires readMask, with Google's BadRequest field violation", async () => {
    const t = await googleTokens(app);
    const res = await app.inject({
      url: `${BI}/accounts/${SHOP_ACCOUNT}/locations`,
      headers: auth(t.access_token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        code: 400,
        message: 'Request contains an invalid argument.',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'read_mask', description: 'Field is required' }],
          },
        ],
      },
    });
    const bad = await app.inject({
      url: `${BI}/accounts/${SHOP_ACCOUNT}/locations?readMask=locations.title`,
      headers: auth(t.access_token),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('pages locations and accepts the escaped resource name of generated clients', async () => {
    const t = await googleTokens(app);
    const first = (
      await app.inject({
        url: `${BI}/accounts/${SHOP_ACCOUNT}/locations?readMask=name&pageSize=2`,
        headers: auth(t.access_token),
      })
    ).json();
    expect(first.locations).toHaveLength(2);
    const second = (
      await app.inject({
        url: `${BI}/accounts/${SHOP_ACCOUNT}/locations?readMask=name&pageSize=2&pageToken=${first.nextPageToken}`,
        headers: auth(t.access_token),
      })
    ).json();
    expect(second.locations).toHaveLength(1);
    expect(second.nextPageToken).toBeUndefined();
    const escaped = await app.inject({
      url: `${BI}/locations%2F${SHIBUYA}?readMask=title`,
      headers: auth(t.access_token),
    });
    expect(escaped.json()).toEqual({ title: 'カフェ テンポ 渋谷店' });
  });

  it('answers 403 for a location of another account and 404 for none', async () => {
    const t = await googleTokens(app);
    expect(
      (
        await app.inject({
          url: `${BI}/locations/${TRIAL_LOCATION}?readMask=title`,
          headers: auth(t.access_token),
        })
      ).json().error.status,
    ).toBe('PERMISSION_DENIED');
    expect(
      (
        await app.inject({ url: `${BI}/locations/1?readMask=title`, headers: auth(t.access_token) })
      ).json().error.status,
    ).toBe('NOT_FOUND');
  });
});

describe('Account Management and Business Information: edits and categories', () => {
  it('patches with updateMask merge semantics and validates the edit', async () => {
    const t = await googleTokens(app);
    const patch = (mask: string, body: unknown) =>
      app.inject({
        method: 'PATCH',
        url: `${BI}/locations/${SHIBUYA}?updateMask=${mask}`,
        headers: auth(t.access_token),
        payload: body as object,
      });
    const ok = await patch('title,phoneNumbers', {
      title: 'カフェ テンポ 渋谷本店',
      phoneNumbers: { primaryPhone: '03-6418-2299' },
      websiteUri: 'https://ignored.example',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      title: 'カフェ テンポ 渋谷本店',
      phoneNumbers: { primaryPhone: '03-6418-2299' },
      websiteUri: 'https://cafe-tenpo.example/shibuya',
    });
    const partial = await patch('phoneNumbers.primaryPhone', {
      phoneNumbers: { primaryPhone: '03-0000-0000' },
    });
    expect(partial.statusCode).toBe(400);
    const badCat = await patch('categories', {
      categories: { primaryCategory: { name: 'categories/gcid:nope' } },
    });
    expect(badCat.json().error.details[0].fieldViolations[0].field).toBe(
      'categories.primary_category',
    );
    const meta = await patch('metadata', { metadata: {} });
    expect(meta.statusCode).toBe(400);
    const noMask = await app.inject({
      method: 'PATCH',
      url: `${BI}/locations/${SHIBUYA}`,
      headers: auth(t.access_token),
      payload: {},
    });
    expect(noMask.json().error.details[0].fieldViolations[0]).toEqual({
      field: 'update_mask',
      description: 'Field is required',
    });
    const cat = await patch('categories', {
      categories: { primaryCategory: { name: 'categories/gcid:bakery' }, additionalCategories: [] },
    });
    expect(cat.json().categories.primaryCategory).toEqual({
      name: 'categories/gcid:bakery',
      displayName: 'ベーカリー',
    });
  });

  it('limits edits to 10 a minute per profile with RESOURCE_EXHAUSTED', async () => {
    const t = await googleTokens(app);
    for (let i = 0; i < 10; i++) {
      const r = await app.inject({
        method: 'PATCH',
        url: `${BI}/locations/${SHIBUYA}?updateMask=title`,
        headers: auth(t.access_token),
        payload: { title: `テンポ ${i}` },
      });
      expect(r.statusCode).toBe(200);
    }
    const over = await app.inject({
      method: 'PATCH',
      url: `${BI}/locations/${SHIBUYA}?updateMask=title`,
      headers: auth(t.access_token),
      payload: { title: 'テンポ 11' },
    });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.status).toBe('RESOURCE_EXHAUSTED');
    expect(over.json().error.details[0]).toMatchObject({
      reason: 'RATE_LIMIT_EXCEEDED',
      domain: 'googleapis.com',
    });
    const other = await app.inject({
      method: 'PATCH',
      url: `${BI}/locations/4821390157204861231?updateMask=title`,
      headers: auth(t.access_token),
      payload: { title: '吉祥寺' },
    });
    expect(other.statusCode).toBe(200);
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 61 },
    });
    const later = await app.inject({
      method: 'PATCH',
      url: `${BI}/locations/${SHIBUYA}?updateMask=title`,
      headers: auth(t.access_token),
      payload: { title: 'テンポ 12' },
    });
    expect(later.statusCode).toBe(200);
  });

  it('lists categories in Japanese, filters by display name and shows FULL details', async () => {
    const t = await googleTokens(app);
    const basic = (
      await app.inject({
        url: `${BI}/categories?regionCode=JP&languageCode=ja&view=BASIC&filter=displayName=カフェ`,
        headers: auth(t.access_token),
      })
    ).json();
    expect(basic.categories).toContainEqual({
      name: 'categories/gcid:cafe',
      displayName: 'カフェ',
    });
    const full = (
      await app.inject({
        url: `${BI}/categories?regionCode=JP&languageCode=ja&view=FULL&pageSize=1`,
        headers: auth(t.access_token),
      })
    ).json();
    expect(full.categories[0].moreHoursTypes[0]).toMatchObject({
      hoursTypeId: 'TAKEOUT',
      localizedDisplayName: 'テイクアウト',
    });
    expect(full.nextPageToken).toBeDefined();
    const missing = await app.inject({
      url: `${BI}/categories?languageCode=ja&view=BASIC`,
      headers: auth(t.access_token),
    });
    expect(missing.statusCode).toBe(400);
  });

  it('refuses a token without the business.manage scope', async () => {
    const t = await googleTokens(app, 'shop@tenpo.example', { scope: 'openid email' });
    const res = await app.inject({
      url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
      headers: auth(t.access_token),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.details[0].reason).toBe('ACCESS_TOKEN_SCOPE_INSUFFICIENT');
  });
});

describe('Performance API', () => {
  const range = (a: [number, number, number], b: [number, number, number]) =>
    `dailyRange.startDate.year=${a[0]}&dailyRange.startDate.month=${a[1]}&dailyRange.startDate.day=${a[2]}&dailyRange.endDate.year=${b[0]}&dailyRange.endDate.month=${b[1]}&dailyRange.endDate.day=${b[2]}`;
  const ymd = (d: Date): [number, number, number] => [
    d.getUTCFullYear(),
    d.getUTCMonth() + 1,
    d.getUTCDate(),
  ];

  it('answers deterministic daily series with int64 strings and omitted zeros', async () => {
    const t = await googleTokens(app);
    const end = new Date(Date.now() - 2 * 86400_000);
    const start = new Date(end.getTime() - 364 * 86400_000);
    const url = `${PERF}/locations/${SHIBUYA}:fetchMultiDailyMetricsTimeSeries?dailyMetrics=BUSINESS_IMPRESSIONS_MOBILE_SEARCH&dailyMetrics=CALL_CLICKS&${range(ymd(start), ymd(end))}`;
    const a = await app.inject({ url, headers: auth(t.access_token) });
    expect(a.statusCode).toBe(200);
    const b = await app.inject({ url, headers: auth(t.access_token) });
    expect(a.body).toBe(b.body);
    const series = a.json().multiDailyMetricTimeSeries[0].dailyMetricTimeSeries;
    expect(series.map((s: { dailyMetric: string }) => s.dailyMetric)).toEqual([
      'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
      'CALL_CLICKS',
    ]);
    const impressions = series[0].timeSeries.datedValues as {
      date: { year: number; month: number; day: number };
      value?: string;
    }[];
    expect(impressions).toHaveLength(365);
    expect(typeof impressions[0]?.value).toBe('string');
    const calls = series[1].timeSeries.datedValues as { value?: string }[];
    expect(calls.some((d) => d.value === undefined)).toBe(true);
    expect(calls.every((d) => d.value === undefined || /^[1-9]\d*$/.test(d.value))).toBe(true);
    // Weekly rhythm: a café's Saturdays beat its Tuesdays.
    const byDow = (dow: number) => {
      const vals = impressions
        .filter(
          (d) => new Date(Date.UTC(d.date.year, d.date.month - 1, d.date.day)).getUTCDay() === dow,
        )
        .map((d) => Number(d.value ?? 0));
      return vals.reduce((x, y) => x + y, 0) / vals.length;
    };
    expect(byDow(6)).toBeGreaterThan(byDow(2) * 1.2);
  });

  it('has data 25 months back and none before', async () => {
    const t = await googleTokens(app);
    const now = new Date();
    const firstMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 25, 1));
    const before = new Date(firstMonth.getTime() - 5 * 86400_000);
    const res = await app.inject({
      url: `${PERF}/locations/${SHIBUYA}:fetchMultiDailyMetricsTimeSeries?dailyMetrics=BUSINESS_IMPRESSIONS_MOBILE_MAPS&${range(ymd(before), ymd(new Date(firstMonth.getTime() + 6 * 86400_000)))}`,
      headers: auth(t.access_token),
    });
    const values = res.json().multiDailyMetricTimeSeries[0].dailyMetricTimeSeries[0].timeSeries
      .datedValues as { value?: string }[];
    expect(values.slice(0, 5).every((v) => v.value === undefined)).toBe(true);
    expect(values.slice(6).filter((v) => v.value !== undefined).length).toBeGreaterThan(3);
  });

  it('rejects unknown metrics and missing ranges', async () => {
    const t = await googleTokens(app);
    const bad = await app.inject({
      url: `${PERF}/locations/${SHIBUYA}:fetchMultiDailyMetricsTimeSeries?dailyMetrics=LIKES&${range([2024, 1, 1], [2024, 1, 31])}`,
      headers: auth(t.access_token),
    });
    expect(bad.statusCode).toBe(400);
    const noRange = await app.inject({
      url: `${PERF}/locations/${SHIBUYA}:fetchMultiDailyMetricsTimeSeries?dailyMetrics=CALL_CLICKS`,
      headers: auth(t.access_token),
    });
    expect(noRange.json().error.status).toBe('INVALID_ARGUMENT');
  });

  it('accepts the snake_case spelling of the docs example', async () => {
    const t = await googleTokens(app);
    const res = await app.inject({
      url: `${PERF}/locations/${SHIBUYA}:getDailyMetricsTimeSeries?dailyMetric=WEBSITE_CLICKS&daily_range.start_date.year=2025&daily_range.start_date.month=1&daily_range.start_date.day=1&daily_range.end_date.year=2025&daily_range.end_date.month=1&daily_range.end_date.day=7`,
      headers: auth(t.access_token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().timeSeries.datedValues).toHaveLength(7);
  });

  it('answers monthly search keywords with exactly one of value or threshold', async () => {
    const t = await googleTokens(app);
    const now = new Date();
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1));
    const url = `${PERF}/locations/${SHIBUYA}/searchkeywords/impressions/monthly?monthlyRange.startMonth.year=${start.getUTCFullYear()}&monthlyRange.startMonth.month=${start.getUTCMonth() + 1}&monthlyRange.endMonth.year=${end.getUTCFullYear()}&monthlyRange.endMonth.month=${end.getUTCMonth() + 1}`;
    const res = await app.inject({ url, headers: auth(t.access_token) });
    expect(res.statusCode).toBe(200);
    const counts = res.json().searchKeywordsCounts as {
      searchKeyword: string;
      insightsValue: Record<string, string>;
    }[];
    expect(counts.length).toBeGreaterThan(10);
    for (const c of counts) {
      expect(Object.keys(c.insightsValue)).toHaveLength(1);
      expect(c.searchKeyword).toBe(c.searchKeyword.toLowerCase());
    }
    expect(counts.some((c) => c.insightsValue.value)).toBe(true);
    expect(counts.some((c) => c.insightsValue.threshold === '15')).toBe(true);
    const paged = (
      await app.inject({ url: `${url}&pageSize=5`, headers: auth(t.access_token) })
    ).json();
    expect(paged.searchKeywordsCounts).toHaveLength(5);
    expect(paged.nextPageToken).toBeDefined();
  });
});

const SHIBUYA_V4 = `${V4}/accounts/${SHOP_ACCOUNT}/locations/${SHIBUYA}`;

describe('v4 local posts', () => {
  it('creates a post PROCESSING, shows it LIVE on the next read, deletes it', async () => {
    const t = await googleTokens(app);
    const created = await app.inject({
      method: 'POST',
      url: `${SHIBUYA_V4}/localPosts`,
      headers: auth(t.access_token),
      payload: {
        languageCode: 'ja',
        summary: '春の新作ケーキが登場しました',
        topicType: 'STANDARD',
        callToAction: { actionType: 'LEARN_MORE', url: 'https://cafe-tenpo.example' },
      },
    });
    expect(created.statusCode).toBe(200);
    const post = created.json();
    expect(post.state).toBe('PROCESSING');
    expect(post.name).toMatch(
      new RegExp(`^accounts/${SHOP_ACCOUNT}/locations/${SHIBUYA}/localPosts/\\d+$`),
    );
    expect(post.searchUrl).toContain('local.google.com');
    const list = (
      await app.inject({ url: `${SHIBUYA_V4}/localPosts`, headers: auth(t.access_token) })
    ).json();
    expect(list.localPosts[0]).toMatchObject({ name: post.name, state: 'LIVE' });
    const id = post.name.split('/').pop();
    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `${SHIBUYA_V4}/localPosts/${id}`,
          headers: auth(t.access_token),
        })
      ).json(),
    ).toEqual({});
    expect(
      (await app.inject({ url: `${SHIBUYA_V4}/localPosts/${id}`, headers: auth(t.access_token) }))
        .statusCode,
    ).toBe(404);
  });

  it('validates events, CALL actions, and rejects flagged posts after review', async () => {
    const t = await googleTokens(app);
    const event = await app.inject({
      method: 'POST',
      url: `${SHIBUYA_V4}/localPosts`,
      headers: auth(t.access_token),
      payload: { summary: 'イベント', topicType: 'EVENT' },
    });
    expect(event.statusCode).toBe(400);
    expect(event.json().error.details[0]['@type']).toBe(
      'type.googleapis.com/google.mybusiness.v4.ValidationError',
    );
    const call = await app.inject({
      method: 'POST',
      url: `${SHIBUYA_V4}/localPosts`,
      headers: auth(t.access_token),
      payload: {
        summary: 'お電話ください',
        topicType: 'STANDARD',
        callToAction: { actionType: 'CALL', url: 'https://x.example' },
      },
    });
    expect(call.statusCode).toBe(400);
    const flagged = (
      await app.inject({
        method: 'POST',
        url: `${SHIBUYA_V4}/localPosts`,
        headers: auth(t.access_token),
        payload: { summary: 'sandbox:reject', topicType: 'STANDARD' },
      })
    ).json();
    const read = (
      await app.inject({ url: `${V4}/${flagged.name}`, headers: auth(t.access_token) })
    ).json();
    expect(read.state).toBe('REJECTED');
  });

  it('keeps posts PROCESSING on get and list for the review time, then LIVE or REJECTED', async () => {
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { google: { postLiveAfterMs: 10 * 60_000 } },
    });
    const t = await googleTokens(app);
    const make = async (summary: string) =>
      (
        await app.inject({
          method: 'POST',
          url: `${SHIBUYA_V4}/localPosts`,
          headers: auth(t.access_token),
          payload: { summary, topicType: 'STANDARD' },
        })
      ).json() as { name: string; state: string };
    const ok = await make('週末限定のランチ');
    const bad = await make('週末限定 sandbox:reject');
    const read = async (name: string) =>
      (await app.inject({ url: `${V4}/${name}`, headers: auth(t.access_token) })).json().state;
    const listed = async () =>
      Object.fromEntries(
        (
          (
            await app.inject({ url: `${SHIBUYA_V4}/localPosts`, headers: auth(t.access_token) })
          ).json() as { localPosts: { name: string; state: string }[] }
        ).localPosts.map((p) => [p.name, p.state]),
      );
    expect([ok.state, bad.state]).toEqual(['PROCESSING', 'PROCESSING']);
    expect([await read(ok.name), await read(bad.name)]).toEqual(['PROCESSING', 'PROCESSING']);
    expect(await listed()).toMatchObject({ [ok.name]: 'PROCESSING', [bad.name]: 'PROCESSING' });
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/clock',
      payload: { advance_seconds: 601 },
    });
    expect(await listed()).toMatchObject({ [ok.name]: 'LIVE', [bad.name]: 'REJECTED' });
    expect([await read(ok.name), await read(bad.name)]).toEqual(['LIVE', 'REJECTED']);
  });
});

describe('v4 media', () => {
  it('uploads photo bytes in three steps and serves them at googleUrl', async () => {
    const t = await googleTokens(app);
    const start = (
      await app.inject({
        method: 'POST',
        url: `${SHIBUYA_V4}/media:startUpload`,
        headers: auth(t.access_token),
      })
    ).json();
    expect(start.resourceName).toBeDefined();
    const jpeg = fakeJpeg(1080, 810);
    const up = await app.inject({
      method: 'POST',
      url: `/sandbox/google/mybusiness/upload/v1/media/${start.resourceName}?upload_type=media`,
      headers: { ...auth(t.access_token), 'content-type': 'image/jpeg' },
      payload: jpeg,
    });
    expect(up.statusCode).toBe(200);
    const item = await app.inject({
      method: 'POST',
      url: `${SHIBUYA_V4}/media`,
      headers: auth(t.access_token),
      payload: {
        mediaFormat: 'PHOTO',
        locationAssociation: { category: 'INTERIOR' },
        dataRef: { resourceName: start.resourceName },
      },
    });
    expect(item.statusCode).toBe(200);
    expect(item.json()).toMatchObject({
      mediaFormat: 'PHOTO',
      dimensions: { widthPixels: 1080, heightPixels: 810 },
    });
    const served = await app.inject({ url: new URL(item.json().googleUrl).pathname });
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.equals(jpeg)).toBe(true);
    const list = (
      await app.inject({ url: `${SHIBUYA_V4}/media`, headers: auth(t.access_token) })
    ).json();
    expect(list.totalMediaItemCount).toBe(1);
  });

  it('refuses photos below 250×250 and unreachable source URLs with ValidationError', async () => {
    const t = await googleTokens(app);
    const start = (
      await app.inject({
        method: 'POST',
        url: `${SHIBUYA_V4}/media:startUpload`,
        headers: auth(t.access_token),
      })
    ).json();
    await app.inject({
      method: 'POST',
      url: `/sandbox/google/mybusiness/upload/v1/media/${start.resourceName}`,
      headers: { ...auth(t.access_token), 'content-type': 'application/octet-stream' },
      payload: fakeJpeg(200, 200),
    });
    const small = await app.inject({
      method: 'POST',
      url: `${SHIBUYA_V4}/media`,
      headers: auth(t.access_token),
      payload: {
        mediaFormat: 'PHOTO',
        locationAssociation: { category: 'COVER' },
        dataRef: { resourceName: start.resourceName },
      },
    });
    expect(small.statusCode).toBe(400);
    const unreachable = await app.inject({
      method: 'POST',
      url: `${SHIBUYA_V4}/media`,
      headers: auth(t.access_token),
      payload: {
        mediaFormat: 'PHOTO',
        locationAssociation: { category: 'COVER' },
        sourceUrl: 'http://127.0.0.1:9/nothing.jpg',
      },
    });
    // As Google answered it in the recorded exchange (fixtures/google-errors): no field, no value.
    const recorded = JSON.parse(
      fs.readFileSync(
        path.join(
          import.meta.dirname,
          '..',
          '..',
          '..',
          '..',
          'fixtures',
          'google-errors',
          'v4-validation-photo-fetch.json',
        ),
        'utf8',
      ),
    ) as { status: number; body: unknown };
    expect(unreachable.statusCode).toBe(recorded.status);
    expect(unreachable.json()).toEqual(recorded.body);
  });
});

describe('persistence', () => {
  it('keeps tokens, edits and posts across a re-created plugin on the same data folder', async () => {
    const t = await googleTokens(app);
    await app.inject({
      method: 'PATCH',
      url: `${BI}/locations/${SHIBUYA}?updateMask=title`,
      headers: auth(t.access_token),
      payload: { title: '渋谷 改装オープン' },
    });
    await app.inject({
      method: 'POST',
      url: `${V4}/accounts/${SHOP_ACCOUNT}/locations/${SHIBUYA}/localPosts`,
      headers: auth(t.access_token),
      payload: { summary: '残る投稿', topicType: 'STANDARD' },
    });
    await app.close();
    ({ app } = await buildSandbox(dataDir));
    const loc = await app.inject({
      url: `${BI}/locations/${SHIBUYA}?readMask=title`,
      headers: auth(t.access_token),
    });
    expect(loc.json()).toEqual({ title: '渋谷 改装オープン' });
    const posts = (
      await app.inject({
        url: `${V4}/accounts/${SHOP_ACCOUNT}/locations/${SHIBUYA}/localPosts`,
        headers: auth(t.access_token),
      })
    ).json();
    expect(posts.localPosts[0].summary).toBe('残る投稿');
    const refreshed = await app.inject({
      method: 'POST',
      url: '/sandbox/google/oauth2/token',
      headers: FORM,
      payload: form({
        grant_type: 'refresh_token',
        refresh_token: t.refresh_token as string,
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
      }),
    });
    expect(refreshed.statusCode).toBe(200);
  });
});

const refreshGrant = (token: string) =>
  app.inject({
    method: 'POST',
    url: '/sandbox/google/oauth2/token',
    headers: FORM,
    payload: form({
      grant_type: 'refresh_token',
      refresh_token: token,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
    }),
  });
const accountsOf = async (accessToken: string) =>
  (
    await app.inject({
      url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
      headers: auth(accessToken),
    })
  ).json().accounts as { name: string }[];
const demoShop = sandboxDemoGrants.google.find((g) => g.email === 'shop@tenpo.example');
const demoTrial = sandboxDemoGrants.google.find((g) => g.email === 'trial@tenpo.example');

describe('seeded demo grants: the shop and the trial', () => {
  it("refresh the shop's and the trial's accounts with business.manage from the start", async () => {
    expect(demoShop?.location).toEqual({
      id: SHIBUYA,
      title: 'カフェ テンポ 渋谷店',
      postalCode: '150-0002',
      addressLines: ['渋谷2-21-1', '渋谷ヒカリエ 6F'],
      storeCode: 'TENPO-001',
    });
    expect(demoTrial?.location.id).toBe(TRIAL_LOCATION);
    const s = await refreshGrant(demoShop?.refreshToken as string);
    expect(s.statusCode).toBe(200);
    expect(s.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3599 });
    expect(s.json().scope).toContain('https://www.googleapis.com/auth/business.manage');
    expect(s.json().refresh_token).toBeUndefined();
    expect(await accountsOf(s.json().access_token)).toEqual([
      expect.objectContaining({ name: `accounts/${SHOP_ACCOUNT}` }),
    ]);
    const t = await refreshGrant(demoTrial?.refreshToken as string);
    expect(await accountsOf(t.json().access_token)).toEqual([
      expect.objectContaining({ name: 'accounts/104772635510007654321' }),
    ]);
  });

  it('end on revoke, stay revoked across a restart, and come back with a reset', async () => {
    const token = demoShop?.refreshToken as string;
    const revoked = await app.inject({
      method: 'POST',
      url: '/sandbox/google/oauth2/revoke',
      headers: FORM,
      payload: form({ token }),
    });
    expect(revoked.statusCode).toBe(200);
    expect((await refreshGrant(token)).json().error).toBe('invalid_grant');
    await app.close();
    ({ app } = await buildSandbox(dataDir));
    expect((await refreshGrant(token)).json().error).toBe('invalid_grant');
    await app.inject({ method: 'POST', url: '/sandbox/control/reset', payload: {} });
    expect((await refreshGrant(token)).statusCode).toBe(200);
  });

  it('are added to a state saved before they existed', async () => {
    await refreshGrant(demoShop?.refreshToken as string);
    await app.close();
    const file = path.join(dataDir, 'sandbox', 'google.json');
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { refreshTokens: unknown[] };
    saved.refreshTokens = [];
    fs.writeFileSync(file, JSON.stringify(saved));
    ({ app } = await buildSandbox(dataDir));
    expect((await refreshGrant(demoShop?.refreshToken as string)).statusCode).toBe(200);
  });
});

describe("seeded demo grants: a company's stores", () => {
  const minato = sandboxDemoGrants.google.filter((g) => g.email === 'gbp@minato-foods.example');
  const locationsOf = async (accessToken: string, account: string) =>
    (
      await app.inject({
        url: `${BI}/accounts/${account}/locations?readMask=name,title,storeCode,storefrontAddress`,
        headers: auth(accessToken),
      })
    ).json().locations as {
      name: string;
      title: string;
      storefrontAddress: { administrativeArea: string };
    }[];

  it("share one company's Google user between its stores, reaching its location group", async () => {
    expect(minato.map((g) => [g.store, g.location.title])).toEqual([
      ['leader@tenpo.example', 'カフェ・ミナト 渋谷店'],
      ['store02@tenpo.example', 'カフェ・ミナト 新宿店'],
      ['store03@tenpo.example', 'カフェ・ミナト 池袋店'],
    ]);
    expect(new Set(minato.map((g) => g.refreshToken)).size).toBe(1);
    const r = await refreshGrant(minato[0]?.refreshToken as string);
    expect(r.statusCode).toBe(200);
    const token = r.json().access_token as string;
    const accounts = (
      await app.inject({
        url: '/sandbox/google/mybusinessaccountmanagement/v1/accounts',
        headers: auth(token),
      })
    ).json().accounts as { name: string; accountName: string; type: string }[];
    expect(accounts).toEqual([
      expect.objectContaining({ name: 'accounts/104772635510003300101', type: 'PERSONAL' }),
      expect.objectContaining({
        name: 'accounts/116209384756110482301',
        accountName: '株式会社ミナトフーズ',
        type: 'LOCATION_GROUP',
      }),
    ]);
    // The personal account holds no listing: Google leaves the empty list out.
    expect(await locationsOf(token, '104772635510003300101')).toBeUndefined();
    const group = await locationsOf(token, '116209384756110482301');
    // 品川店 is the group's too, though its Tenpo store is not connected yet.
    expect(group.map((l) => l.title)).toEqual([
      'カフェ・ミナト 渋谷店',
      'カフェ・ミナト 新宿店',
      'カフェ・ミナト 池袋店',
      'カフェ・ミナト 品川店',
    ]);
    const sanukiya = sandboxDemoGrants.google.find((g) => g.store === 'store07@tenpo.example');
    const other = (await refreshGrant(sanukiya?.refreshToken as string)).json()
      .access_token as string;
    const kansai = await locationsOf(other, '116209384756120593402');
    expect(kansai.map((l) => l.storefrontAddress.administrativeArea)).toEqual([
      '大阪府',
      '大阪府',
      '兵庫県',
    ]);
    const foreign = await app.inject({
      url: `${BI}/locations/${minato[0]?.location.id}?readMask=title`,
      headers: auth(other),
    });
    expect(foreign.statusCode).toBe(403);
  });

  it("reach each store's own listing, with Performance data 25 months back", async () => {
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 25, 1));
    const d = (x: Date) =>
      `year=${x.getUTCFullYear()}&month=${x.getUTCMonth() + 1}&day=${x.getUTCDate()}`;
    const before = new Date(first.getTime() - 3 * 86400_000);
    const after = new Date(first.getTime() + 27 * 86400_000);
    const range = `dailyRange.startDate.${d(before).replaceAll('&', '&dailyRange.startDate.')}&dailyRange.endDate.${d(after).replaceAll('&', '&dailyRange.endDate.')}`;
    const tokens = new Map<string, string>();
    for (const g of sandboxDemoGrants.google) {
      if (!tokens.has(g.refreshToken)) {
        const r = await refreshGrant(g.refreshToken);
        expect(r.statusCode, g.store).toBe(200);
        tokens.set(g.refreshToken, r.json().access_token as string);
      }
      const headers = auth(tokens.get(g.refreshToken) as string);
      const loc = await app.inject({
        url: `${BI}/locations/${g.location.id}?readMask=title,storeCode`,
        headers,
      });
      expect(loc.json(), g.store).toEqual({
        title: g.location.title,
        storeCode: g.location.storeCode,
      });
      const perf = await app.inject({
        url: `${PERF}/locations/${g.location.id}:fetchMultiDailyMetricsTimeSeries?dailyMetrics=BUSINESS_IMPRESSIONS_MOBILE_MAPS&dailyMetrics=BUSINESS_IMPRESSIONS_MOBILE_SEARCH&${range}`,
        headers,
      });
      expect(perf.statusCode, g.store).toBe(200);
      for (const m of perf.json().multiDailyMetricTimeSeries[0].dailyMetricTimeSeries as {
        timeSeries: { datedValues: { value?: string }[] };
      }[]) {
        const values = m.timeSeries.datedValues;
        expect(values).toHaveLength(31);
        expect(values.slice(0, 3).every((v) => v.value === undefined)).toBe(true);
        expect(values.slice(3).filter((v) => v.value).length, g.store).toBeGreaterThan(20);
      }
    }
    // The shop, the trial, expired, payfail and the agency's nine connected stores.
    expect(sandboxDemoGrants.google).toHaveLength(13);
    expect(tokens.size).toBe(9);
  });

  it('of a company are added, with its accounts and locations, to a state saved before them', async () => {
    await refreshGrant(demoShop?.refreshToken as string);
    await app.close();
    const file = path.join(dataDir, 'sandbox', 'google.json');
    type Saved = {
      accounts: { ownerEmail: string }[];
      locations: { id: string; accountId: string; location: { title: string } }[];
      refreshTokens: { email: string }[];
    };
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Saved;
    const company = 'gbp@minato-foods.example';
    saved.accounts = saved.accounts.filter((a) => a.ownerEmail !== company);
    saved.locations = saved.locations.filter((l) => l.accountId !== '116209384756110482301');
    saved.refreshTokens = saved.refreshTokens.filter((t) => t.email !== company);
    const shibuya = saved.locations.find((l) => l.id === SHIBUYA);
    if (shibuya) shibuya.location.title = '渋谷 改装中';
    fs.writeFileSync(file, JSON.stringify(saved));
    ({ app } = await buildSandbox(dataDir));
    const token = (await refreshGrant(minato[1]?.refreshToken as string)).json()
      .access_token as string;
    expect((await locationsOf(token, '116209384756110482301')).map((l) => l.name)).toContain(
      `locations/${minato[1]?.location.id}`,
    );
    // What the saved state had stays as it was.
    const shopToken = (await refreshGrant(demoShop?.refreshToken as string)).json()
      .access_token as string;
    const kept = await app.inject({
      url: `${BI}/locations/${SHIBUYA}?readMask=title`,
      headers: auth(shopToken),
    });
    expect(kept.json()).toEqual({ title: '渋谷 改装中' });
  });
});

describe('error answers as Google gives them (fixtures/google-errors, ADR 0061)', () => {
  const FIXTURES = path.join(
    import.meta.dirname,
    '..',
    '..',
    '..',
    '..',
    'fixtures',
    'google-errors',
  );
  const fixture = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as {
      status: number;
      body: unknown;
    };

  it('answers a list without readMask with the recorded BadRequest body', async () => {
    const t = await googleTokens(app);
    const res = await app.inject({
      url: `${BI}/accounts/${SHOP_ACCOUNT}/locations`,
      headers: auth(t.access_token),
    });
    const f = fixture('v1-bad-request-read-mask');
    expect(res.statusCode).toBe(f.status);
    expect(res.json()).toEqual(f.body);
  });

  it('builds the v4 ValidationError bodies exactly as recorded (field and value optional)', () => {
    const photo = v4ValidationError([{ code: 1000, message: 'Fetching image failed.' }]);
    expect([photo.status, photo.body]).toEqual([
      fixture('v4-validation-photo-fetch').status,
      fixture('v4-validation-photo-fetch').body,
    ]);
    const address = v4ValidationError([
      { code: 2, field: 'address.postal_code', message: 'address.postal_code is required' },
    ]);
    expect(address.body).toEqual(fixture('v4-validation-address-required').body);
  });

  it('builds the quota answer with ErrorInfo and RetryInfo as recorded', () => {
    const q = quotaExceeded(
      'mybusinessbusinessinformation.googleapis.com',
      'Edits per minute per profile',
      'Edits per minute per profile',
      10,
      42,
    );
    const f = fixture('v1-quota-error-info');
    expect([q.status, q.body]).toEqual([f.status, f.body]);
  });
});

describe("Google's review of a listing: held edits and its own values (ADR 0061)", () => {
  const patch = (token: string, mask: string, body: object, validateOnly = false) =>
    app.inject({
      method: 'PATCH',
      url: `${BI}/locations/${SHIBUYA}?updateMask=${mask}${validateOnly ? '&validateOnly=true' : ''}`,
      headers: auth(token),
      payload: body,
    });
  const updated = async (token: string) =>
    (
      await app.inject({
        url: `${BI}/locations/${SHIBUYA}:getGoogleUpdated?readMask=title,websiteUri,metadata`,
        headers: auth(token),
      })
    ).json() as {
      location: { title?: string; websiteUri?: string; metadata?: Record<string, unknown> };
      diffMask?: string;
      pendingMask?: string;
    };
  const metadata = async (token: string) =>
    (
      await app.inject({
        url: `${BI}/locations/${SHIBUYA}?readMask=metadata`,
        headers: auth(token),
      })
    ).json().metadata as Record<string, unknown>;

  it('with no review, getGoogleUpdated is the location itself with no masks', async () => {
    const t = await googleTokens(app);
    const u = await updated(t.access_token);
    expect(u.diffMask).toBeUndefined();
    expect(u.pendingMask).toBeUndefined();
    expect(u.location.title).toBe('カフェ テンポ 渋谷店');
    const m = await metadata(t.access_token);
    expect(m.hasGoogleUpdated).toBeUndefined();
    expect(m.hasPendingEdits).toBeUndefined();
  });

  it('an override: Google shows its value, names it in diffMask and sets hasGoogleUpdated', async () => {
    const t = await googleTokens(app);
    const set = await app.inject({
      method: 'POST',
      url: '/sandbox/control/google/listing-review',
      payload: { location_id: SHIBUYA, override: { title: 'Cafe Tenpo Shibuya' } },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await patch(t.access_token, 'title', { title: 'テンポ 渋谷' })).statusCode).toBe(200);
    const u = await updated(t.access_token);
    expect(u.diffMask).toBe('title');
    expect(u.location.title).toBe('Cafe Tenpo Shibuya');
    expect(await metadata(t.access_token)).toMatchObject({ hasGoogleUpdated: true });
    // The merchant's own version is what get answers.
    const own = await app.inject({
      url: `${BI}/locations/${SHIBUYA}?readMask=title`,
      headers: auth(t.access_token),
    });
    expect(own.json().title).toBe('テンポ 渋谷');
    // Accepting Google's value (sending it) ends the difference.
    await patch(t.access_token, 'title', { title: 'Cafe Tenpo Shibuya' });
    expect((await updated(t.access_token)).diffMask).toBeUndefined();
  });

  it('held edits: pendingMask names them and Maps shows the old value until released', async () => {
    const t = await googleTokens(app);
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/google/listing-review',
      payload: { location_id: SHIBUYA, hold_pending: true },
    });
    // A check (validateOnly) holds nothing.
    await patch(t.access_token, 'websiteUri', { websiteUri: 'https://a.example/' }, true);
    expect((await updated(t.access_token)).pendingMask).toBeUndefined();
    await patch(t.access_token, 'websiteUri', { websiteUri: 'https://new.example/' });
    const u = await updated(t.access_token);
    expect(u.pendingMask).toBe('websiteUri');
    expect(u.location.websiteUri).not.toBe('https://new.example/');
    expect(await metadata(t.access_token)).toMatchObject({ hasPendingEdits: true });
    await app.inject({
      method: 'POST',
      url: '/sandbox/control/google/listing-review',
      payload: { location_id: SHIBUYA, release: true },
    });
    const after = await updated(t.access_token);
    expect(after.pendingMask).toBeUndefined();
    expect(after.location.websiteUri).toBe('https://new.example/');
  });

  it('refuses phoneNumbers without a primary phone, as the schema requires it', async () => {
    const t = await googleTokens(app);
    const res = await patch(t.access_token, 'phoneNumbers', {
      phoneNumbers: { additionalPhones: [] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].fieldViolations).toContainEqual({
      field: 'phone_numbers.primary_phone',
      description: 'primary_phone is required',
    });
  });
});
