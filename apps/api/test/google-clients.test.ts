import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CodeChallengeMethod, OAuth2Client, type Credentials } from 'google-auth-library';
import { mybusinessaccountmanagement } from '@googleapis/mybusinessaccountmanagement';
import { mybusinessbusinessinformation } from '@googleapis/mybusinessbusinessinformation';
import { businessprofileperformance } from '@googleapis/businessprofileperformance';
import { DAY_MS, tokyoParts } from '@tenpo/domain';
import { sandboxDemoGrants } from '@tenpo/sandbox';
import { consent, startSandbox, type RunningSandbox } from './sandbox';

/**
 * Conformance: Google's official Node clients, pointed at the sandbox, parse every answer it
 * gives, and what they parse has the types and values Google documents
 * (shared/reference/providers.md §1.1–1.5). If one of these fails, the sandbox (not the test)
 * is what speaks Google's shapes wrongly.
 */
let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('POST', '/control/reset', {});
});

const CLIENT_ID = 'tenpo-sandbox';
const CLIENT_SECRET = 'tenpo-sandbox-secret';
const REDIRECT = 'http://tenpo.test/api/publisher/callback/google_my_business';
const SCOPES = ['https://www.googleapis.com/auth/business.manage', 'openid', 'email'];
const SHOP_ACCOUNT = '104772635510001234567';
const SHOP_LOCATIONS = ['4821390157204861230', '4821390157204861231', '4821390157204861232'];
const SHIBUYA = '4821390157204861230';
const TRIAL_LOCATION = '5930178246613098001';

const oauthClient = () =>
  new OAuth2Client({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: REDIRECT,
    endpoints: {
      oauth2AuthBaseUrl: `${sb.url}/google/accounts/o/oauth2/v2/auth`,
      oauth2TokenUrl: `${sb.url}/google/oauth2/token`,
      oauth2RevokeUrl: `${sb.url}/google/oauth2/revoke`,
      tokenInfoUrl: `${sb.url}/google/oauth2/tokeninfo`,
    },
  });

/** Consent as shop@ through the library's own auth URL, PKCE S256, and its code exchange. */
async function signIn(account = 'shop@tenpo.example'): Promise<{
  oauth: OAuth2Client;
  tokens: Credentials;
}> {
  const oauth = oauthClient();
  const { codeVerifier, codeChallenge } = await oauth.generateCodeVerifierAsync();
  const url = oauth.generateAuthUrl({
    access_type: 'offline',
    prompt: 'consent',
    scope: SCOPES,
    state: 'state-123',
    code_challenge_method: CodeChallengeMethod.S256,
    code_challenge: codeChallenge,
  });
  const back = await consent(url, { account, decision: 'allow' });
  expect(back.searchParams.get('state')).toBe('state-123');
  const code = back.searchParams.get('code');
  expect(code).toMatch(/^4\/0A/);
  const { tokens } = await oauth.getToken({ code: code as string, codeVerifier });
  oauth.setCredentials(tokens);
  return { oauth, tokens };
}

/** What every API call carries, as google.client.ts sends it (ADR 0009): per-call rootUrl. */
const opts = (api: string, accessToken: string) => ({
  rootUrl: `${sb.url}/google/${api}/`,
  headers: { authorization: `Bearer ${accessToken}` },
  retry: false,
});

const accountsApi = mybusinessaccountmanagement({ version: 'v1' });
const infoApi = mybusinessbusinessinformation({ version: 'v1' });
const perfApi = businessprofileperformance({ version: 'v1' });

type GoogleErrorBody = {
  error: {
    code: number;
    message: string;
    status: string;
    details?: { '@type': string; [k: string]: unknown }[];
  };
};

/** Runs a call that must fail and returns the GaxiosError the official client threw. */
async function failure(call: () => Promise<unknown>) {
  let caught: unknown;
  try {
    await call();
  } catch (err) {
    caught = err;
  }
  expect(caught, 'the call should have failed').toBeInstanceOf(Error);
  const err = caught as Error & {
    status?: number;
    response?: { status: number; data: GoogleErrorBody; headers: Headers };
  };
  expect(err.constructor.name).toBe('GaxiosError');
  return err;
}

const isDate = (d: unknown) =>
  expect(d).toEqual({
    year: expect.any(Number),
    month: expect.any(Number),
    day: expect.any(Number),
  });

/** Yesterday and earlier, in Asia/Tokyo, as the API's Date. */
const tokyoDaysAgo = (n: number) => {
  const p = tokyoParts(Date.now() - n * DAY_MS);
  return { year: p.year, month: p.month, day: p.day };
};

describe('google-auth-library OAuth2Client against the sandbox', () => {
  it('builds the consent URL, exchanges the code with PKCE and reads the token info', async () => {
    const oauth = oauthClient();
    const url = new URL(
      oauth.generateAuthUrl({ access_type: 'offline', prompt: 'consent', scope: SCOPES }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(`${sb.url}/google/accounts/o/oauth2/v2/auth`);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);

    const { tokens } = await signIn();
    expect(tokens.access_token).toMatch(/^ya29\./);
    expect(tokens.refresh_token).toMatch(/^1\/\/0/);
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.scope?.split(' ').sort()).toEqual([...SCOPES].sort());
    expect(typeof tokens.expiry_date).toBe('number');
    // expires_in 3599 → expiry_date about an hour from now.
    expect((tokens.expiry_date as number) - Date.now()).toBeGreaterThan(3500_000);
    expect((tokens.expiry_date as number) - Date.now()).toBeLessThanOrEqual(3600_000);

    const info = await oauthClient().getTokenInfo(tokens.access_token as string);
    expect(info.email).toBe('shop@tenpo.example');
    expect(info.aud).toBe(CLIENT_ID);
    expect(info.scopes.sort()).toEqual([...SCOPES].sort());
    expect(info.expiry_date - Date.now()).toBeGreaterThan(3500_000);
  });

  it('refuses a wrong PKCE verifier with invalid_grant', async () => {
    const oauth = oauthClient();
    const { codeChallenge } = await oauth.generateCodeVerifierAsync();
    const back = await consent(
      oauth.generateAuthUrl({
        access_type: 'offline',
        scope: SCOPES,
        code_challenge_method: CodeChallengeMethod.S256,
        code_challenge: codeChallenge,
      }),
      { account: 'shop@tenpo.example', decision: 'allow' },
    );
    const { codeVerifier: other } = await oauth.generateCodeVerifierAsync();
    const err = await failure(() =>
      oauth.getToken({ code: back.searchParams.get('code') as string, codeVerifier: other }),
    );
    expect(err.response?.status).toBe(400);
    expect(err.response?.data).toMatchObject({ error: 'invalid_grant' });
  });

  it('refreshes after expiry: the old token is refused, getAccessToken brings a working one', async () => {
    // A one-minute lifetime: inside the library's 5-minute margin, so it refreshes eagerly.
    await fetch(`${sb.url}/control/settings`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ google: { accessTokenTtlSeconds: 60 } }),
    });
    const { oauth, tokens } = await signIn();
    const first = tokens.access_token as string;
    await sb.control('POST', '/control/clock', { advance_seconds: 120 });

    const expired = await failure(() =>
      accountsApi.accounts.list({}, opts('mybusinessaccountmanagement', first)),
    );
    expect(expired.status).toBe(401);

    const { token } = await oauth.getAccessToken();
    expect(token).toMatch(/^ya29\./);
    expect(token).not.toBe(first);
    // Google sends no new refresh token on refresh; the library keeps the old one.
    expect(oauth.credentials.refresh_token).toBe(tokens.refresh_token);

    const explicit = await oauth.refreshAccessToken();
    expect(explicit.credentials.access_token).not.toBe(token);
    expect(explicit.credentials.refresh_token).toBe(tokens.refresh_token);

    const ok = await accountsApi.accounts.list(
      {},
      opts('mybusinessaccountmanagement', explicit.credentials.access_token as string),
    );
    expect(ok.status).toBe(200);

    // The library as the auth client of an official client: it refreshes the expired token itself.
    await sb.control('POST', '/control/clock', { advance_seconds: 120 });
    const withAuth = mybusinessaccountmanagement({ version: 'v1', auth: oauth });
    const viaAuth = await withAuth.accounts.list(
      {},
      { rootUrl: `${sb.url}/google/mybusinessaccountmanagement/`, retry: false },
    );
    expect(viaAuth.data.accounts?.[0]?.name).toBe(`accounts/${SHOP_ACCOUNT}`);
  });

  it("refreshes the demo shop's seeded grant (README: Seeded grants)", async () => {
    const grant = sandboxDemoGrants.google.find((g) => g.email === 'shop@tenpo.example');
    const oauth = oauthClient();
    oauth.setCredentials({ refresh_token: grant?.refreshToken });
    const { token } = await oauth.getAccessToken();
    expect(token).toMatch(/^ya29\./);
    expect(oauth.credentials.scope).toContain('https://www.googleapis.com/auth/business.manage');
    const { data } = await accountsApi.accounts.list(
      {},
      opts('mybusinessaccountmanagement', token as string),
    );
    expect(data.accounts?.map((a) => a.name)).toEqual([`accounts/${SHOP_ACCOUNT}`]);
    const { data: loc } = await infoApi.locations.get(
      { name: `locations/${grant?.location.id}`, readMask: 'title,storeCode' },
      opts('mybusinessbusinessinformation', token as string),
    );
    expect(loc).toEqual({ title: grant?.location.title, storeCode: grant?.location.storeCode });
  });

  it('revokes the grant: the refresh token stops working with invalid_grant', async () => {
    const { oauth, tokens } = await signIn();
    const res = await oauth.revokeToken(tokens.refresh_token as string);
    expect(res.status).toBe(200);
    const err = await failure(() => oauth.refreshAccessToken());
    expect(err.response?.status).toBe(400);
    expect(err.response?.data).toMatchObject({ error: 'invalid_grant' });
    const api = await failure(() =>
      accountsApi.accounts.list(
        {},
        opts('mybusinessaccountmanagement', tokens.access_token as string),
      ),
    );
    expect(api.status).toBe(401);
  });
});

describe('Account Management v1 through @googleapis/mybusinessaccountmanagement', () => {
  it('accounts.list and accounts.get answer Account resources (§1.3)', async () => {
    const { tokens } = await signIn();
    const token = tokens.access_token as string;
    const list = await accountsApi.accounts.list(
      { pageSize: 20 },
      opts('mybusinessaccountmanagement', token),
    );
    expect(list.status).toBe(200);
    expect(list.data.nextPageToken).toBeUndefined();
    expect(list.data.accounts).toHaveLength(1);
    const account = list.data.accounts?.[0];
    expect(account).toEqual({
      name: `accounts/${SHOP_ACCOUNT}`,
      accountName: 'Tenpo Demo Shop',
      type: 'PERSONAL',
      role: 'PRIMARY_OWNER',
      permissionLevel: 'OWNER_LEVEL',
      verificationState: expect.stringMatching(/^(VERIFIED|UNVERIFIED|VERIFICATION_REQUESTED)$/),
      vettedState: expect.stringMatching(/^(NOT_VETTED|VETTED|INVALID)$/),
    });

    const one = await accountsApi.accounts.get(
      { name: `accounts/${SHOP_ACCOUNT}` },
      opts('mybusinessaccountmanagement', token),
    );
    expect(one.data).toEqual(account);
  });
});

describe('Business Information v1 through @googleapis/mybusinessbusinessinformation', () => {
  const MASK =
    'name,title,storeCode,languageCode,phoneNumbers,categories,storefrontAddress,websiteUri,regularHours,latlng,openInfo,profile,metadata';

  it('accounts.locations.list applies readMask and pages with pageSize/pageToken (§1.4)', async () => {
    const { tokens } = await signIn();
    const o = opts('mybusinessbusinessinformation', tokens.access_token as string);
    const parent = `accounts/${SHOP_ACCOUNT}`;

    const narrow = await infoApi.accounts.locations.list({ parent, readMask: 'name,title' }, o);
    expect(narrow.data.locations).toHaveLength(3);
    for (const l of narrow.data.locations ?? [])
      expect(Object.keys(l).sort()).toEqual(['name', 'title']);

    const seen: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await infoApi.accounts.locations.list(
        { parent, readMask: MASK, pageSize: 2, pageToken },
        o,
      );
      pages += 1;
      expect((page.data.locations ?? []).length).toBeLessThanOrEqual(2);
      for (const l of page.data.locations ?? []) seen.push(String(l.name));
      pageToken = page.data.nextPageToken ?? undefined;
      if (pageToken) expect(typeof pageToken).toBe('string');
    } while (pageToken);
    expect(pages).toBe(2);
    expect(seen.sort()).toEqual(SHOP_LOCATIONS.map((id) => `locations/${id}`).sort());

    const bad = await failure(() => infoApi.accounts.locations.list({ parent }, o));
    expect(bad.status).toBe(400);
    expect(bad.response?.data.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(bad.response?.data.error.details?.[0]).toMatchObject({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [{ field: 'read_mask', description: expect.any(String) }],
    });
  });

  it('locations.get answers a Location with the documented field types (§1.4)', async () => {
    const { tokens } = await signIn();
    const o = opts('mybusinessbusinessinformation', tokens.access_token as string);
    const { data: l } = await infoApi.locations.get(
      { name: `locations/${SHIBUYA}`, readMask: MASK },
      o,
    );
    expect(l.name).toBe(`locations/${SHIBUYA}`);
    expect(l.title).toBe('カフェ テンポ 渋谷店');
    expect(l.storeCode).toBe('TENPO-001');
    expect(l.languageCode).toBe('ja');
    expect(typeof l.phoneNumbers?.primaryPhone).toBe('string');
    expect(l.categories?.primaryCategory).toEqual({
      name: 'categories/gcid:cafe',
      displayName: 'カフェ',
    });
    expect(Array.isArray(l.categories?.additionalCategories)).toBe(true);
    expect(l.storefrontAddress).toMatchObject({
      regionCode: 'JP',
      postalCode: '150-0002',
      administrativeArea: '東京都',
      locality: '渋谷区',
      addressLines: ['渋谷2-21-1', '渋谷ヒカリエ 6F'],
    });
    expect(l.websiteUri).toMatch(/^https:\/\//);
    const period = l.regularHours?.periods?.[0];
    expect(period?.openDay).toMatch(/^(MONDAY|TUESDAY|WEDNESDAY|THURSDAY|FRIDAY|SATURDAY|SUNDAY)$/);
    expect(typeof period?.openTime?.hours).toBe('number');
    expect(typeof period?.closeTime?.hours).toBe('number');
    expect(typeof l.latlng?.latitude).toBe('number');
    expect(typeof l.latlng?.longitude).toBe('number');
    expect(l.openInfo?.status).toBe('OPEN');
    expect(typeof l.openInfo?.canReopen).toBe('boolean');
    isDate(l.openInfo?.openingDate);
    expect(typeof l.profile?.description).toBe('string');
    expect(l.metadata).toMatchObject({
      placeId: expect.any(String),
      mapsUri: expect.stringMatching(/^https:\/\//),
      newReviewUri: expect.stringMatching(/^https:\/\//),
      canOperateLocalPost: true,
    });

    const missing = await failure(() =>
      infoApi.locations.get({ name: 'locations/9999999999999999999', readMask: 'name' }, o),
    );
    expect(missing.status).toBe(404);
    expect(missing.response?.data).toEqual({
      error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' },
    });

    const others = await failure(() =>
      infoApi.locations.get({ name: `locations/${TRIAL_LOCATION}`, readMask: 'name' }, o),
    );
    expect(others.status).toBe(403);
    expect(others.response?.data.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
  });

  it('locations.patch merges by updateMask, and validateOnly changes nothing', async () => {
    const { tokens } = await signIn();
    const o = opts('mybusinessbusinessinformation', tokens.access_token as string);
    const name = `locations/${SHIBUYA}`;

    const dry = await infoApi.locations.patch(
      { name, updateMask: 'title', validateOnly: true, requestBody: { title: '試しの名前' } },
      o,
    );
    expect(dry.data.title).toBe('試しの名前');
    expect((await infoApi.locations.get({ name, readMask: 'title' }, o)).data.title).toBe(
      'カフェ テンポ 渋谷店',
    );

    const done = await infoApi.locations.patch(
      {
        name,
        updateMask: 'title,categories',
        requestBody: {
          title: 'カフェ テンポ 渋谷ヒカリエ店',
          // Display names are output only: Google fills them in.
          categories: {
            primaryCategory: { name: 'categories/gcid:coffee_shop' },
            additionalCategories: [{ name: 'categories/gcid:cafe' }],
          },
          // Not in the mask: left as it was.
          storeCode: 'IGNORED',
        },
      },
      o,
    );
    expect(done.data.name).toBe(name);
    expect(done.data.title).toBe('カフェ テンポ 渋谷ヒカリエ店');
    expect(done.data.categories?.primaryCategory).toEqual({
      name: 'categories/gcid:coffee_shop',
      displayName: 'コーヒーショップ',
    });
    const after = await infoApi.locations.get({ name, readMask: 'title,storeCode' }, o);
    expect(after.data).toEqual({ title: 'カフェ テンポ 渋谷ヒカリエ店', storeCode: 'TENPO-001' });

    const noMask = await failure(() =>
      infoApi.locations.patch({ name, requestBody: { title: 'x' } }, o),
    );
    expect(noMask.status).toBe(400);
    expect(noMask.response?.data.error.details?.[0]).toMatchObject({
      fieldViolations: [{ field: 'update_mask' }],
    });
  });

  it('categories.list and categories.batchGet answer Category resources (§1.4)', async () => {
    const { tokens } = await signIn();
    const o = opts('mybusinessbusinessinformation', tokens.access_token as string);
    const page = await infoApi.categories.list(
      { regionCode: 'JP', languageCode: 'ja', view: 'FULL', pageSize: 5 },
      o,
    );
    expect(page.data.categories).toHaveLength(5);
    expect(typeof page.data.nextPageToken).toBe('string');
    for (const c of page.data.categories ?? []) {
      expect(c.name).toMatch(/^categories\/gcid:[a-z_]+$/);
      expect(typeof c.displayName).toBe('string');
    }
    const cafe = page.data.categories?.find((c) => c.name === 'categories/gcid:cafe');
    expect(cafe?.displayName).toBe('カフェ');
    expect(cafe?.serviceTypes?.[0]).toEqual({
      serviceTypeId: 'job_type_id:coffee',
      displayName: 'コーヒー',
    });
    expect(cafe?.moreHoursTypes?.[0]).toEqual({
      hoursTypeId: 'TAKEOUT',
      displayName: 'Takeout',
      localizedDisplayName: 'テイクアウト',
    });
    const next = await infoApi.categories.list(
      {
        regionCode: 'JP',
        languageCode: 'ja',
        view: 'BASIC',
        pageSize: 5,
        pageToken: page.data.nextPageToken as string,
      },
      o,
    );
    const firstNames = new Set((page.data.categories ?? []).map((c) => c.name));
    expect(next.data.categories?.some((c) => firstNames.has(c.name))).toBe(false);
    expect(Object.keys(next.data.categories?.[0] ?? {}).sort()).toEqual(['displayName', 'name']);

    const batch = await infoApi.categories.batchGet(
      {
        names: ['categories/gcid:bakery', 'categories/gcid:hair_salon'],
        languageCode: 'ja',
        regionCode: 'JP',
        view: 'BASIC',
      },
      o,
    );
    expect(batch.data.categories).toEqual([
      { name: 'categories/gcid:bakery', displayName: 'ベーカリー' },
      { name: 'categories/gcid:hair_salon', displayName: '美容院' },
    ]);
  });
});

describe('Performance v1 through the official businessprofileperformance client', () => {
  const range = (from: number, to: number) => {
    const s = tokyoDaysAgo(from);
    const e = tokyoDaysAgo(to);
    return {
      'dailyRange.startDate.year': s.year,
      'dailyRange.startDate.month': s.month,
      'dailyRange.startDate.day': s.day,
      'dailyRange.endDate.year': e.year,
      'dailyRange.endDate.month': e.month,
      'dailyRange.endDate.day': e.day,
    };
  };

  /** Every day of the range once, in order, each value an int64 string (zeros left out). */
  const checkSeries = (
    datedValues:
      | {
          date?: { year?: number | null; month?: number | null; day?: number | null };
          value?: string | null;
        }[]
      | undefined,
    days: number,
  ) => {
    expect(datedValues).toHaveLength(days);
    let prev = 0;
    for (const dv of datedValues ?? []) {
      isDate(dv.date);
      const t = Date.UTC(
        dv.date?.year as number,
        (dv.date?.month as number) - 1,
        dv.date?.day as number,
      );
      if (prev) expect(t - prev).toBe(86400_000);
      prev = t;
      if ('value' in dv) {
        expect(typeof dv.value).toBe('string');
        expect(dv.value).toMatch(/^[1-9]\d*$/);
      }
      expect(Object.keys(dv).every((k) => k === 'date' || k === 'value')).toBe(true);
    }
    return (datedValues ?? []).map((dv) => Number(dv.value ?? 0));
  };

  it('fetchMultiDailyMetricsTimeSeries and getDailyMetricsTimeSeries (§1.5)', async () => {
    const { tokens } = await signIn();
    const o = opts('businessprofileperformance', tokens.access_token as string);
    const metrics = ['BUSINESS_IMPRESSIONS_MOBILE_SEARCH', 'CALL_CLICKS', 'BUSINESS_BOOKINGS'];
    const multi = await perfApi.locations.fetchMultiDailyMetricsTimeSeries(
      { location: `locations/${SHIBUYA}`, dailyMetrics: metrics, ...range(30, 17) },
      o,
    );
    expect(multi.status).toBe(200);
    const series = multi.data.multiDailyMetricTimeSeries?.[0]?.dailyMetricTimeSeries ?? [];
    expect(series.map((s) => s.dailyMetric)).toEqual(metrics);
    const values = series.map((s) => checkSeries(s.timeSeries?.datedValues, 14));
    // A café is searched for every day; it takes no bookings.
    expect(values[0]?.every((v) => v > 0)).toBe(true);
    expect(values[2]?.every((v) => v === 0)).toBe(true);

    const single = await perfApi.locations.getDailyMetricsTimeSeries(
      { name: `locations/${SHIBUYA}`, dailyMetric: 'CALL_CLICKS', ...range(30, 17) },
      o,
    );
    expect(Object.keys(single.data)).toEqual(['timeSeries']);
    expect(checkSeries(single.data.timeSeries?.datedValues, 14)).toEqual(values[1]);

    const bad = await failure(() =>
      perfApi.locations.getDailyMetricsTimeSeries(
        { name: `locations/${SHIBUYA}`, dailyMetric: 'NOT_A_METRIC', ...range(30, 17) },
        o,
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.response?.data.error.status).toBe('INVALID_ARGUMENT');
  });

  it('searchkeywords.impressions.monthly.list: value or threshold, lower-cased, paged (§1.5)', async () => {
    const { tokens } = await signIn();
    const o = opts('businessprofileperformance', tokens.access_token as string);
    const end = tokyoDaysAgo(0);
    const endMonth =
      end.month === 1 ? { year: end.year - 1, month: 12 } : { ...end, month: end.month - 1 };
    const startMonth =
      endMonth.month <= 2
        ? { year: endMonth.year - 1, month: endMonth.month + 10 }
        : { year: endMonth.year, month: endMonth.month - 2 };
    const params = {
      parent: `locations/${SHIBUYA}`,
      'monthlyRange.startMonth.year': startMonth.year,
      'monthlyRange.startMonth.month': startMonth.month,
      'monthlyRange.endMonth.year': endMonth.year,
      'monthlyRange.endMonth.month': endMonth.month,
    };
    const all: {
      searchKeyword?: string | null;
      insightsValue?: { value?: string | null; threshold?: string | null };
    }[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await perfApi.locations.searchkeywords.impressions.monthly.list(
        { ...params, pageSize: 10, pageToken },
        o,
      );
      pages += 1;
      expect((page.data.searchKeywordsCounts ?? []).length).toBeLessThanOrEqual(10);
      all.push(...(page.data.searchKeywordsCounts ?? []));
      pageToken = page.data.nextPageToken ?? undefined;
    } while (pageToken);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(all.map((k) => k.searchKeyword)).size).toBe(all.length);
    let values = 0;
    let thresholds = 0;
    for (const k of all) {
      expect(typeof k.searchKeyword).toBe('string');
      expect(k.searchKeyword).toBe(k.searchKeyword?.toLowerCase());
      const keys = Object.keys(k.insightsValue ?? {});
      expect(keys).toHaveLength(1);
      if (keys[0] === 'value') {
        values += 1;
        expect(k.insightsValue?.value).toMatch(/^\d+$/);
        expect(Number(k.insightsValue?.value)).toBeGreaterThanOrEqual(15);
      } else {
        thresholds += 1;
        expect(keys[0]).toBe('threshold');
        expect(k.insightsValue?.threshold).toBe('15');
      }
    }
    expect(values).toBeGreaterThan(0);
    expect(thresholds).toBeGreaterThan(0);
  });
});

describe("Google's error answers, as the official clients surface them (§1.2)", () => {
  it('a fault-injected expired token: 401 UNAUTHENTICATED with ErrorInfo ACCESS_TOKEN_EXPIRED', async () => {
    const { tokens } = await signIn();
    await sb.control('POST', '/faults', {
      provider: 'google',
      kind: 'expired_token',
      account: 'shop@tenpo.example',
      count: 1,
    });
    const err = await failure(() =>
      infoApi.accounts.locations.list(
        { parent: `accounts/${SHOP_ACCOUNT}`, readMask: 'name' },
        opts('mybusinessbusinessinformation', tokens.access_token as string),
      ),
    );
    expect(err.status).toBe(401);
    expect(err.response?.status).toBe(401);
    expect(err.response?.headers.get('www-authenticate')).toBe(
      'Bearer realm="https://accounts.google.com/", error="invalid_token"',
    );
    const e = err.response?.data.error;
    expect(e?.code).toBe(401);
    expect(e?.status).toBe('UNAUTHENTICATED');
    expect(e?.message).toMatch(
      /^Request had invalid authentication credentials\. Expected OAuth 2 access token/,
    );
    expect(e?.details).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'ACCESS_TOKEN_EXPIRED',
        domain: 'googleapis.com',
        metadata: expect.objectContaining({
          service: 'mybusinessbusinessinformation.googleapis.com',
        }),
      },
    ]);
    // One call only: the next one goes through.
    const ok = await infoApi.accounts.locations.list(
      { parent: `accounts/${SHOP_ACCOUNT}`, readMask: 'name' },
      opts('mybusinessbusinessinformation', tokens.access_token as string),
    );
    expect(ok.data.locations).toHaveLength(3);
  });

  it('a fault-injected rate limit: 429 RESOURCE_EXHAUSTED with ErrorInfo and RetryInfo', async () => {
    const { tokens } = await signIn();
    await sb.control('POST', '/faults', {
      provider: 'google',
      kind: 'rate_limit',
      account: 'shop@tenpo.example',
      count: 1,
      retry_after_seconds: 30,
    });
    const err = await failure(() =>
      perfApi.locations.getDailyMetricsTimeSeries(
        {
          name: `locations/${SHIBUYA}`,
          dailyMetric: 'CALL_CLICKS',
          'dailyRange.startDate.year': 2025,
          'dailyRange.startDate.month': 1,
          'dailyRange.startDate.day': 1,
          'dailyRange.endDate.year': 2025,
          'dailyRange.endDate.month': 1,
          'dailyRange.endDate.day': 2,
        },
        opts('businessprofileperformance', tokens.access_token as string),
      ),
    );
    expect(err.status).toBe(429);
    const e = err.response?.data.error;
    expect(e?.code).toBe(429);
    expect(e?.status).toBe('RESOURCE_EXHAUSTED');
    expect(e?.message).toContain("of service 'businessprofileperformance.googleapis.com'");
    expect(e?.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'RATE_LIMIT_EXCEEDED',
          domain: 'googleapis.com',
          metadata: expect.objectContaining({
            service: 'businessprofileperformance.googleapis.com',
            quota_metric: expect.any(String),
            quota_limit: expect.any(String),
          }),
        }),
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '30s' },
      ]),
    );
  });

  it('an unknown account: 404 NOT_FOUND', async () => {
    const { tokens } = await signIn();
    const err = await failure(() =>
      accountsApi.accounts.get(
        { name: 'accounts/1' },
        opts('mybusinessaccountmanagement', tokens.access_token as string),
      ),
    );
    expect(err.status).toBe(404);
    expect(err.response?.data).toEqual({
      error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' },
    });
  });
});
