import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TDS_JA } from '../src/modules/payments/tds';
import { buildTestApp, call, json, login, type TestApp } from './helpers';
import { freePort, startSandbox, type RunningSandbox } from './sandbox';

/**
 * EMV 3-D Secure end to end (ADR 0059): Tenpo against the sandbox's SBPS, with the sandbox's
 * `sbps.require3ds` on (its default). Cards and charges are counted at the sandbox's own API.
 * Test cards: 4000000000003220 asks for the one-time password 123456; 4000008400001629 is refused
 * by the issuer; any other card is authenticated without a challenge.
 */
const CHALLENGE = '4000000000003220';
const FAIL = '4000008400001629';
const OTP = '123456';

let sb: RunningSandbox;
let t: TestApp;
const ids: Record<string, number> = {};

type Form = { action: string; fields: { name: string; value: string }[]; order_id: string };
const sandboxGet = async <T>(p: string): Promise<T> =>
  ((await (await fetch(`${sb.url}${p}`)).json()) as { data: T }).data;
const paymentsFor = async (orderId: string) =>
  (
    await sandboxGet<{ order_id: string; status: string; amount: number }[]>(
      '/sbps/control/payments',
    )
  ).filter((p) => p.order_id === orderId);
const cardsOf = async (userId: number) => {
  const a = await t.database.db
    .selectFrom('payment_accounts')
    .select(['cust_code', 'card_masked'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const atSbps = (
    await sandboxGet<{ cust_code: string; card: { masked: string } }[]>('/sbps/control/customers')
  ).filter((c) => a?.cust_code && c.cust_code === a.cust_code);
  return { tenpo: a?.card_masked ?? null, sbps: atSbps.map((c) => c.card.masked) };
};

const tokenFor = async (ccNumber: string) => {
  const res = await fetch(`${sb.url}/sbps/sbpstoken/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      merchantId: '30132',
      serviceId: '103',
      ccNumber,
      ccExpiration: '203012',
      securityCode: '123',
    }),
  });
  return ((await res.json()) as { tokenResponse: { token: string; tokenKey: string } })
    .tokenResponse;
};
const form = (f: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(f),
  redirect: 'manual' as const,
});
/** The holder at the issuer's page: answers the one-time password; where the issuer sends them. */
const atIssuer = async (acs: string, otp: string): Promise<string> => {
  const res = await fetch(acs, form({ otp, action: 'submit' }));
  return res.headers.get('location') ?? '';
};

const authenticate = (session: string, userId: number, pair: { token: string; tokenKey: string }) =>
  call(t.app, {
    method: 'POST',
    url: '/api/payment/credit-card/authenticate',
    token: session,
    payload: { ...pair, user_id: userId, return_path: '/change-payment-method' },
  });
const complete = (session: string, userId: number, back: string) => {
  const u = new URL(back);
  return call(t.app, {
    method: 'POST',
    url: '/api/payment/credit-card/authenticate/complete',
    token: session,
    payload: {
      user_id: userId,
      state: u.searchParams.get('tds') ?? '',
      tracking_id: u.searchParams.get('tracking_id') ?? '',
    },
  });
};

beforeAll(async () => {
  sb = await startSandbox();
  const port = await freePort();
  t = await buildTestApp({ SANDBOX_URL: sb.url, PUBLIC_URL: `http://127.0.0.1:${port}` });
  await t.app.listen({ port, host: '127.0.0.1' });
  for (const e of ['trial', 'expired'])
    ids[e] = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', `${e}@tenpo.example`)
        .executeTakeFirstOrThrow()
    ).id;
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});

describe('EMV 3-D Secure against the SBPS sandbox', () => {
  it('registers a card only after the issuer challenge, verdict read from SBPS', async () => {
    const s = await login(t.app, 'trial@tenpo.example');
    const id = ids.trial as number;
    // Without the challenge the card cannot be stored: /register says so, SBPS has nothing.
    const direct = await call(t.app, {
      method: 'POST',
      url: '/api/payment/credit-card/register',
      token: s,
      payload: { ...(await tokenFor(CHALLENGE)), user_id: id },
    });
    expect(direct.statusCode).toBe(422);
    expect(await cardsOf(id)).toEqual({ tenpo: null, sbps: [] });

    const res = await authenticate(s, id, await tokenFor(CHALLENGE));
    expect(res.statusCode, res.body).toBe(200);
    const started = json<{ data: { status: string; redirect_url: string; card: null } }>(res).data;
    expect(started.status).toBe('challenge');
    expect(started.card).toBeNull();
    expect(started.redirect_url).toContain(`${sb.url}/sbps/tds2/acs/`);
    // Nothing stored while the user is at the issuer.
    expect(await cardsOf(id)).toEqual({ tenpo: null, sbps: [] });

    const page = await (await fetch(started.redirect_url)).text();
    expect(page).toContain('ワンタイムパスワード');
    const pending = await call(t.app, {
      method: 'POST',
      url: '/api/payment/credit-card/authenticate',
      token: s,
      payload: { ...(await tokenFor(CHALLENGE)), user_id: id },
    });
    const other = json<{ data: { redirect_url: string } }>(pending).data.redirect_url;
    const back = await atIssuer(started.redirect_url, OTP);
    expect(back).toMatch(/\/change-payment-method\?tds=[\w-]+&tracking_id=/);
    // The state with another, unanswered challenge's tracking id: SBPS says C, nothing stored.
    const forged = new URL(back);
    forged.searchParams.set('tracking_id', new URL(other).pathname.split('/').pop() ?? '');
    const refused = await complete(s, id, forged.toString());
    expect(refused.statusCode).toBe(422);
    expect(json<{ message: string }>(refused).message).toBe(TDS_JA.failed);
    expect(await cardsOf(id)).toEqual({ tenpo: null, sbps: [] });

    const done = await complete(s, id, back);
    expect(done.statusCode, done.body).toBe(200);
    expect(json<{ data: unknown }>(done).data).toEqual({
      status: 'registered',
      card: { cc_number: '************3220', cc_expiration: '203012', cardbrand_code: 'V' },
      redirect_url: null,
    });
    expect(await cardsOf(id)).toEqual({
      tenpo: '************3220',
      sbps: ['************3220'],
    });
    // The same return again (a reload) stores nothing new and breaks nothing saved.
    expect((await complete(s, id, back)).statusCode).toBe(422);
    expect(await cardsOf(id)).toEqual({
      tenpo: '************3220',
      sbps: ['************3220'],
    });
  });

  it('the failing card, and a wrong one-time password: a Japanese message, nothing stored', async () => {
    const s = await login(t.app, 'expired@tenpo.example');
    const id = ids.expired as number;
    const before = await cardsOf(id);
    const res = await authenticate(s, id, await tokenFor(FAIL));
    expect(res.statusCode).toBe(422);
    expect(json<{ message: string }>(res).message).toBe(TDS_JA.failed);
    expect(await cardsOf(id)).toEqual(before);

    const started = json<{ data: { redirect_url: string } }>(
      await authenticate(s, id, await tokenFor(CHALLENGE)),
    ).data;
    await fetch(started.redirect_url, form({ otp: '000000', action: 'submit' }));
    await fetch(started.redirect_url, form({ otp: '111111', action: 'submit' }));
    const back = await atIssuer(started.redirect_url, '222222');
    const out = await complete(s, id, back);
    expect(out.statusCode).toBe(422);
    expect(json<{ message: string }>(out).message).toBe(TDS_JA.failed);
    expect(await cardsOf(id)).toEqual(before);

    // A tampered state is refused before SBPS is asked.
    const bad = new URL(back);
    bad.searchParams.set('tds', `${bad.searchParams.get('tds') ?? ''}x`);
    expect(json<{ message: string }>(await complete(s, id, bad.toString())).message).toBe(
      TDS_JA.expired,
    );
  });

  it('the full purchase goes through 3-D Secure on the hosted page (credit3d2)', async () => {
    const s = await login(t.app, 'expired@tenpo.example');
    const id = ids.expired as number;
    await call(t.app, {
      method: 'POST',
      url: '/api/payment-plans',
      token: s,
      payload: { payment_plan: 1, user_id: id },
    });
    const signed = json<{ data: Form }>(
      await call(t.app, {
        method: 'POST',
        url: '/api/payment/purchase',
        token: s,
        payload: { user_id: id },
      }),
    ).data;
    const fields = Object.fromEntries(signed.fields.map((f) => [f.name, f.value]));
    expect(fields.pay_method).toBe('credit3d2');
    const html = await (await fetch(signed.action, form(fields))).text();
    const purchaseId = /name="purchase_id" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const card = (n: string) => ({
      purchase_id: purchaseId,
      action: 'pay',
      card_choice: 'new',
      cc_number: n,
      cc_exp_month: '12',
      cc_exp_year: '2030',
      security_code: '123',
      save_card: '1',
    });
    // The failing card: the issuer refuses, nothing charged, the page asks for another card.
    const refused = await (
      await fetch(`${sb.url}/sbps/f01/FepPayment.do`, form(card(FAIL)))
    ).text();
    expect(refused).toContain('本人認証（3Dセキュア）に失敗しました');
    expect(await paymentsFor(signed.order_id)).toEqual([]);

    const toIssuer = await fetch(`${sb.url}/sbps/f01/FepPayment.do`, form(card(CHALLENGE)));
    expect(toIssuer.status).toBe(303);
    const acs = toIssuer.headers.get('location') ?? '';
    expect(await paymentsFor(signed.order_id)).toEqual([]);
    const back = await atIssuer(acs, OTP);
    const result = await (await fetch(back)).text();
    const action = (/action="([^"]+)"/.exec(result)?.[1] ?? '').replace(/&amp;/g, '&');
    expect(action).toBe(`${t.config.publicUrl}/api/payment/sbps/return/success?user_id=${id}`);
    expect(await paymentsFor(signed.order_id)).toMatchObject([{ status: 'sold', amount: 6980 }]);
    const charge = await t.database.db
      .selectFrom('payment_charges')
      .select('state')
      .where('order_id', '=', signed.order_id)
      .executeTakeFirstOrThrow();
    expect(charge.state).toBe('paid');
  });
});
