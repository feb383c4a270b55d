import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { ja } from '@tenpo/domain';
import { withMultipart } from '../src/lib/uploads';
import { buildTestApp, call, json, login, multipart, png, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type ErrorBody = { status_code: number; message: string; errors: Record<string, string[]> };
type UserBody = { status_code: number; data: Record<string, unknown> };

describe('PUT /account-setting/password', () => {
  it.each([
    [
      {},
      {
        current_password: [ja.required('現在のパスワード')],
        password: [ja.required('新しいパスワード')],
        password_confirmation: [ja.required('新しいパスワード（確認）')],
      },
    ],
    [
      { current_password: 'short', password: 'short', password_confirmation: 'short' },
      {
        current_password: [ja.minLength('現在のパスワード', 8)],
        password: [ja.minLength('新しいパスワード', 8)],
        password_confirmation: [ja.minLength('新しいパスワード（確認）', 8)],
      },
    ],
    [
      {
        current_password: 'tenpo-demo-1',
        password: 'new-password-1',
        password_confirmation: 'new-password-9',
      },
      { password_confirmation: [ja.newPasswordMismatch] },
    ],
    [
      {
        current_password: 'not-my-password',
        password: 'new-password-1',
        password_confirmation: 'new-password-1',
      },
      { current_password: [ja.currentPasswordWrong] },
    ],
  ])('refuses %o', async (payload, errors) => {
    const token = await login(t.app, 'trial@tenpo.example');
    const res = await call(t.app, {
      method: 'PUT',
      url: '/api/account-setting/password',
      token,
      payload,
    });
    expect(res.statusCode).toBe(422);
    expect(json<ErrorBody>(res).errors).toEqual(errors);
  });

  it('changes the password and ends the other sessions, not this one', async () => {
    const other = await login(t.app, 'payfail@tenpo.example');
    const token = await login(t.app, 'payfail@tenpo.example');
    const res = await call(t.app, {
      method: 'PUT',
      url: '/api/account-setting/password',
      token,
      payload: {
        current_password: 'tenpo-demo-1',
        password: 'changed-pass-1',
        password_confirmation: 'changed-pass-1',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ status_code: 200, message: ja.passwordChanged });
    expect(
      (await call(t.app, { method: 'GET', url: '/api/account-setting/information', token }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call(t.app, { method: 'GET', url: '/api/account-setting/information', token: other }))
        .statusCode,
    ).toBe(401);
    await login(t.app, 'payfail@tenpo.example', 'changed-pass-1');
  });
});

describe('account information', () => {
  it('GET gives the user with every field of the spec', async () => {
    const token = await login(t.app, 'leader@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: '/api/account-setting/information',
      token,
    });
    expect(res.statusCode).toBe(200);
    const user = json<UserBody>(res).data;
    for (const k of [
      'id',
      'email',
      'name',
      'role',
      'agreed_terms',
      'created_at',
      'phone',
      'company_name',
      'store_name',
      'logo_url',
      'is_leader',
      'agent_code',
      'in_trial',
      'payment_fail',
      'agency_logo',
    ]) {
      expect(user).toHaveProperty(k);
    }
    expect(user).toMatchObject({ is_leader: true, agent_code: '1001' });
  });

  it('POST (multipart) changes the fields and stores the logo', async () => {
    const token = await login(t.app, 'newshop@tenpo.example');
    const body = multipart(
      {
        name: '木村 颯太',
        company_name: 'きむら食堂株式会社',
        store_name: '',
        email: 'newshop@tenpo.example',
        phone: '0300000000',
      },
      { logo_url: { filename: 'logo.png', type: 'image/png', data: png() } },
    );
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/information',
      token,
      ...body,
    });
    expect(res.statusCode).toBe(200);
    const user = json<UserBody>(res).data;
    expect(user).toMatchObject({
      name: '木村 颯太',
      company_name: 'きむら食堂株式会社',
      store_name: null,
      phone: '0300000000',
    });
    expect(String(user.logo_url)).toMatch(/^\/uploads\/logos\/[\w-]+\.png$/);
    const img = await t.app.inject({ method: 'GET', url: String(user.logo_url) });
    expect(img.statusCode).toBe(200);
    expect(img.rawPayload.equals(png())).toBe(true);
    // A second save without a file keeps the logo.
    const again = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/information',
      token,
      ...multipart({ name: '木村 颯太', email: 'newshop@tenpo.example' }),
    });
    expect(json<UserBody>(again).data.logo_url).toBe(user.logo_url);
  });

  it.each([
    [{ name: '', email: 'expired@tenpo.example' }, {}, { name: [ja.required('担当者名')] }],
    [{ name: '木村', email: 'bad' }, {}, { email: [ja.email] }],
    // A new login address needs the current password first (ADR 0065).
    [
      { name: '木村', email: 'shop@tenpo.example' },
      {},
      { current_password: [ja.required('現在のパスワード')] },
    ],
    [
      { name: '木村', email: 'expired@tenpo.example', phone: '03-0000' },
      {},
      { phone: [ja.digitsOnly] },
    ],
    [
      { name: '木村', email: 'expired@tenpo.example' },
      { logo_url: { filename: 'a.png', type: 'image/png', data: Buffer.from('not an image') } },
      { logo_url: [ja.imageOnly] },
    ],
    [
      { name: '木村', email: 'expired@tenpo.example' },
      { logo_url: { filename: 'big.png', type: 'image/png', data: png(3072 * 1024 + 1) } },
      { logo_url: [ja.imageTooLarge(3072)] },
    ],
  ])('refuses %o and keeps what was saved', async (fields, files, errors) => {
    const token = await login(t.app, 'expired@tenpo.example');
    const before = json<UserBody>(
      await call(t.app, { method: 'GET', url: '/api/account-setting/information', token }),
    ).data;
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/information',
      token,
      ...multipart(fields, files),
    });
    expect(res.statusCode).toBe(422);
    expect(json<ErrorBody>(res).errors).toEqual(errors);
    const after = json<UserBody>(
      await call(t.app, { method: 'GET', url: '/api/account-setting/information', token }),
    ).data;
    expect(after).toEqual(before);
  });

  it('accepts a logo of exactly 3072 KB', async () => {
    const token = await login(t.app, 'expired@tenpo.example');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/information',
      token,
      ...multipart(
        { name: '上田 蓮', email: 'expired@tenpo.example' },
        { logo_url: { filename: 'l.png', type: 'image/png', data: png(3072 * 1024) } },
      ),
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('multipart outside the upload routes', () => {
  it('is registered with the upload routes only, so its hooks skip every other response', () => {
    // ADR 0029: @fastify/multipart's decorators (and its onResponse hook) live in the upload scope.
    expect(t.app.hasRequestDecorator('isMultipart')).toBe(false);
  });

  it('says so when withMultipart serves a route registered outside that scope', async () => {
    const app = Fastify({ logger: false });
    let error: unknown;
    app.post('/x', async (req) => {
      await withMultipart(req, t.app.storage, {}, async () => null).catch((e: unknown) => {
        error = e;
      });
      return {};
    });
    await app.inject({ method: 'POST', url: '/x', payload: {} });
    await app.close();
    expect(String(error)).toContain('registerUploadRoutes');
  });

  it('leaves a multipart body to a route that takes none unread, as before', async () => {
    const token = await login(t.app, 'newshop@tenpo.example');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/confirm-term',
      token,
      ...multipart({ email: 'newshop@tenpo.example' }),
    });
    expect(res.statusCode).toBe(422);
    const message = 'Invalid input: expected object, received null';
    expect(json<ErrorBody>(res)).toEqual({ status_code: 422, message, errors: { _: [message] } });
  });
});

describe('POST /confirm-term', () => {
  it('records the agreement', async () => {
    const token = await login(t.app, 'newshop@tenpo.example');
    const wrong = await call(t.app, {
      method: 'POST',
      url: '/api/confirm-term',
      token,
      payload: { email: 'newshop@tenpo.example', agreed_terms: 0 },
    });
    expect(wrong.statusCode).toBe(422);
    expect(json<ErrorBody>(wrong).errors).toEqual({ agreed_terms: [ja.termsRequired] });
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/confirm-term',
      token,
      payload: { email: 'newshop@tenpo.example', agreed_terms: 1 },
    });
    expect(res.statusCode).toBe(200);
    expect(json<UserBody>(res).data.agreed_terms).toBe(1);
    const relog = await call(t.app, {
      method: 'POST',
      url: '/api/login',
      payload: { email: 'newshop@tenpo.example', password: 'tenpo-demo-1' },
    });
    expect(
      json<UserBody & { data: { user: { agreed_terms: number } } }>(relog).data.user.agreed_terms,
    ).toBe(1);
  });

  it("refuses another account's e-mail", async () => {
    const token = await login(t.app, 'trial@tenpo.example');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/confirm-term',
      token,
      payload: { email: 'shop@tenpo.example', agreed_terms: 1 },
    });
    expect(res.statusCode).toBe(422);
  });
});

describe('GET /manual-page/download', () => {
  it('serves the Japanese PDF manual to a logged-in user', async () => {
    expect(
      (await call(t.app, { method: 'GET', url: '/api/manual-page/download' })).statusCode,
    ).toBe(401);
    const token = await login(t.app, 'trial@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: '/api/manual-page/download',
      token,
      headers: { accept: 'application/pdf' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.rawPayload.length).toBeGreaterThan(20_000);
  });
});

describe('POST /agency/logo', () => {
  it('lets an agency upload its logo, which its stores then show', async () => {
    const token = await login(t.app, 'agency@tenpo.example');
    const me = json<UserBody>(
      await call(t.app, { method: 'GET', url: '/api/account-setting/information', token }),
    ).data;
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/agency/logo',
      token,
      ...multipart(
        { user_id: String(me.id) },
        { logo: { filename: 'a.png', type: 'image/png', data: png() } },
      ),
    });
    expect(res.statusCode).toBe(200);
    const logo = json<UserBody>(res).data.logo_url;
    expect(json<UserBody>(res).data.agency_logo).toBe(logo);
    const store = await login(t.app, 'store02@tenpo.example');
    const info = json<UserBody>(
      await call(t.app, { method: 'GET', url: '/api/account-setting/information', token: store }),
    ).data;
    expect(info.agency_logo).toBe(logo);
    expect(
      json<{ data: { logo_url: string } }>(
        await call(t.app, { method: 'GET', url: '/api/domain/demo/title' }),
      ).data.logo_url,
    ).toBe(logo);
  });

  it('is refused to a shop (403) and needs a file', async () => {
    const shop = await login(t.app, 'trial@tenpo.example');
    expect(
      (
        await call(t.app, {
          method: 'POST',
          url: '/api/agency/logo',
          token: shop,
          ...multipart({}, { logo: { filename: 'a.png', type: 'image/png', data: png() } }),
        })
      ).statusCode,
    ).toBe(403);
    const agency = await login(t.app, 'agency@tenpo.example');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/agency/logo',
      token: agency,
      ...multipart({}),
    });
    expect(res.statusCode).toBe(422);
    expect(json<ErrorBody>(res).errors).toEqual({ logo: [ja.required('ロゴ画像')] });
  });
});
