import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ja } from '@tenpo/domain';
import { openDatabase } from '../src/db/kysely';
import { HOUR } from '../src/lib/clock';
import { hashToken } from '../src/lib/tokens';
import { ROTATION_GRACE_MS } from '../src/modules/auth/rotation';
import { API_KEY, buildTestApp, call, json, login, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type LoginBody = {
  status_code: number;
  data: { token: string; connect_GMB: boolean; user: Record<string, unknown> };
};
type ErrorBody = { status_code: number; message: string; errors: Record<string, string[]> };

describe('POST /login', () => {
  it('returns token, connect_GMB and the user', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      payload: { email: 'Shop@Tenpo.Example', password: 'tenpo-demo-1' },
    });
    expect(res.statusCode).toBe(200);
    const body = json<LoginBody>(res);
    expect(body.status_code).toBe(200);
    expect(body.data.token).toMatch(/^[\w-]{40,}$/);
    expect(body.data.connect_GMB).toBe(true);
    expect(body.data.user).toMatchObject({
      email: 'shop@tenpo.example',
      role: 1,
      agreed_terms: 1,
      is_leader: false,
      in_trial: false,
      payment_fail: false,
      agent_code: '0000',
    });
    expect(body.data.user).not.toHaveProperty('password_hash');
  });

  it.each([
    ['newshop@tenpo.example', false, { role: 1, agreed_terms: 0 }],
    ['trial@tenpo.example', true, { role: 0, in_trial: true }],
    ['expired@tenpo.example', true, { role: 0, in_trial: false }],
    ['payfail@tenpo.example', true, { payment_fail: true }],
    ['leader@tenpo.example', true, { is_leader: true, role: 1 }],
    ['agency@tenpo.example', false, { role: 11 }],
    ['manager@tenpo.example', false, { role: 99 }],
  ])('%s logs in with the state of the demo data', async (email, gmb, user) => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      payload: { email, password: 'tenpo-demo-1' },
    });
    expect(res.statusCode).toBe(200);
    const body = json<LoginBody>(res);
    expect(body.data.connect_GMB).toBe(gmb);
    expect(body.data.user).toMatchObject(user);
  });

  it.each([
    [{}, { email: [ja.required('メールアドレス')], password: [ja.required('パスワード')] }],
    [
      { email: '', password: '' },
      { email: [ja.required('メールアドレス')], password: [ja.required('パスワード')] },
    ],
    [{ email: 'not-an-email', password: 'tenpo-demo-1' }, { email: [ja.email] }],
    [
      { email: 'shop@tenpo.example', password: 'short' },
      { password: [ja.minLength('パスワード', 8)] },
    ],
  ])('validates %o', async (payload, errors) => {
    const res = await call(t.app, { method: 'POST', url: '/api/login', payload });
    expect(res.statusCode).toBe(422);
    const body = json<ErrorBody>(res);
    expect(body.errors).toEqual(errors);
    expect(body.message).toBe(Object.values(errors)[0]?.[0]);
  });

  it.each([
    ['shop@tenpo.example', 'wrong-password'],
    ['nobody@tenpo.example', 'tenpo-demo-1'],
  ])('refuses %s with a wrong password or unknown e-mail alike', async (email, password) => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      payload: { email, password },
    });
    expect(res.statusCode).toBe(401);
    expect(json(res)).toEqual({
      status_code: 401,
      message: ja.invalidCredentials,
      errors: { email: [ja.invalidCredentials] },
    });
  });

  it('refuses a disabled store', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      payload: { email: 'store12@tenpo.example', password: 'tenpo-demo-1' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('sessions', () => {
  it('refuses a call without a token, or with an unknown one', async () => {
    expect(
      (await call(t.app, { method: 'GET', url: '/api/account-setting/information' })).statusCode,
    ).toBe(401);
    const res = await call(t.app, {
      method: 'GET',
      url: '/api/account-setting/information',
      token: 'made-up-token',
    });
    expect(res.statusCode).toBe(401);
    expect(json<ErrorBody>(res).message).toBe(ja.unauthenticated);
  });

  it('GET /refresh-token rotates the token: the new one works, the old one is refused', async () => {
    const old = await login(t.app, 'shop@tenpo.example');
    const res = await call(t.app, { method: 'GET', url: '/api/refresh-token', token: old });
    expect(res.statusCode).toBe(200);
    const body = json<LoginBody>(res);
    expect(body.data.token).not.toBe(old);
    expect(body.data.connect_GMB).toBe(true);
    expect(body.data.user.email).toBe('shop@tenpo.example');
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: '/api/account-setting/information',
          token: body.data.token,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call(t.app, { method: 'GET', url: '/api/account-setting/information', token: old }))
        .statusCode,
    ).toBe(401);
    // Past the rotation grace, refreshing with the old token is refused too.
    t.clock.advance(ROTATION_GRACE_MS + 1000);
    expect(
      (await call(t.app, { method: 'GET', url: '/api/refresh-token', token: old })).statusCode,
    ).toBe(401);
  });

  it('a rotation whose answer was lost (page reloaded) can be asked again within the grace', async () => {
    const refresh = (token: string) =>
      call(t.app, { method: 'GET', url: '/api/refresh-token', token });
    const info = (token: string) =>
      call(t.app, { method: 'GET', url: '/api/account-setting/information', token });
    const first = await login(t.app, 'shop@tenpo.example');
    // The answer to this rotation never reached the browser…
    const lost = json<LoginBody>(await refresh(first)).data.token;
    t.clock.advance(ROTATION_GRACE_MS - 5000);
    // …so the reloaded page presents the first token again: it leads to the live successor.
    const again = await refresh(first);
    expect(again.statusCode, again.body).toBe(200);
    const latest = json<LoginBody>(again).data.token;
    expect(latest).not.toBe(lost);
    expect((await info(latest)).statusCode).toBe(200);
    // The lost token was rotated in turn; the first token never works for ordinary calls.
    expect((await info(lost)).statusCode).toBe(401);
    expect((await info(first)).statusCode).toBe(401);
    // A chain of rotations is followed to its live end.
    const third = json<LoginBody>(await refresh(latest)).data.token;
    const fromFirst = await refresh(first);
    expect(fromFirst.statusCode).toBe(200);
    expect((await info(third)).statusCode).toBe(401);
    expect((await info(json<LoginBody>(fromFirst).data.token)).statusCode).toBe(200);
  });

  it('refreshes racing with the same token all succeed, and one session stays live', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    // The page that went away and the page that replaced it ask at the same moment.
    const answers = await Promise.all(
      [1, 2, 3].map(() => call(t.app, { method: 'GET', url: '/api/refresh-token', token })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const tokens = answers.map((r) => json<LoginBody>(r).data.token);
    expect(new Set(tokens).size).toBe(3);
    const live = await Promise.all(
      tokens.map(
        async (tk) =>
          (await call(t.app, { method: 'GET', url: '/api/account-setting/information', token: tk }))
            .statusCode,
      ),
    );
    expect(live.filter((s) => s === 200)).toHaveLength(1);
    expect(live.filter((s) => s === 401)).toHaveLength(2);
  });

  it('no grace after logout: a rotated token whose successor logged out is refused', async () => {
    const first = await login(t.app, 'shop@tenpo.example');
    const next = json<LoginBody>(
      await call(t.app, { method: 'GET', url: '/api/refresh-token', token: first }),
    ).data.token;
    expect((await call(t.app, { method: 'GET', url: '/api/logout', token: next })).statusCode).toBe(
      200,
    );
    expect(
      (await call(t.app, { method: 'GET', url: '/api/refresh-token', token: first })).statusCode,
    ).toBe(401);
    expect(
      (await call(t.app, { method: 'GET', url: '/api/refresh-token', token: next })).statusCode,
    ).toBe(401);
  });

  it('GET /logout revokes the token', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    const res = await call(t.app, { method: 'GET', url: '/api/logout', token });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ status_code: 200, message: ja.logoutDone });
    expect(
      (await call(t.app, { method: 'GET', url: '/api/account-setting/information', token }))
        .statusCode,
    ).toBe(401);
    expect((await call(t.app, { method: 'GET', url: '/api/logout', token })).statusCode).toBe(401);
  });

  it('an expired token answers 401 with the access-token-expired text', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    t.clock.advance(t.config.sessionTtlHours * HOUR + 1000);
    const res = await call(t.app, {
      method: 'GET',
      url: '/api/account-setting/information',
      token,
    });
    expect(res.statusCode).toBe(401);
    expect(json<ErrorBody>(res).message).toBe(ja.accessTokenExpired);
    expect(
      (await call(t.app, { method: 'GET', url: '/api/refresh-token', token })).statusCode,
    ).toBe(401);
  });

  it('another process’s revocation, expiry and user changes count from the very next call', async () => {
    // A second connection to the same database stands for another API process (DESIGN §2):
    // nothing this process keeps may outlive what that one writes. The calls come over HTTP, as
    // a client's do: a request sent after the commit reaches the server in a later turn of its
    // event loop, which is what the SQLite check relies on (ADR 0039).
    const other = openDatabase(t.config.databaseUrl);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    try {
      const email = 'payfail@tenpo.example';
      const me = async (token: string) => {
        const res = await fetch(`${base}/api/account-setting/information`, {
          headers: { 'x-api-key': API_KEY, authorization: `Bearer ${token}` },
        });
        const body = await res.text();
        return { statusCode: res.status, body: JSON.parse(body) as unknown };
      };
      const sessionOf = (token: string) =>
        other.db.updateTable('sessions').where('token_hash', '=', hashToken(token));
      const user = other.db.updateTable('users').where('email', '=', email);

      const token = await login(t.app, email);
      expect((await me(token)).statusCode).toBe(200);
      await user.set({ name: '別のプロセス' }).execute();
      expect((await me(token)).body).toMatchObject({ data: { name: '別のプロセス' } });
      await user.set({ status: 0 }).execute();
      expect((await me(token)).statusCode).toBe(401);
      await user.set({ status: 1 }).execute();
      expect((await me(token)).statusCode).toBe(200);
      await sessionOf(token).set({ revoked_at: t.clock.now().toISOString() }).execute();
      expect((await me(token)).statusCode).toBe(401);

      const second = await login(t.app, email);
      expect((await me(second)).statusCode).toBe(200);
      await sessionOf(second)
        .set({ expires_at: new Date(t.clock.now().getTime() - 1000).toISOString() })
        .execute();
      const expired = await me(second);
      expect(expired.statusCode).toBe(401);
      expect(expired.body).toMatchObject({ message: ja.accessTokenExpired });
    } finally {
      await other.close();
    }
  });

  it('this process’s own writes count from the very next call, transactions included', async () => {
    // The app's own connection: what it keeps of a session (ADR 0031) must not outlive a write
    // made on that connection, inside a transaction or not.
    const { db } = t.database;
    const email = 'trial@tenpo.example';
    const me = (token: string) =>
      call(t.app, { method: 'GET', url: '/api/account-setting/information', token });
    const user = () => db.updateTable('users').where('email', '=', email);
    const token = await login(t.app, email);
    expect((await me(token)).statusCode).toBe(200);
    await user().set({ name: '同じプロセス' }).execute();
    expect(json<{ data: { name: string } }>(await me(token)).data.name).toBe('同じプロセス');
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').where('email', '=', email).set({ status: 0 }).execute();
    });
    expect((await me(token)).statusCode).toBe(401);
    await user().set({ status: 1 }).execute();
    expect((await me(token)).statusCode).toBe(200);
    await db
      .updateTable('sessions')
      .where('token_hash', '=', hashToken(token))
      .set({ revoked_at: t.clock.now().toISOString() })
      .execute();
    expect((await me(token)).statusCode).toBe(401);
  });

  it('sessions are stored hashed', async () => {
    const token = await login(t.app, 'shop@tenpo.example');
    const rows = await t.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '3' });
  });
  afterAll(async () => limited.close());

  it.each([
    ['/api/login', { email: 'shop@tenpo.example', password: 'wrong-password' }],
    ['/api/forgot-password', { email: 'shop@tenpo.example' }],
    ['/api/registration-form', { email: 'x' }],
  ])('%s answers 429 with the envelope after the limit', async (url, payload) => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i += 1)
      codes.push((await call(limited.app, { method: 'POST', url, payload })).statusCode);
    expect(codes.slice(0, 3)).not.toContain(429);
    const res = await call(limited.app, { method: 'POST', url, payload });
    expect(res.statusCode).toBe(429);
    expect(json(res)).toEqual({ status_code: 429, message: ja.tooManyRequests, errors: {} });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  const forwardedLogins = async (app: TestApp['app']) => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await call(app, {
        method: 'POST',
        url: '/api/login',
        payload: { email: 'shop@tenpo.example', password: 'wrong-password' },
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      codes.push(res.statusCode);
    }
    return codes;
  };

  it('a client cannot escape the per-IP limit by sending its own X-Forwarded-For', async () => {
    const fresh = await buildTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '3' });
    try {
      expect(await forwardedLogins(fresh.app)).toContain(429);
    } finally {
      await fresh.close();
    }
  });

  it('behind a proxy that TRUST_PROXY names, each forwarded client has its own limit', async () => {
    const proxied = await buildTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '3', TRUST_PROXY: '1' });
    try {
      expect(await forwardedLogins(proxied.app)).not.toContain(429);
    } finally {
      await proxied.close();
    }
  });
});
