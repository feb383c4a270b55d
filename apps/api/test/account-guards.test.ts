import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ja } from '@tenpo/domain';
import { FREE_FAILURES, MAX_LOCK_MS } from '../src/modules/auth/login-throttle';
import { buildTestApp, call, DEMO_PASSWORD, json, login, multipart, type TestApp } from './helpers';

// Issue 22 items 3, 4, 5, 11 and 12 (ADR 0065), against OWASP ASVS 5.0 level 2.

type ErrorBody = { message: string; errors: Record<string, string[]> };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** The newest mail to an address (the mailbox lists newest first), after the queue ran. */
const lastMailTo = async (to: string) => {
  await t.app.queue.drain();
  return t.mailbox.list({ to })[0];
};
const linkIn = (text: string | undefined): URL =>
  new URL(/https?:\/\/\S+/.exec(text ?? '')?.[0] ?? 'http://missing.invalid/');

const loginAs = (email: string, password: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress,
    headers: { 'x-api-key': 'test-api-key-123', accept: 'application/json' },
    payload: { email, password },
  });

/** The passwords of the issue, plus the account's own address and little more than it. */
const weakFor = (email: string) => [
  'password',
  '12345678',
  'aaaaaaaa',
  email,
  `${email.split('@')[0]}1234`,
];

describe('item 3: weak passwords are refused everywhere a password is set', () => {
  it('PUT /account-setting/password', async () => {
    const email = 'store03@tenpo.example';
    const token = await login(t.app, email);
    for (const password of weakFor(email)) {
      const res = await call(t.app, {
        method: 'PUT',
        url: '/api/account-setting/password',
        token,
        payload: { current_password: DEMO_PASSWORD, password, password_confirmation: password },
      });
      expect([password, res.statusCode]).toEqual([password, 422]);
      expect(json<ErrorBody>(res).errors.password?.[0]).toMatch(
        new RegExp(`${ja.passwordTooCommon}|${ja.passwordPersonal}`),
      );
    }
    // The old password still signs in: nothing was changed.
    expect((await loginAs(email, DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('POST /reset-password: refused without spending the link; a good one then works', async () => {
    const email = 'store04@tenpo.example';
    await call(t.app, { method: 'POST', url: '/api/forgot-password', payload: { email } });
    const link = linkIn((await lastMailTo(email))?.text);
    const token = link.searchParams.get('token');
    for (const password of weakFor(email)) {
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/reset-password',
        payload: { token, email, password, password_confirmation: password },
      });
      expect([password, res.statusCode]).toEqual([password, 422]);
      expect(Object.keys(json<ErrorBody>(res).errors)).toEqual(['password']);
    }
    const good = 'kiso-river-fog-19';
    const ok = await call(t.app, {
      method: 'POST',
      url: '/api/reset-password',
      payload: { token, email, password: good, password_confirmation: good },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('POST /register: not the address, the name or a common password', async () => {
    const email = 'kobayashi.ken@example.jp';
    const form = await call(t.app, {
      method: 'POST',
      url: '/api/registration-form',
      payload: {
        full_name: '小林 健',
        company_name: 'こばやし商店',
        store_name: 'こばやし商店 本店',
        email,
        agreed_terms: true,
      },
    });
    expect(form.statusCode).toBe(200);
    const token = linkIn((await lastMailTo(email))?.text).searchParams.get('token');
    for (const password of [
      ...weakFor(email),
      'kobayashi.ken',
      'kobayashi2024',
      '小林健小林健小林健',
    ]) {
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/register',
        payload: { token, email, password, password_confirmation: password },
      });
      expect([password, res.statusCode]).toEqual([password, 422]);
      expect(Object.keys(json<ErrorBody>(res).errors)).toEqual(['password']);
    }
    const ok = await call(t.app, {
      method: 'POST',
      url: '/api/register',
      payload: {
        token,
        email,
        password: 'matsuri-drum-77',
        password_confirmation: 'matsuri-drum-77',
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('an administrator creating or updating an account', async () => {
    const manager = await login(t.app, 'manager@tenpo.example');
    const store = {
      email: 'weak-store@example.jp',
      name: '佐々木 一郎',
      company_name: '株式会社ササキ',
      store_name: 'ササキ食堂',
      role: 1,
      status: 1,
    };
    for (const password of weakFor(store.email)) {
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/admin/customers',
        token: manager,
        payload: { ...store, password },
      });
      expect([password, res.statusCode]).toEqual([password, 422]);
      expect(Object.keys(json<ErrorBody>(res).errors)).toEqual(['password']);
    }
    const agency = await call(t.app, {
      method: 'POST',
      url: '/api/admin/agencies',
      token: manager,
      ...multipart({
        email: 'weak-agency@example.jp',
        name: '代理 太郎',
        company_name: 'WEAK',
        password: 'weak-agency@example.jp',
        prefix: 'weak',
        title: 'WEAK',
        status: '1',
      }),
    });
    expect(agency.statusCode).toBe(422);
    expect(Object.keys(json<ErrorBody>(agency).errors)).toEqual(['password']);
    const shopId = json<{ data: { id: number } }>(
      await call(t.app, {
        method: 'GET',
        url: '/api/account-setting/information',
        token: await login(t.app, 'store05@tenpo.example'),
      }),
    ).data.id;
    const update = await call(t.app, {
      method: 'GET',
      url: `/api/admin/stores/${shopId}`,
      token: manager,
    });
    const current = json<{ data: Record<string, unknown> }>(update).data;
    const put = await call(t.app, {
      method: 'PUT',
      url: `/api/admin/stores/${shopId}`,
      token: manager,
      payload: {
        email: current.email,
        name: current.name ?? '担当',
        company_name: current.company_name,
        store_name: current.store_name,
        role: current.role,
        status: 1,
        agency_id: current.agency_id,
        password: 'qwertyuiop',
      },
    });
    expect(put.statusCode, put.body).toBe(422);
    expect(Object.keys(json<ErrorBody>(put).errors)).toEqual(['password']);
  });
});

describe('item 4: the login address changes only with the password and a mailed link', () => {
  const email = 'store06@tenpo.example';
  const next = 'store06-new@example.jp';
  let token = '';
  beforeAll(async () => {
    token = await login(t.app, email);
  });
  const change = (fields: Record<string, string>) =>
    call(t.app, {
      method: 'POST',
      url: '/api/account-setting/information',
      token,
      ...multipart({ name: '担当 六郎', email: next, ...fields }),
    });
  const storedEmail = async () =>
    (
      await t.database.db
        .selectFrom('users')
        .select('email')
        .where('name', '=', '担当 六郎')
        .executeTakeFirst()
    )?.email;

  it('refuses a new address without the current password, or with a wrong one', async () => {
    const none = await change({});
    expect(none.statusCode).toBe(422);
    expect(json<ErrorBody>(none).errors).toEqual({
      current_password: [ja.required('現在のパスワード')],
    });
    const wrong = await change({ current_password: 'not-the-password' });
    expect(wrong.statusCode).toBe(422);
    expect(json<ErrorBody>(wrong).errors).toEqual({ current_password: [ja.currentPasswordWrong] });
    expect((await loginAs(next, DEMO_PASSWORD)).statusCode).toBe(401);
  });

  it('with the password: mails the new address a link and tells the old one; nothing moves yet', async () => {
    const res = await change({ current_password: DEMO_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ message: string; data: { email: string } }>(res)).toMatchObject({
      message: ja.emailChangeRequested,
      data: { email },
    });
    expect(await storedEmail()).toBe(email);
    expect((await loginAs(next, DEMO_PASSWORD)).statusCode).toBe(401);
    expect((await loginAs(email, DEMO_PASSWORD)).statusCode).toBe(200);
    const notice = await lastMailTo(email);
    expect(notice?.subject).toBe('【Tenpo】メールアドレス変更のお申し込み');
    expect(notice?.text).toContain(next);
    const confirm = await lastMailTo(next);
    expect(confirm?.subject).toBe('【Tenpo】メールアドレス変更の確認');
    const link = linkIn(confirm?.text);
    expect(link.pathname).toBe('/confirm-email');

    const done = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/email/confirm',
      token: null,
      payload: { token: link.searchParams.get('token') },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(json(done)).toEqual({
      status_code: 200,
      message: ja.emailChangeDone,
      data: { email: next },
    });
    expect(await storedEmail()).toBe(next);
    expect((await loginAs(next, DEMO_PASSWORD)).statusCode).toBe(200);
    expect((await loginAs(email, DEMO_PASSWORD)).statusCode).toBe(401);
    expect((await lastMailTo(email))?.subject).toBe('【Tenpo】メールアドレス変更のお知らせ');

    const again = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/email/confirm',
      payload: { token: link.searchParams.get('token') },
    });
    expect(again.statusCode).toBe(422);
    expect(json<ErrorBody>(again).errors).toEqual({ token: [ja.emailChangeInvalid] });
  });

  it('an address that is taken gets the same answer; its owner is mailed, nothing is queued', async () => {
    const own = await login(t.app, 'store07@tenpo.example');
    const before = await t.database.db.selectFrom('email_changes').select('id').execute();
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/information',
      token: own,
      ...multipart({
        name: '担当 七郎',
        email: 'shop@tenpo.example',
        current_password: DEMO_PASSWORD,
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ message: string }>(res).message).toBe(ja.emailChangeRequested);
    expect((await lastMailTo('shop@tenpo.example'))?.subject).toBe(
      '【Tenpo】メールアドレス変更のお申し込みについて',
    );
    expect(await t.database.db.selectFrom('email_changes').select('id').execute()).toEqual(before);
  });

  it('an expired or made-up link changes nothing', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/email/confirm',
      payload: { token: 'not-a-real-token' },
    });
    expect(res.statusCode).toBe(422);
    expect(json<ErrorBody>(res).errors).toEqual({ token: [ja.emailChangeInvalid] });
  });

  it('is in the OpenAPI document', async () => {
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(
      await t.app.inject({ method: 'GET', url: '/api/docs/json' }),
    );
    expect(Object.keys(doc.paths['/api/account-setting/email/confirm'] ?? {})).toEqual(['post']);
  });
});

describe('item 5: failed sign-ins back off per address, in the database', () => {
  it('32 wrong passwords from 4 addresses, then the right one: refused; the owner is mailed once', async () => {
    const email = 'store08@tenpo.example';
    const codes: number[] = [];
    for (let i = 0; i < 32; i++)
      codes.push((await loginAs(email, `wrong-guess-${i}`, `127.0.0.${2 + (i % 4)}`)).statusCode);
    expect(codes.slice(0, FREE_FAILURES + 1)).toEqual(Array(FREE_FAILURES + 1).fill(401));
    expect(codes.slice(FREE_FAILURES + 1).every((c) => c === 429)).toBe(true);
    const right = await loginAs(email, DEMO_PASSWORD, '127.0.0.2');
    expect(right.statusCode).toBe(429);
    expect(json<ErrorBody>(right).errors.email?.[0]).toBe(ja.loginLocked(1));
    await t.app.queue.drain();
    const mails = t.mailbox.list({ to: email });
    expect(mails.map((m) => m.subject)).toEqual(['【Tenpo】ログインの失敗が続いています']);
    expect(mails[0]?.text).toContain('/forgot-password');

    // The lock is short: past it the owner signs in, and the count starts again.
    t.clock.advance(16_000);
    expect((await loginAs(email, DEMO_PASSWORD)).statusCode).toBe(200);
    expect(
      await t.database.db
        .selectFrom('login_throttle')
        .selectAll()
        .where('email', '=', email)
        .execute(),
    ).toEqual([]);
  });

  it('never locks anyone out for longer than the cap, however long the guessing goes on', async () => {
    const email = 'store09@tenpo.example';
    for (let i = 0; i < 30; i++) {
      const res = await loginAs(email, `wrong-guess-${i}`);
      expect(res.statusCode).toBe(401);
      const row = await t.database.db
        .selectFrom('login_throttle')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const wait = row.locked_until ? Date.parse(row.locked_until) - t.clock.now().getTime() : 0;
      expect(wait).toBeLessThanOrEqual(MAX_LOCK_MS);
      t.clock.advance(wait + 1000);
    }
    expect((await loginAs(email, DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('a burst of guesses at once: no more passwords are checked than the back-off allows', async () => {
    const email = 'store10@tenpo.example';
    const all = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        loginAs(email, `burst-guess-${i}`, `127.0.0.${10 + (i % 4)}`),
      ),
    );
    const checked = all.filter((r) => r.statusCode === 401).length;
    expect(all.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
    expect(checked).toBeLessThanOrEqual(FREE_FAILURES + 1);
  });

  it('an unknown address answers the same way, and nobody is mailed', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 8; i++)
      codes.push((await loginAs('nobody-here@example.jp', `x-${i}-guess`)).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    await t.app.queue.drain();
    expect(t.mailbox.list({ to: 'nobody-here@example.jp' })).toEqual([]);
  });

  it('a password reset ends the lock at once', async () => {
    const email = 'store11@tenpo.example';
    for (let i = 0; i < FREE_FAILURES + 1; i++) await loginAs(email, `wrong-guess-${i}`);
    expect((await loginAs(email, DEMO_PASSWORD)).statusCode).toBe(429);
    await call(t.app, { method: 'POST', url: '/api/forgot-password', payload: { email } });
    const mails = (await t.app.queue.drain(), t.mailbox.list({ to: email }));
    const link = linkIn(mails.find((m) => m.text.includes('/reset-password'))?.text);
    const reset = await call(t.app, {
      method: 'POST',
      url: '/api/reset-password',
      payload: {
        token: link.searchParams.get('token'),
        email,
        password: 'harbor-lights-58',
        password_confirmation: 'harbor-lights-58',
      },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await loginAs(email, 'harbor-lights-58')).statusCode).toBe(200);
  });
});

describe('item 5: the current password asked again counts as a sign-in failure', () => {
  it('a session guessing the current password is held back like the sign-in form', async () => {
    const email = 'store02@tenpo.example';
    const token = await login(t.app, email);
    const codes: number[] = [];
    for (let i = 0; i < FREE_FAILURES + 3; i++) {
      const res = await call(t.app, {
        method: 'PUT',
        url: '/api/account-setting/password',
        token,
        payload: {
          current_password: `not-it-${i}-guess`,
          password: 'kiso-river-fog-19',
          password_confirmation: 'kiso-river-fog-19',
        },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([...Array(FREE_FAILURES + 1).fill(422), 429, 429]);
    // The same count: the address is locked for the sign-in form too, and for an address change.
    expect((await loginAs(email, DEMO_PASSWORD)).statusCode).toBe(429);
    const change = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/information',
      token,
      ...multipart({
        name: '担当',
        email: 'store02-new@example.jp',
        current_password: DEMO_PASSWORD,
      }),
    });
    expect(change.statusCode).toBe(429);
    t.clock.advance(16_000);
    expect((await loginAs(email, DEMO_PASSWORD)).statusCode).toBe(200);
  });
});

describe('item 11: sign-up does not tell whether an address is registered', () => {
  const form = (email: string) => ({
    full_name: '登録 確認',
    company_name: '確認商事',
    store_name: '確認商事 本店',
    email,
    agreed_terms: true,
  });

  it('answers a registered and a new address alike; the owner is mailed instead of a link', async () => {
    const known = await call(t.app, {
      method: 'POST',
      url: '/api/registration-form',
      payload: form('shop@tenpo.example'),
    });
    const fresh = await call(t.app, {
      method: 'POST',
      url: '/api/registration-form',
      payload: form('brand-new@example.jp'),
    });
    expect([known.statusCode, known.body]).toEqual([fresh.statusCode, fresh.body]);
    expect(known.statusCode).toBe(200);
    const toOwner = await lastMailTo('shop@tenpo.example');
    expect(toOwner?.subject).toBe('【Tenpo】新規登録のお申し込みについて');
    expect(toOwner?.text).not.toContain('/register-account');
    expect((await lastMailTo('brand-new@example.jp'))?.text).toContain('/register-account');
    const requests = await t.database.db
      .selectFrom('registration_requests')
      .select('email')
      .where('email', '=', 'shop@tenpo.example')
      .execute();
    expect(requests).toEqual([]);
  });
});

describe('item 12: secrets in URLs never reach the logs', () => {
  it('redacts token, signature, code, state and e-mail values in the request lines', async () => {
    const lines: string[] = [];
    const logged = await buildTestApp(
      { LOG_LEVEL: 'info' },
      { logStream: { write: (l) => void lines.push(l) } },
    );
    try {
      const secrets = [
        'S3cretTokenValue',
        'SigValue123',
        'OAuthCode456',
        'StateValue789',
        'victim',
      ];
      await logged.app.inject({
        method: 'GET',
        url: `/reset-password?token=${secrets[0]}&email=victim%40example.jp`,
      });
      await logged.app.inject({
        method: 'GET',
        url: `/uploads/logos/a.png?expires=1&signature=${secrets[1]}`,
      });
      await logged.app.inject({
        method: 'GET',
        url: `/api/publisher/callback?code=${secrets[2]}&state=${secrets[3]}&to=victim@example.jp`,
      });
      const text = lines.join('');
      expect(text).toContain('/reset-password?token=[redacted]&email=[redacted]');
      expect(text).toContain('expires=1&signature=[redacted]');
      for (const s of secrets) expect(text).not.toContain(s);
    } finally {
      await logged.close();
    }
  });
});
