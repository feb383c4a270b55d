import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decrypt } from '../src/lib/tokens';
import { buildTestApp, call, json, login, storedCredentials, type TestApp } from './helpers';
import { consent, startSandbox, type RunningSandbox } from './sandbox';

/**
 * Tenpo's side of the channels against the emulators on a free port: every step a browser
 * would take, over HTTP, with faults and clock moves from the sandbox's control endpoints.
 */
let sb: RunningSandbox;
let t: TestApp;
const ids: Record<string, number> = {};

type Row = { publisher_key: string; status: number; entity_id: string | null; log: string[] } & {
  location_name: string | null;
  address_lines: string[];
};

beforeAll(async () => {
  sb = await startSandbox();
  // Behind a proxy on this machine (TRUST_PROXY): its X-Forwarded-Host is believed.
  t = await buildTestApp({
    SANDBOX_URL: sb.url,
    CHANNEL_MAX_WAIT_SECONDS: '3',
    TRUST_PROXY: '127.0.0.1',
  });
  for (const u of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    ids[u.email] = u.id;
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('POST', '/control/reset', {});
});

/** Follows the provider's redirect into Tenpo's OAuth return, as the browser would. */
const returnTo = async (location: URL) => {
  expect(location.origin).toBe('http://tenpo.test');
  const res = await t.app.inject({ method: 'GET', url: `${location.pathname}${location.search}` });
  expect(res.statusCode).toBe(302);
  return res.headers.location as string;
};

/** The consent URL, asked for as a page on `host` asks (PUBLIC_URL's host by default). */
const connectUrl = async (token: string, key: string, userId: number, host = 'tenpo.test') => {
  const res = await call(t.app, {
    method: 'GET',
    url: `/api/publisher/connect?publisher_key=${key}&user_id=${userId}`,
    token,
    headers: { host },
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: { urlAuth: string } }>(res).data.urlAuth;
};

const rows = async (token: string, userId: number): Promise<Row[]> => {
  const res = await call(t.app, { method: 'GET', url: `/api/publisher?user_id=${userId}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: Row[] }>(res).data;
};
const rowOf = async (token: string, userId: number, key: string): Promise<Row> => {
  const r = (await rows(token, userId)).find((x) => x.publisher_key === key);
  if (!r) throw new Error(`no ${key} row`);
  return r;
};

const credentials = (userId: number, key: string) => storedCredentials(t.database.db, userId, key);

/** newshop connects its Google account and picks its first location. */
async function connectGoogle(): Promise<{ token: string; userId: number }> {
  const token = await login(t.app, 'newshop@tenpo.example');
  const userId = ids['newshop@tenpo.example'] as number;
  const urlAuth = await connectUrl(token, 'google_my_business', userId);
  expect(urlAuth.startsWith(`${sb.url}/google/accounts/o/oauth2/v2/auth?`)).toBe(true);
  const back = await consent(urlAuth, { account: 'newshop@tenpo.example', decision: 'allow' });
  expect(await returnTo(back)).toBe('/connect-location');
  return { token, userId };
}

const locations = (token: string, userId: number, page = 1) =>
  call(t.app, {
    method: 'GET',
    url: `/api/entity/locations?user_id=${userId}&page=${page}`,
    token,
  });

describe('Google Business Profile', () => {
  it('connects end to end: consent, locations, choice, and login then says connected', async () => {
    const { token, userId } = await connectGoogle();
    expect((await rowOf(token, userId, 'google_my_business')).status).toBe(5);

    const res = await locations(token, userId);
    expect(res.statusCode, res.body).toBe(200);
    const page = json<{
      data: {
        data: { id: string; title: string; storefrontAddress: { addressLines: string[] } }[];
        total: number;
        per_page: number;
      };
    }>(res).data;
    expect(page).toMatchObject({ total: 2, per_page: 5, current_page: 1, from: 1, to: 2 });
    const first = page.data.find((l) => l.id === '6104729583316724501');
    expect(first?.title).toBe('らーめん 一歩 新宿西口店');

    const chosen = await call(t.app, {
      method: 'POST',
      url: '/api/entity/location',
      token,
      payload: { user_id: userId, location_id: '6104729583316724501' },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const row = await rowOf(token, userId, 'google_my_business');
    expect(row).toMatchObject({
      status: 1,
      entity_id: '6104729583316724501',
      location_name: 'らーめん 一歩 新宿西口店',
      log: [],
    });
    expect(row.address_lines.length).toBeGreaterThan(0);

    const again = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      payload: { email: 'newshop@tenpo.example', password: 'tenpo-demo-1' },
    });
    expect(json<{ data: { connect_GMB: boolean } }>(again).data.connect_GMB).toBe(true);

    // Provider tokens are sealed at rest.
    const cred = await credentials(userId, 'google_my_business');
    expect(cred?.access_token).not.toContain('ya29');
    expect(decrypt(t.config.secretKey, cred?.access_token as string)).toMatch(/^ya29\./);

    const sync = await call(t.app, {
      method: 'POST',
      url: '/api/publisher/google-my-business/sync',
      token,
      payload: { user_id: userId },
    });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(json<{ data: Row }>(sync).data.status).toBe(2);
  });

  it('rejects a location of another account with a Japanese message', async () => {
    const { token, userId } = await connectGoogle();
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/entity/location',
      token,
      payload: { user_id: userId, location_id: '4821390157204861230' },
    });
    expect(res.statusCode).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(res).errors.location_id).toEqual([
      '選択したビジネス拠点が見つかりません。',
    ]);
  });

  it('sends a denied consent back to /connect-account with an error flag', async () => {
    const token = await login(t.app, 'newshop@tenpo.example');
    const userId = ids['newshop@tenpo.example'] as number;
    const back = await consent(await connectUrl(token, 'google_my_business', userId), {
      account: 'newshop@tenpo.example',
      decision: 'deny',
    });
    expect(await returnTo(back)).toBe(
      '/connect-account?error=access_denied&publisher_key=google_my_business',
    );
    // The state was single-use: replaying the return does nothing.
    expect(await returnTo(back)).toContain('error=invalid_state');
  });

  it('refreshes an access token the provider says expired (its clock moved an hour)', async () => {
    const { token, userId } = await connectGoogle();
    const before = await credentials(userId, 'google_my_business');
    await sb.control('POST', '/control/clock', { advance_seconds: 3700 });
    const res = await locations(token, userId);
    expect(res.statusCode, res.body).toBe(200);
    const after = await credentials(userId, 'google_my_business');
    const open = (v: string | undefined) => decrypt(t.config.secretKey, v as string);
    expect(open(after?.access_token)).not.toBe(open(before?.access_token));
    expect(open(after?.refresh_token ?? undefined)).toBe(open(before?.refresh_token ?? undefined));
  });

  it('refreshes before expiry by our own clock, without waiting for a 401', async () => {
    const { token, userId } = await connectGoogle();
    const before = await credentials(userId, 'google_my_business');
    t.clock.advance(3600_000 - 60_000);
    const res = await locations(token, userId);
    expect(res.statusCode, res.body).toBe(200);
    const after = await credentials(userId, 'google_my_business');
    expect(after?.expires_at && after.expires_at > (before?.expires_at as string)).toBe(true);
  });

  it('turns the publisher to error with a reconnect line when the grant is revoked', async () => {
    const { token, userId } = await connectGoogle();
    const cred = await credentials(userId, 'google_my_business');
    const refresh = decrypt(t.config.secretKey, cred?.refresh_token as string);
    const revoked = await fetch(`${sb.url}/google/oauth2/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refresh }),
    });
    expect(revoked.status).toBe(200);

    const res = await locations(token, userId);
    expect(res.statusCode).toBe(409);
    expect(json<{ message: string }>(res).message).toBe(
      'Googleとの連携が切れました。再連携してください。',
    );
    const row = await rowOf(token, userId, 'google_my_business');
    expect(row.status).toBe(4);
    expect(row.log.at(-1)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d .*再連携してください。$/);
  });

  it('waits out a 429 for the reset time the provider gives, then succeeds', async () => {
    const { token, userId } = await connectGoogle();
    await sb.control('POST', '/faults', {
      provider: 'google',
      kind: 'rate_limit',
      account: 'newshop@tenpo.example',
      count: 1,
      retry_after_seconds: 1,
    });
    const started = Date.now();
    const res = await locations(token, userId);
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('gives up on a 429 whose reset lies beyond the limit, and says so', async () => {
    const { token, userId } = await connectGoogle();
    await sb.control('POST', '/faults', {
      provider: 'google',
      kind: 'rate_limit',
      account: 'newshop@tenpo.example',
      count: 1,
      retry_after_seconds: 120,
    });
    const res = await locations(token, userId);
    expect(res.statusCode).toBe(503);
    expect(json<{ message: string }>(res).message).toContain('利用上限');
    const row = await rowOf(token, userId, 'google_my_business');
    expect(row.status).toBe(5);
    expect(row.log.at(-1)).toContain('利用上限');
  });
});

describe('Facebook and Instagram', () => {
  const fbUser = '122104567890123456';
  const connectFacebook = async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    const userId = ids['shop@tenpo.example'] as number;
    const urlAuth = await connectUrl(token, 'facebook', userId);
    expect(urlAuth.startsWith(`${sb.url}/facebook/www/v25.0/dialog/oauth?`)).toBe(true);
    const scopes = (new URL(urlAuth).searchParams.get('scope') ?? '').split(',');
    const back = await consent(urlAuth, {
      user_id: fbUser,
      decision: 'allow',
      granted: scopes,
      page_ids: ['104857392017465', '104857392017466', '104857392017467', '104857392017468'],
    });
    expect(await returnTo(back)).toBe('/facebook/connect-page');
    return { token, userId };
  };

  it('connects a page with its Instagram account, and disconnecting takes both', async () => {
    const { token, userId } = await connectFacebook();
    const pages = await call(t.app, {
      method: 'GET',
      url: `/api/publisher/facebook/pages?user_id=${userId}`,
      token,
    });
    expect(pages.statusCode, pages.body).toBe(200);
    const list = json<{ data: { id: string; name: string; is_connected_instagram: boolean }[] }>(
      pages,
    ).data;
    expect(list).toHaveLength(4);
    expect(list.filter((p) => p.is_connected_instagram).map((p) => p.id)).toEqual([
      '104857392017465',
      '104857392017466',
    ]);

    const chosen = await call(t.app, {
      method: 'POST',
      url: '/api/publisher/facebook/connect-page',
      token,
      payload: { user_id: userId, page_id: '104857392017465' },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(await rowOf(token, userId, 'facebook')).toMatchObject({
      status: 1,
      entity_id: '104857392017465',
      location_name: 'カフェ テンポ 渋谷店',
    });
    expect(await rowOf(token, userId, 'instagram')).toMatchObject({
      status: 1,
      entity_id: '17841400000000101',
      location_name: '@cafe_tenpo_shibuya',
    });

    const off = await call(t.app, {
      method: 'PUT',
      url: '/api/publisher/disconnect',
      token,
      payload: { publisher_id: 2, entity_id: '104857392017465', user_id: userId },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await rowOf(token, userId, 'facebook')).status).toBe(0);
    expect((await rowOf(token, userId, 'instagram')).status).toBe(0);
    expect(await credentials(userId, 'facebook')).toBeUndefined();
    expect(await credentials(userId, 'instagram')).toBeUndefined();
  });

  it('a page without Instagram leaves Instagram disconnected', async () => {
    const { token, userId } = await connectFacebook();
    const chosen = await call(t.app, {
      method: 'POST',
      url: '/api/publisher/facebook/connect-page',
      token,
      payload: { user_id: userId, page_id: 104857392017467 },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect((await rowOf(token, userId, 'facebook')).status).toBe(1);
    expect((await rowOf(token, userId, 'instagram')).status).toBe(0);
  });
});

describe('X', () => {
  it('connects through OAuth 2.0 with PKCE', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    const userId = ids['shop@tenpo.example'] as number;
    const urlAuth = await connectUrl(token, 'twitter', userId);
    const q = new URL(urlAuth).searchParams;
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const back = await consent(urlAuth, { user_id: '1701234567890123456', decision: 'allow' });
    expect(await returnTo(back)).toBe('/connect-account');
    expect(await rowOf(token, userId, 'twitter')).toMatchObject({
      status: 1,
      entity_id: '1701234567890123456',
      location_name: '@tenpo_demo',
    });
    const cred = await credentials(userId, 'twitter');
    expect(cred?.refresh_token).toBeTruthy();
  });
});

describe('who may act', () => {
  it("answers 404 for another tenant's store on every call", async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    const other = ids['newshop@tenpo.example'] as number;
    const calls = [
      { method: 'GET', url: `/api/publisher?user_id=${other}` },
      { method: 'GET', url: `/api/publisher/connect?publisher_key=facebook&user_id=${other}` },
      {
        method: 'PUT',
        url: '/api/publisher/disconnect',
        payload: { publisher_id: 1, entity_id: null, user_id: other },
      },
      {
        method: 'POST',
        url: '/api/publisher/google-my-business/sync',
        payload: { user_id: other },
      },
      { method: 'GET', url: `/api/publisher/facebook/pages?user_id=${other}` },
      {
        method: 'POST',
        url: '/api/publisher/facebook/connect-page',
        payload: { user_id: other, page_id: '104857392017465' },
      },
      { method: 'GET', url: `/api/entity/locations?user_id=${other}` },
      {
        method: 'POST',
        url: '/api/entity/location',
        payload: { user_id: other, location_id: '6104729583316724501' },
      },
    ] as const;
    for (const c of calls) {
      const res = await call(t.app, { ...c, token });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(404);
    }
  });

  it('lets a free-trial store act on Google only (403 on Facebook)', async () => {
    const token = await login(t.app, 'trial@tenpo.example');
    const userId = ids['trial@tenpo.example'] as number;
    const fb = await call(t.app, {
      method: 'GET',
      url: `/api/publisher/connect?publisher_key=facebook&user_id=${userId}`,
      token,
    });
    expect(fb.statusCode).toBe(403);
    expect(json<{ message: string }>(fb).message).toBe(
      '無料トライアルでは Google ビジネスプロフィールのみ連携できます。',
    );
    for (const c of [
      { method: 'GET', url: `/api/publisher/facebook/pages?user_id=${userId}` },
      {
        method: 'PUT',
        url: '/api/publisher/disconnect',
        payload: { publisher_id: 2, entity_id: null, user_id: userId },
      },
      { method: 'GET', url: `/api/publisher/connect?publisher_key=twitter&user_id=${userId}` },
    ] as const) {
      const res = await call(t.app, { ...c, token });
      expect(res.statusCode, c.url).toBe(403);
    }
    expect((await connectUrl(token, 'google_my_business', userId)).length).toBeGreaterThan(0);
  });

  it('answers 422 in Japanese for a bad publisher key, and refuses a forged state', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/publisher/connect?publisher_key=myspace&user_id=${ids['shop@tenpo.example']}`,
      token,
    });
    expect(res.statusCode).toBe(422);
    expect(json<{ message: string }>(res).message).toBe('連携先の値が正しくありません。');
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/publisher/callback/google_my_business?state=forged&code=x',
    });
    expect(forged.statusCode).toBe(302);
    expect(forged.headers.location).toContain('error=invalid_state');
  });
});

describe('white-label hosts (ADR 0015)', () => {
  it('serves relative publisher icons, so a page on any of our hosts may load them', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/publisher?user_id=${ids['shop@tenpo.example']}`,
      token,
      headers: { host: 'demo.tenpo.test' },
    });
    const list = json<{ data: { publisher_key: string; logo_url: string }[] }>(res).data;
    expect(list).toHaveLength(4);
    for (const r of list) {
      expect(r.logo_url).toBe(`/images/publisher/${r.publisher_key}.svg`);
      const img = await t.app.inject({ method: 'GET', url: r.logo_url });
      expect(img.statusCode, r.logo_url).toBe(200);
      expect(img.headers['content-type']).toContain('image/svg+xml');
    }
  });

  it("returns from Google's consent to the agency's host the flow started on", async () => {
    const token = await login(t.app, 'newshop@tenpo.example');
    const userId = ids['newshop@tenpo.example'] as number;
    const urlAuth = await connectUrl(token, 'google_my_business', userId, 'demo.tenpo.test');
    // The provider still gets the one redirect URI registered with it.
    expect(new URL(urlAuth).searchParams.get('redirect_uri')).toBe(
      'http://tenpo.test/api/publisher/callback/google_my_business',
    );
    const back = await consent(urlAuth, { account: 'newshop@tenpo.example', decision: 'allow' });
    expect(await returnTo(back)).toBe('http://demo.tenpo.test/connect-location');
  });

  it('sends a denied consent back to the starting host too', async () => {
    const token = await login(t.app, 'newshop@tenpo.example');
    const userId = ids['newshop@tenpo.example'] as number;
    const back = await consent(
      await connectUrl(token, 'google_my_business', userId, 'demo.tenpo.test'),
      { account: 'newshop@tenpo.example', decision: 'deny' },
    );
    expect(await returnTo(back)).toBe(
      'http://demo.tenpo.test/connect-account?error=access_denied&publisher_key=google_my_business',
    );
  });

  it.each([
    ['a prefix no agency has', 'nobody.tenpo.test'],
    ['another domain', 'demo.evil.example'],
    ['another port', 'demo.tenpo.test:8080'],
  ])('never returns to %s (%s): PUBLIC_URL instead', async (_n, host) => {
    const token = await login(t.app, 'newshop@tenpo.example');
    const userId = ids['newshop@tenpo.example'] as number;
    const back = await consent(await connectUrl(token, 'google_my_business', userId, host), {
      account: 'newshop@tenpo.example',
      decision: 'allow',
    });
    expect(await returnTo(back)).toBe('/connect-location');
  });

  it('follows a proxy’s X-Forwarded-Host, checked like a Host header', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    const userId = ids['shop@tenpo.example'] as number;
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/publisher/connect?publisher_key=facebook&user_id=${userId}`,
      token,
      headers: { host: 'internal:3000', 'x-forwarded-host': 'demo.tenpo.test' },
    });
    const urlAuth = json<{ data: { urlAuth: string } }>(res).data.urlAuth;
    const back = await consent(urlAuth, {
      user_id: '122104567890123456',
      decision: 'allow',
      granted: (new URL(urlAuth).searchParams.get('scope') ?? '').split(','),
      page_ids: ['104857392017465'],
    });
    expect(await returnTo(back)).toBe('http://demo.tenpo.test/facebook/connect-page');
  });
});
