import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ja, ROLE } from '@tenpo/domain';
import { buildTestApp, call, json, login, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type ErrorBody = { status_code: number; message: string; errors: Record<string, string[]> };

/** Runs the mail jobs, then reads the newest mail to `to` and the link in it. */
const mailTo = async (to: string): Promise<{ subject: string; text: string; link: URL }> => {
  await t.app.queue.drain();
  const mail = t.mailbox.list({ to })[0];
  if (!mail) throw new Error(`no mail to ${to}`);
  const m = /https?:\/\/\S+/.exec(mail.text);
  if (!m) throw new Error('no link in mail');
  return { subject: mail.subject, text: mail.text, link: new URL(m[0]) };
};

describe('forgot and reset password', () => {
  it('mails a reset link that sets a new password once', async () => {
    const oldSession = await login(t.app, 'shop@tenpo.example');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: 'shop@tenpo.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ status_code: 200, message: ja.forgotPasswordSent });
    const mail = await mailTo('shop@tenpo.example');
    expect(mail.subject).toContain('パスワード再設定');
    expect(mail.link.origin + mail.link.pathname).toBe('http://tenpo.test/reset-password');
    const token = mail.link.searchParams.get('token') ?? '';
    expect(mail.link.searchParams.get('email')).toBe('shop@tenpo.example');

    const mismatch = await call(t.app, {
      method: 'POST',
      url: '/api/reset-password',
      payload: {
        token,
        email: 'shop@tenpo.example',
        password: 'new-password-1',
        password_confirmation: 'new-password-2',
      },
    });
    expect(mismatch.statusCode).toBe(422);
    expect(json<ErrorBody>(mismatch).errors).toEqual({
      password_confirmation: [ja.passwordMismatch],
    });

    const ok = await call(t.app, {
      method: 'POST',
      url: '/api/reset-password',
      payload: {
        token,
        email: 'shop@tenpo.example',
        password: 'new-password-1',
        password_confirmation: 'new-password-1',
      },
    });
    expect(ok.statusCode).toBe(200);
    expect(json(ok)).toEqual({ status_code: 200, message: ja.resetPasswordDone });
    await login(t.app, 'shop@tenpo.example', 'new-password-1');
    expect(
      (
        await call(t.app, {
          method: 'POST',
          url: '/api/login',
          payload: { email: 'shop@tenpo.example', password: 'tenpo-demo-1' },
        })
      ).statusCode,
    ).toBe(401);
    // The old password's sessions end with it.
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: '/api/account-setting/information',
          token: oldSession,
        })
      ).statusCode,
    ).toBe(401);

    const again = await call(t.app, {
      method: 'POST',
      url: '/api/reset-password',
      payload: {
        token,
        email: 'shop@tenpo.example',
        password: 'new-password-3',
        password_confirmation: 'new-password-3',
      },
    });
    expect(again.statusCode).toBe(422);
    expect(json<ErrorBody>(again).errors).toEqual({ token: [ja.resetTokenInvalid] });
  });

  it('refuses an expired link and a link used with another e-mail', async () => {
    await call(t.app, {
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: 'trial@tenpo.example' },
    });
    const token = (await mailTo('trial@tenpo.example')).link.searchParams.get('token') ?? '';
    const other = await call(t.app, {
      method: 'POST',
      url: '/api/reset-password',
      payload: {
        token,
        email: 'shop@tenpo.example',
        password: 'new-password-1',
        password_confirmation: 'new-password-1',
      },
    });
    expect(other.statusCode).toBe(422);
    t.clock.advance(61 * 60 * 1000);
    const late = await call(t.app, {
      method: 'POST',
      url: '/api/reset-password',
      payload: {
        token,
        email: 'trial@tenpo.example',
        password: 'new-password-1',
        password_confirmation: 'new-password-1',
      },
    });
    expect(late.statusCode).toBe(422);
    expect(json<ErrorBody>(late).errors).toEqual({ token: [ja.resetTokenInvalid] });
  });

  it('answers the same for an unknown e-mail and mails nothing', async () => {
    const before = t.mailbox.list().length;
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: 'nobody@tenpo.example' },
    });
    expect(res.statusCode).toBe(200);
    await t.app.queue.drain();
    expect(t.mailbox.list().length).toBe(before);
  });

  it.each([
    [{}, { email: [ja.required('メールアドレス')] }],
    [{ email: 'nope' }, { email: [ja.email] }],
  ])('validates forgot-password %o', async (payload, errors) => {
    const res = await call(t.app, { method: 'POST', url: '/api/forgot-password', payload });
    expect(res.statusCode).toBe(422);
    expect(json<ErrorBody>(res).errors).toEqual(errors);
  });

  it.each([
    [
      { token: 'x', email: 'shop@tenpo.example' },
      {
        password: [ja.required('パスワード')],
        password_confirmation: [ja.required('パスワード（確認）')],
      },
    ],
    [
      {
        token: 'x',
        email: 'shop@tenpo.example',
        password: 'short',
        password_confirmation: 'short',
      },
      {
        password: [ja.minLength('パスワード', 8)],
        password_confirmation: [ja.minLength('パスワード（確認）', 8)],
      },
    ],
    [
      { email: 'shop@tenpo.example', password: 'longenough', password_confirmation: 'longenough' },
      { token: [ja.required('トークン')] },
    ],
  ])('validates reset-password %o', async (payload, errors) => {
    const res = await call(t.app, { method: 'POST', url: '/api/reset-password', payload });
    expect(res.statusCode).toBe(422);
    expect(json<ErrorBody>(res).errors).toEqual(errors);
  });
});

describe('mail links on an agency’s host (ADR 0015)', () => {
  it.each([
    ['the agency’s white-label host', { host: 'demo.tenpo.test' }, 'http://demo.tenpo.test'],
    ['a prefix no agency has', { host: 'nobody.tenpo.test' }, 'http://tenpo.test'],
    ['another domain', { host: 'demo.evil.example' }, 'http://tenpo.test'],
  ])('a reset asked on %s links to %s', async (_name, headers, origin) => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: 'agency@tenpo.example' },
      headers,
    });
    expect(res.statusCode).toBe(200);
    const mail = await mailTo('agency@tenpo.example');
    expect(mail.link.origin).toBe(origin);
    expect(mail.link.pathname).toBe('/reset-password');
  });

  it('a sign-up on the agency’s host mails both links to that host', async () => {
    const email = 'whitelabel-signup@tenpo.example';
    const headers = { host: 'demo.tenpo.test' };
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/registration-form',
      payload: { ...form, email },
      headers,
    });
    expect(res.statusCode).toBe(200);
    const link = (await mailTo(email)).link;
    expect(link.origin + link.pathname).toBe('http://demo.tenpo.test/register-account');
    const done = await call(t.app, {
      method: 'POST',
      url: '/api/register',
      payload: {
        token: link.searchParams.get('token'),
        email,
        password: 'long-enough-1',
        password_confirmation: 'long-enough-1',
      },
      headers,
    });
    expect(done.statusCode).toBe(200);
    // The free trial (DESIGN §10, ADR 0050): role 0 for 30 days from the registration.
    const row = await t.database.db
      .selectFrom('users')
      .select(['role', 'trial_ends_at', 'payment_fail'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      role: ROLE.freeTrial,
      trial_ends_at: new Date(t.clock.now().getTime() + 30 * 24 * 3600_000).toISOString(),
      payment_fail: 0,
    });
    expect((await mailTo(email)).link.toString()).toBe('http://demo.tenpo.test/login');
  });
});

const form = {
  full_name: '山田 太郎',
  company_name: '山田商店',
  store_name: '山田商店 本店',
  email: 'yamada@tenpo.example',
  phone: '0312345678',
  knowledge: 'search',
  agent_code: '',
  client_company_name: '',
  agency_name: '',
  register_type: 0,
  agreed_terms: true,
};

describe('registration: the form and its mailed link', () => {
  it.each([
    ['full_name', { full_name: '' }, ja.required('氏名')],
    ['full_name', { full_name: '山田太郎' }, ja.fullNameSpace],
    ['company_name', { company_name: '' }, ja.required('会社名')],
    ['store_name', { store_name: '  ' }, ja.required('店舗名')],
    ['email', { email: '' }, ja.required('メールアドレス')],
    ['email', { email: 'yamada@' }, ja.email],
    ['phone', { phone: '03-1234-5678' }, ja.digitsOnly],
    ['knowledge', { knowledge: 'tv' }, ja.invalidChoice('当サービスを知ったきっかけ')],
    ['agreed_terms', { agreed_terms: false }, ja.termsRequired],
  ])('%s: %o is refused', async (field, change, message) => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/registration-form',
      payload: { ...form, ...change },
    });
    expect(res.statusCode).toBe(422);
    expect(json<ErrorBody>(res).errors[field]).toEqual([message]);
  });

  it('goes from the form through the mailed link to a free-trial account', async () => {
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/registration-form',
      payload: { ...form, phone: '' },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ status_code: 200, message: ja.registrationReceived });
    const request = await t.database.db
      .selectFrom('registration_requests')
      .selectAll()
      .where('email', '=', form.email)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({
      agent_code: '0000',
      phone: null,
      knowledge: 'search',
      register_type: 0,
    });
    const mail = await mailTo(form.email);
    expect(mail.text).toContain('山田 太郎 様');
    expect(mail.link.pathname).toBe('/register-account');
    const token = mail.link.searchParams.get('token') ?? '';

    const verify = await call(t.app, {
      method: 'POST',
      url: '/api/register/verify-token',
      payload: { token },
    });
    expect(json(verify)).toEqual({ status_code: 200, data: { email: form.email } });

    const mismatch = await call(t.app, {
      method: 'POST',
      url: '/api/register',
      payload: {
        token,
        email: form.email,
        password: 'hanami-kouen-22',
        password_confirmation: 'hanami-kouen-2Z',
      },
    });
    expect(json<ErrorBody>(mismatch).errors).toEqual({
      password_confirmation: [ja.passwordMismatch],
    });

    const reg = await call(t.app, {
      method: 'POST',
      url: '/api/register',
      payload: {
        token,
        email: form.email,
        password: 'hanami-kouen-22',
        password_confirmation: 'hanami-kouen-22',
      },
    });
    expect(reg.statusCode).toBe(200);
    expect(json(reg)).toEqual({ status_code: 200, message: ja.registerDone });

    const loginRes = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      payload: { email: form.email, password: 'hanami-kouen-22' },
    });
    expect(loginRes.statusCode).toBe(200);
    expect(
      json<{ data: { connect_GMB: boolean; user: Record<string, unknown> } }>(loginRes).data,
    ).toMatchObject({
      connect_GMB: false,
      user: {
        role: 0,
        in_trial: true,
        // Agreed on the form: the terms dialog does not ask again (issue 7 §3.9).
        agreed_terms: 1,
        name: '山田 太郎',
        company_name: '山田商店',
        store_name: '山田商店 本店',
        agent_code: '0000',
      },
    });
    await t.app.queue.drain();
    expect(t.mailbox.list({ to: form.email })[0]?.subject).toContain('アカウント登録完了');

    // The link works once; the e-mail is now taken.
    const reuse = await call(t.app, {
      method: 'POST',
      url: '/api/register/verify-token',
      payload: { token },
    });
    expect(reuse.statusCode).toBe(422);
    expect(json<ErrorBody>(reuse).errors).toEqual({ token: [ja.accessTokenExpired] });
    // Issue 22 item 11 (ADR 0065): a registered address gets the same answer as a new one;
    // its owner gets a mail saying so, and no new link.
    const dup = await call(t.app, { method: 'POST', url: '/api/registration-form', payload: form });
    expect(dup.statusCode).toBe(200);
    expect(json(dup)).toEqual({ status_code: 200, message: ja.registrationReceived });
    await t.app.queue.drain();
    const last = t.mailbox.list({ to: form.email })[0];
    expect(last?.subject).toBe('【Tenpo】新規登録のお申し込みについて');
    expect(last?.text).toContain('すでに登録されています');
    expect(last?.text).not.toContain('/register-account');
  });
});

describe('registration: spent, expired and misused tokens', () => {
  it('refuses an unknown or expired registration token', async () => {
    const bad = await call(t.app, {
      method: 'POST',
      url: '/api/register/verify-token',
      payload: { token: 'made-up' },
    });
    expect(bad.statusCode).toBe(422);
    expect(json<ErrorBody>(bad).errors).toEqual({ token: [ja.accessTokenExpired] });

    await call(t.app, {
      method: 'POST',
      url: '/api/registration-form',
      payload: { ...form, email: 'late@tenpo.example' },
    });
    const token = (await mailTo('late@tenpo.example')).link.searchParams.get('token') ?? '';
    t.clock.advance(73 * 60 * 60 * 1000);
    const late = await call(t.app, {
      method: 'POST',
      url: '/api/register',
      payload: {
        token,
        email: 'late@tenpo.example',
        password: 'late-pass-1',
        password_confirmation: 'late-pass-1',
      },
    });
    expect(late.statusCode).toBe(422);
    expect(json<ErrorBody>(late).errors).toEqual({ token: [ja.accessTokenExpired] });
  });

  it('a second link of the same sign-up is spent once the account exists: it fails on open', async () => {
    const email = 'twice@tenpo.example';
    const links: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      await call(t.app, {
        method: 'POST',
        url: '/api/registration-form',
        payload: { ...form, email },
      });
      links.push((await mailTo(email)).link.searchParams.get('token') ?? '');
    }
    const [first, second] = links;
    expect(first).not.toBe(second);
    const verify = (token: string | undefined) =>
      call(t.app, { method: 'POST', url: '/api/register/verify-token', payload: { token } });
    expect((await verify(second)).statusCode).toBe(200);

    const reg = await call(t.app, {
      method: 'POST',
      url: '/api/register',
      payload: {
        token: first,
        email,
        password: 'spring-rain-41',
        password_confirmation: 'spring-rain-41',
      },
    });
    expect(reg.statusCode).toBe(200);

    const late = await verify(second);
    expect(late.statusCode).toBe(422);
    expect(json<ErrorBody>(late).errors).toEqual({ token: [ja.accessTokenExpired] });
    const submit = await call(t.app, {
      method: 'POST',
      url: '/api/register',
      payload: {
        token: second,
        email,
        password: 'spring-rain-41',
        password_confirmation: 'spring-rain-41',
      },
    });
    expect(json<ErrorBody>(submit).errors).toEqual({ token: [ja.accessTokenExpired] });
  });

  it('refuses a token used with another e-mail', async () => {
    await call(t.app, {
      method: 'POST',
      url: '/api/registration-form',
      payload: { ...form, email: 'own@tenpo.example' },
    });
    const token = (await mailTo('own@tenpo.example')).link.searchParams.get('token') ?? '';
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/register',
      payload: {
        token,
        email: 'other@tenpo.example',
        password: 'own-pass-1',
        password_confirmation: 'own-pass-1',
      },
    });
    expect(res.statusCode).toBe(422);
  });
});

describe('units of work: a mail is queued in the transaction that causes it', () => {
  /** Makes every insert into `jobs` fail, as a crash between the writes and the mail would. */
  const refuseJobs = async (on: boolean) => {
    const db = t.database.db;
    if (t.database.dialect === 'sqlite') {
      await sql
        .raw(
          on
            ? `create trigger refuse_jobs before insert on jobs begin select raise(abort, 'jobs refused'); end`
            : 'drop trigger refuse_jobs',
        )
        .execute(db);
      return;
    }
    await sql
      .raw(
        on
          ? `create function refuse_jobs() returns trigger language plpgsql as $$ begin raise exception 'jobs refused'; end $$;
             create trigger refuse_jobs before insert on jobs for each row execute function refuse_jobs()`
          : 'drop trigger refuse_jobs on jobs; drop function refuse_jobs()',
      )
      .execute(db);
  };
  const count = async (table: 'password_resets' | 'registration_requests') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores no reset and no registration request whose mail could not be queued', async () => {
    const resets = await count('password_resets');
    const requests = await count('registration_requests');
    await refuseJobs(true);
    try {
      const reset = await call(t.app, {
        method: 'POST',
        url: '/api/forgot-password',
        payload: { email: 'shop@tenpo.example' },
      });
      expect(reset.statusCode).toBe(500);
      const request = await call(t.app, {
        method: 'POST',
        url: '/api/registration-form',
        payload: { ...form, email: 'uow@tenpo.example' },
      });
      expect(request.statusCode).toBe(500);
    } finally {
      await refuseJobs(false);
    }
    expect(await count('password_resets')).toBe(resets);
    expect(await count('registration_requests')).toBe(requests);
  });
});
