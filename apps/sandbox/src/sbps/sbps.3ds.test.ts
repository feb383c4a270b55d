import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SBPS_SANDBOX_MERCHANT } from '../index';
import { buildSandbox } from '../shared/testing';
import { jstStamp, linkHash } from './sbps.codec';
import { ERR } from './sbps.constants';
import { A01_ORDER } from './sbps.link';
import { TDS_CHALLENGE_CARD, TDS_ERR, TDS_FAIL_CARD, TDS_OTP } from './sbps.3ds';
import { parseXml } from './sbps.xml';

/**
 * EMV 3-D Secure in the sandbox (ADR 0059): the hosted page with `credit3d2` and the issuer's
 * one-time-password challenge; the API type's TA02-00101-101 / TA02-00201-101 and the refusal of
 * an unauthenticated token at MG02-00131. The setting `sbps.require3ds` is on by default.
 */
const M = SBPS_SANDBOX_MERCHANT;
const S = '/sandbox/sbps';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let app: FastifyInstance;
let receiver: FastifyInstance;
let receiverUrl = '';
let notified = 0;
beforeEach(async () => {
  ({ app } = await buildSandbox());
  notified = 0;
  receiver = Fastify();
  receiver.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, b, done) => done(null, b));
  receiver.post('/notification', async (_req, reply) => {
    notified += 1;
    return reply.type('text/plain').send('OK,');
  });
  await receiver.listen({ port: 0, host: '127.0.0.1' });
  receiverUrl = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await app.close();
  await receiver.close();
});

/** An absolute sandbox URL (rt.baseUrl) as the path inject wants. */
const pathOf = (url: string): string => {
  const u = new URL(url, 'http://x');
  return `${u.pathname}${u.search}`;
};
const sjisForm = (f: Record<string, string>): string =>
  Object.entries(f)
    .map(
      ([k, v]) =>
        `${k}=${[...iconv.encode(v, 'Shift_JIS')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`,
    )
    .join('&');

const a01 = (over: Record<string, string>): Record<string, string> => {
  const f: Record<string, string> = {};
  for (const k of A01_ORDER) f[k] = '';
  Object.assign(f, {
    pay_method: 'credit3d2',
    merchant_id: M.merchantId,
    service_id: M.serviceId,
    cust_code: 'tenpo-3ds',
    order_id: 'ORDER-3DS-1',
    item_id: 'plan-standard',
    item_name: 'Tenpo Standard',
    amount: '6980',
    pay_type: '0',
    service_type: '0',
    terminal_type: '0',
    success_url: 'http://tenpo.test/return/success?user_id=1',
    cancel_url: 'http://tenpo.test/return/cancel?user_id=1',
    error_url: 'http://tenpo.test/return/error?user_id=1',
    pagecon_url: `${receiverUrl}/notification`,
    request_date: jstStamp(Date.now()),
    limit_second: '600',
    ...over,
  });
  f.sps_hashcode = linkHash(A01_ORDER, f, M.hashKey);
  return f;
};
const card = (number: string) => ({
  card_choice: 'new',
  cc_number: number,
  cc_exp_month: '12',
  cc_exp_year: '2030',
  security_code: '123',
  save_card: '1',
});
const open = async (over: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: `${S}/f01/FepBuyInfoReceive.do`,
    headers: FORM,
    payload: sjisForm(a01(over)),
  });
const pay = async (purchaseId: string, c: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: `${S}/f01/FepPayment.do`,
    headers: FORM,
    payload: sjisForm({ purchase_id: purchaseId, action: 'pay', ...c }),
  });
const purchaseIdOf = (html: string) => /name="purchase_id" value="([^"]+)"/.exec(html)?.[1] ?? '';
const answer = (acs: string, otp: string) =>
  app.inject({
    method: 'POST',
    url: pathOf(acs),
    headers: FORM,
    payload: `otp=${otp}&action=submit`,
  });
const payments = async (orderId: string) =>
  (
    (await app.inject({ url: `${S}/control/payments?order_id=${orderId}` })).json() as {
      data: { status: string; amount: number }[];
    }
  ).data;
const customers = async () =>
  (
    (await app.inject({ url: `${S}/control/customers` })).json() as {
      data: { cust_code: string; card: { masked: string } }[];
    }
  ).data.filter((c) => !c.cust_code.startsWith('tenpo-demo-'));

describe('hosted page with credit3d2 (link type)', () => {
  it('refuses pay_method=credit while 3-D Secure is required, and accepts it when switched off', async () => {
    const res = await open({ pay_method: 'credit' });
    expect(/id="sbps-error-code">(\d+)</.exec(res.body)?.[1]).toBe(ERR.value);
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { sbps: { require3ds: false } },
    });
    expect(purchaseIdOf((await open({ pay_method: 'credit' })).body)).not.toBe('');
  });

  it('charges the challenge card only after the one-time password, once', async () => {
    const id = purchaseIdOf((await open()).body);
    const res = await pay(id, card(TDS_CHALLENGE_CARD));
    expect(res.statusCode).toBe(303);
    const acs = res.headers.location as string;
    expect(acs).toContain('/sbps/tds2/acs/');
    // Nothing charged while the buyer is at the issuer.
    expect(await payments('ORDER-3DS-1')).toEqual([]);
    const challenge = await app.inject({ url: pathOf(acs) });
    expect(challenge.body).toContain('ワンタイムパスワード');
    expect(challenge.body).toContain('************3220');
    const wrong = await answer(acs, '000000');
    expect(wrong.statusCode).toBe(200);
    expect(wrong.body).toContain('ワンタイムパスワードが正しくありません');
    const right = await answer(acs, TDS_OTP);
    expect(right.statusCode).toBe(303);
    const back = await app.inject({ url: pathOf(right.headers.location as string) });
    expect(back.body).toContain('action="http://tenpo.test/return/success?user_id=1"');
    expect(back.body).toContain('name="res_result" value="OK"');
    expect((await payments('ORDER-3DS-1')).map((p) => p.status)).toEqual(['sold']);
    expect(notified).toBe(1);
    // The return replayed (a reload) charges nothing more.
    await app.inject({ url: pathOf(right.headers.location as string) });
    expect(await payments('ORDER-3DS-1')).toHaveLength(1);
  });

  it('charges nothing when the issuer refuses (the failing card, or three wrong passwords)', async () => {
    const id = purchaseIdOf((await open()).body);
    const refused = await pay(id, card(TDS_FAIL_CARD));
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain('本人認証（3Dセキュア）に失敗しました');
    const res = await pay(id, card(TDS_CHALLENGE_CARD));
    const acs = res.headers.location as string;
    await answer(acs, '111111');
    await answer(acs, '222222');
    const failed = await answer(acs, '333333');
    expect(failed.statusCode).toBe(303);
    const back = await app.inject({ url: pathOf(failed.headers.location as string) });
    expect(back.body).toContain('本人認証（3Dセキュア）に失敗しました');
    expect(await payments('ORDER-3DS-1')).toEqual([]);
    expect(await customers()).toEqual([]);
    expect(notified).toBe(0);
    // The ordinary card is frictionless: paid at once.
    const ok = await pay(id, card('4111111111111111'));
    expect(ok.body).toContain('name="res_result" value="OK"');
    expect((await payments('ORDER-3DS-1')).map((p) => p.status)).toEqual(['sold']);
  });
});

// ---- the API type -------------------------------------------------------------------------------
type Pairs = [string, string | Pairs][];
const flat = (p: Pairs): string[] => p.flatMap(([, v]) => (typeof v === 'string' ? [v] : flat(v)));
const xml = (id: string, p: Pairs): string => {
  const inner = (q: Pairs): string =>
    q
      .map(
        ([k, v]) => `<${k}>${typeof v === 'string' ? v.replace(/&/g, '&amp;') : inner(v)}</${k}>`,
      )
      .join('');
  const hash = createHash('sha1')
    .update(
      iconv.encode(
        flat(p)
          .map((v) => v.trim())
          .join('') + M.hashKey,
        'Shift_JIS',
      ),
    )
    .digest('hex');
  return `<?xml version="1.0" encoding="Shift_JIS"?><sps-api-request id="${id}">${inner([...p, ['sps_hashcode', hash]])}</sps-api-request>`;
};
async function api(id: string, p: Pairs) {
  const res = await app.inject({
    method: 'POST',
    url: `${S}/api/xmlapi.do`,
    headers: {
      'content-type': 'text/xml; charset=Shift_JIS',
      authorization: `Basic ${Buffer.from(`${M.basicId}:${M.basicPassword}`).toString('base64')}`,
    },
    payload: iconv.encode(xml(id, p), 'Shift_JIS'),
  });
  const doc = parseXml(iconv.decode(res.rawPayload, 'Shift_JIS'));
  return (path: string): string => {
    const [a, b] = path.split('.');
    const el = doc.children.find((c) => c.name === a);
    return (b ? el?.children.find((c) => c.name === b)?.text : el?.text) ?? '';
  };
}
const common = (custCode: string): Pairs => [
  ['merchant_id', M.merchantId],
  ['service_id', M.serviceId],
  ['cust_code', custCode],
];
const stamp = (): Pairs => [
  ['encrypted_flg', '0'],
  ['request_date', jstStamp(Date.now())],
  ['limit_second', '600'],
];
async function tokenFor(number: string) {
  const r = await app.inject({
    method: 'POST',
    url: `${S}/sbpstoken/tokens`,
    payload: {
      merchantId: M.merchantId,
      serviceId: M.serviceId,
      ccNumber: number,
      ccExpiration: '203012',
      securityCode: '123',
    },
  });
  return (r.json() as { tokenResponse: { token: string; tokenKey: string } }).tokenResponse;
}
const tokenPairs = (t: { token: string; tokenKey: string }): Pairs => [
  [
    'pay_option_manage',
    [
      ['token', t.token],
      ['token_key', t.tokenKey],
    ],
  ],
];
const authenticate = (custCode: string, t: { token: string; tokenKey: string }) =>
  api('TA02-00101-101', [
    ...common(custCode),
    ['amount', '0'],
    ['tds2_return_url', 'http://tenpo.test/change-payment-method?s=abc'],
    ...tokenPairs(t),
    ...stamp(),
  ]);
const result = (custCode: string, trackingId: string) =>
  api('TA02-00201-101', [...common(custCode), ['tracking_id', trackingId], ...stamp()]);
const register = (custCode: string, t: { token: string; tokenKey: string }) =>
  api('MG02-00131-101', [
    ...common(custCode),
    ['sps_cust_info_return_flg', '1'],
    [
      'pay_method_info',
      [
        ['resrv1', ''],
        ['resrv2', ''],
        ['resrv3', ''],
      ],
    ],
    ...tokenPairs(t),
    ...stamp(),
  ]);

describe('3-D Secure for card registration (API type, TA02-00101-101 / TA02-00201-101)', () => {
  it('refuses a token that was not authenticated, and registers it after the challenge', async () => {
    const t = await tokenFor(TDS_CHALLENGE_CARD);
    const direct = await register('tenpo-a', t);
    expect(direct('res_result')).toBe('NG');
    expect(direct('res_err_code')).toBe(TDS_ERR.notAuthenticated);
    const auth = await authenticate('tenpo-a', t);
    expect(auth('res_result')).toBe('OK');
    expect(auth('res_pay_method_info.tds2_trans_status')).toBe('C');
    const acs = auth('res_pay_method_info.tds2_challenge_url');
    const tracking = auth('res_tracking_id');
    expect((await result('tenpo-a', tracking))('res_pay_method_info.tds2_trans_status')).toBe('C');
    expect((await register('tenpo-a', t))('res_err_code')).toBe(TDS_ERR.notAuthenticated);
    const back = await answer(acs, TDS_OTP);
    expect(back.headers.location).toBe(
      `http://tenpo.test/change-payment-method?s=abc&tracking_id=${tracking}`,
    );
    // Another customer cannot read this result.
    expect((await result('tenpo-b', tracking))('res_result')).toBe('NG');
    expect((await result('tenpo-a', tracking))('res_pay_method_info.tds2_trans_status')).toBe('Y');
    expect((await register('tenpo-a', t))('res_result')).toBe('OK');
    expect((await customers()).map((c) => c.cust_code)).toEqual(['tenpo-a']);
  });

  it('authenticates an ordinary card frictionless and refuses the failing card', async () => {
    const good = await tokenFor('5555555555554444');
    const a = await authenticate('tenpo-f', good);
    expect(a('res_pay_method_info.tds2_trans_status')).toBe('Y');
    expect(a('res_pay_method_info.tds2_challenge_url')).toBe('');
    expect((await register('tenpo-f', good))('res_result')).toBe('OK');
    const bad = await tokenFor(TDS_FAIL_CARD);
    expect((await authenticate('tenpo-n', bad))('res_pay_method_info.tds2_trans_status')).toBe('N');
    expect((await register('tenpo-n', bad))('res_err_code')).toBe(TDS_ERR.notAuthenticated);
    expect((await customers()).map((c) => c.cust_code)).toEqual(['tenpo-f']);
  });

  it('registers without 3-D Secure when the setting is off', async () => {
    await app.inject({
      method: 'PATCH',
      url: '/sandbox/control/settings',
      payload: { sbps: { require3ds: false } },
    });
    expect((await register('tenpo-off', await tokenFor(TDS_CHALLENGE_CARD)))('res_result')).toBe(
      'OK',
    );
  });
});
