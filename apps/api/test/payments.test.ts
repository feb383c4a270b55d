import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { addDays, ja, paymentJa, ROLE, tokyoDay } from '@tenpo/domain';
import { DAY, HOUR } from '../src/lib/clock';
import { linkHash, RESULT_FIELDS } from '../src/modules/payments/sbps.codec';
import { nextBillingDay } from '../src/modules/payments/payments.rules';
import { CHARGE_QUEUE, chargeKeyOf } from '../src/modules/payments/payments.service';
import { createFakeSbps, type FakeSbps } from './fake-sbps';
import { buildTestApp, call, json, login, type TestApp } from './helpers';

let t: TestApp;
let sbps: FakeSbps;
const ids: Record<string, number> = {};
const tokens: Record<string, string> = {};

const HASH_KEY = 'tenposandboxhashkey000000000000000000000';

const idOf = async (email: string) =>
  (
    await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
  ).id;
const user = (id: number) =>
  t.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const account = (id: number) =>
  t.database.db
    .selectFrom('payment_accounts')
    .selectAll()
    .where('user_id', '=', id)
    .executeTakeFirst();
const charges = (id: number) =>
  t.database.db
    .selectFrom('payment_charges')
    .selectAll()
    .where('user_id', '=', id)
    .orderBy('id')
    .execute();
const notifications = () =>
  t.database.db.selectFrom('payment_notifications').selectAll().orderBy('id').execute();
const today = () => tokyoDay(t.clock.now().getTime());

/** SBPS's A02-1 for a purchase form, signed as SBPS signs it (fields in order + hash key). */
const a02 = (
  form: { fields: { name: string; value: string }[] },
  result: { ok: boolean; trackingId?: string; errCode?: string },
  key = HASH_KEY,
) => {
  const sent = Object.fromEntries(form.fields.map((f) => [f.name, f.value]));
  const f: Record<string, string> = {};
  for (const k of RESULT_FIELDS) f[k] = sent[k] ?? '';
  Object.assign(f, {
    res_pay_method: 'credit',
    res_result: result.ok ? 'OK' : 'NG',
    res_tracking_id: result.trackingId ?? (result.ok ? '12345678901234' : ''),
    res_payment_date: result.ok ? '20261126141612' : '',
    res_err_code: result.errCode ?? '',
    res_date: '20261126141612',
  });
  f.sps_hashcode = linkHash(
    RESULT_FIELDS.map((k) => f[k] ?? ''),
    key,
  );
  return f;
};
/** A Shift_JIS form body, as SBPS posts it. */
const sjisForm = (f: Record<string, string>) =>
  Object.entries(f)
    .map(
      ([k, v]) =>
        `${k}=${[...iconv.encode(v, 'Shift_JIS')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`,
    )
    .join('&');

const notify = (f: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payment/sbps/notification',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=Shift_JIS' },
    payload: sjisForm(f),
  });

const get = (who: string, url: string) => call(t.app, { method: 'GET', url, token: tokens[who] });
const post = (who: string, url: string, payload: Record<string, unknown>) =>
  call(t.app, { method: 'POST', url, payload, token: tokens[who] });

beforeAll(async () => {
  t = await buildTestApp({}, { sbps: (config, clock) => (sbps = createFakeSbps(config, clock)) });
  for (const e of ['shop', 'trial', 'expired', 'payfail', 'store02', 'agency']) {
    ids[e] = await idOf(`${e}@tenpo.example`);
    tokens[e] = await login(t.app, `${e}@tenpo.example`);
  }
  // The sandbox's demo customers (the seed's cust_codes).
  sbps.customers.set('tenpo-demo-shop', {
    masked: '************1111',
    expiration: '203012',
    brand: 'V',
    decline: false,
  });
  sbps.customers.set('tenpo-demo-payfail', {
    masked: '************0002',
    expiration: '203012',
    brand: 'V',
    decline: true,
  });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  sbps.down = false;
  sbps.latencyMs = 0;
});

describe('plans, methods and the provider', () => {
  it('answers the token script and the merchant', async () => {
    const res = await get('trial', `/api/payment/provider?user_id=${ids.trial}`);
    expect(res.statusCode).toBe(200);
    expect(json(res).data).toEqual({
      token_script_url: 'http://tenpo.test/sandbox/sbps/sbpstoken/com_sbps_system_token.js',
      merchant_id: '30132',
      service_id: '103',
    });
  });

  it('lists the plans at the configured prices', async () => {
    const res = await get('trial', `/api/payment-plans?user_id=${ids.trial}`);
    expect(json(res).data).toEqual([
      { key: 1, name: 'スタンダード', price: 6980, amount: 6980 },
      { key: 2, name: 'プレミアム', price: 20000, amount: 20000 },
    ]);
  });

  it('disables agency invoice for a direct customer only', async () => {
    const direct = json<{ data: { key: string; payment_btn_disable: boolean }[] }>(
      await get('trial', `/api/payment-methods?user_id=${ids.trial}`),
    ).data;
    expect(direct).toEqual([
      { key: 'credit_card', name: 'クレジットカード', payment_btn_disable: false },
      { key: 'agency_invoice', name: '代理店請求', payment_btn_disable: true },
    ]);
    const agencyStore = json<{ data: { key: string; payment_btn_disable: boolean }[] }>(
      await get('agency', `/api/payment-methods?user_id=${ids.store02}`),
    ).data;
    expect(agencyStore[1]?.payment_btn_disable).toBe(false);
    const refused = await post('trial', '/api/payment-methods', {
      payment_name: 'agency_invoice',
      user_id: ids.trial,
    });
    expect(refused.statusCode).toBe(422);
    expect(json(refused).errors).toEqual({ payment_name: [paymentJa.methodUnavailable] });
  });

  it('chooses a method and answers it', async () => {
    // Before any choice, a direct customer pays by card (its agent code is the default).
    expect(
      json(await get('trial', `/api/payment/selected-payment-method?user_id=${ids.trial}`)).data,
    ).toEqual({ key: 'credit_card', name: 'クレジットカード', payment_btn_disable: false });
    const res = await post('trial', '/api/payment-methods', {
      payment_name: 'credit_card',
      user_id: ids.trial,
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      message: '支払い方法を変更しました。',
      data: { key: 'credit_card' },
    });
    expect(
      json(await get('trial', `/api/payment/selected-payment-method?user_id=${ids.trial}`)).data,
    ).toMatchObject({ key: 'credit_card' });
  });

  it.each([
    [{ payment_plan: 3 }, { payment_plan: [paymentJa.planInvalid] }],
    [{ payment_plan: 'x' }, { payment_plan: [ja.required(paymentJa.labels.payment_plan)] }],
    [{ payment_plan: 1, payment_name: 'cash' }, { payment_name: [paymentJa.methodInvalid] }],
  ])('refuses plan %o with the spec messages', async (body, errors) => {
    const res = await post('trial', '/api/payment-plans', { user_id: ids.trial, ...body });
    expect(res.statusCode).toBe(422);
    expect(json(res).errors).toMatchObject(errors);
  });

  it('refuses a card without its token pair, naming the fields', async () => {
    const res = await post('trial', '/api/payment/credit-card/register', { user_id: ids.trial });
    expect(res.statusCode).toBe(422);
    expect(json(res).errors).toEqual({
      token: [ja.required(paymentJa.labels.token)],
      tokenKey: [ja.required(paymentJa.labels.tokenKey)],
    });
  });

  it('a plan chosen before the first payment applies at once', async () => {
    const res = await post('trial', '/api/payment-plans', {
      payment_name: 'credit_card',
      payment_plan: 2,
      user_id: ids.trial,
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      message: 'プランを変更しました。',
      data: { key: 2, next_plan: null, paid_through: null, next_billing_on: null },
    });
    const again = await post('trial', '/api/payment-plans', {
      payment_plan: 1,
      user_id: ids.trial,
    });
    expect(json(again).data).toMatchObject({ key: 1, amount: 6980, next_plan: null });
  });
});

describe('the card', () => {
  it('registers a card from a token pair, and answers it masked with the spec brand', async () => {
    const res = await post('expired', '/api/payment/credit-card/register', {
      token: 'tok-A-0005',
      tokenKey: 'key',
      user_id: ids.expired,
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      message: 'カードを登録しました。',
      data: { cc_number: '************0005', cc_expiration: '203012', cardbrand_code: 'AMEX' },
    });
    expect(sbps.calls.slice(-2)).toEqual(['MG02-00131', 'MG02-00104']);
    const ref = await get('expired', `/api/payment/credit-card/reference?user_id=${ids.expired}`);
    expect(json(ref).data).toEqual({
      cc_number: '************0005',
      cc_expiration: '203012',
      cardbrand_code: 'AMEX',
    });
    // A second card replaces the first (MG02-00132).
    const update = await post('expired', '/api/payment/credit-card/register', {
      token: 'tok-V-1111',
      tokenKey: 'key',
      user_id: ids.expired,
    });
    expect(json(update).data).toMatchObject({ cardbrand_code: 'V', cc_number: '************1111' });
    expect(sbps.calls.slice(-2)).toEqual(['MG02-00132', 'MG02-00104']);
  });

  it.each([
    ['tok-used', { token: [paymentJa.tokenFailed] }],
    ['tok-bad', { card: [paymentJa.cardInvalid] }],
  ])('answers SBPS refusing %s with the spec message', async (token, errors) => {
    const res = await post('trial', '/api/payment/credit-card/register', {
      token,
      tokenKey: 'key',
      user_id: ids.trial,
    });
    expect(res.statusCode).toBe(422);
    expect(json(res).errors).toEqual(errors);
  });

  it('SBPS down: 503 with the provider-down text; the reference falls back to the copy', async () => {
    sbps.down = true;
    const res = await post('trial', '/api/payment/credit-card/register', {
      token: 'tok-V-4242',
      tokenKey: 'key',
      user_id: ids.trial,
    });
    expect(res.statusCode).toBe(503);
    expect(json(res).message).toBe(paymentJa.providerDown);
    const ref = await get('shop', `/api/payment/credit-card/reference?user_id=${ids.shop}`);
    expect(json(ref).data).toEqual({
      cc_number: '************1111',
      cc_expiration: '203012',
      cardbrand_code: 'V',
    });
  });

  it('refuses to remove the card a paid plan is billed to; removes a trial store’s', async () => {
    const refused = await get('shop', `/api/payment/credit-card/remove?user_id=${ids.shop}`);
    expect(refused.statusCode).toBe(422);
    expect(json(refused).errors).toEqual({ card: [paymentJa.cardInUse] });
    await post('trial', '/api/payment/credit-card/register', {
      token: 'tok-M-4444',
      tokenKey: 'key',
      user_id: ids.trial,
    });
    const removed = await get('trial', `/api/payment/credit-card/remove?user_id=${ids.trial}`);
    expect(removed.statusCode).toBe(200);
    expect(json(removed)).toMatchObject({ message: 'カードを削除しました。', data: null });
    expect(
      json(await get('trial', `/api/payment/credit-card/reference?user_id=${ids.trial}`)).data,
    ).toBeNull();
  });
});

/** The hosted page's form, as POST /api/payment/purchase answers it. */
type Form = {
  action: string;
  fields: { name: string; value: string }[];
  order_id: string;
  amount: number;
};
const purchase = async (who: string, host?: string) => {
  const res = await call(t.app, {
    method: 'POST',
    url: '/api/payment/purchase',
    payload: { user_id: ids[who] },
    token: tokens[who],
    ...(host ? { headers: { host } } : {}),
  });
  return res;
};

describe('the first payment on the hosted page: refusals and the signed form', () => {
  it('refuses the card page to a store its agency bills', async () => {
    await post('agency', '/api/payment-plans', { payment_plan: 1, user_id: ids.store02 });
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/payment/purchase',
      payload: { user_id: ids.store02 },
      token: tokens.agency,
    });
    expect(res.statusCode).toBe(422);
    expect(json(res).errors).toEqual({ payment_name: [paymentJa.methodUnavailable] });
  });

  it('refuses a purchase before a plan is chosen', async () => {
    const res = await purchase('expired');
    expect(res.statusCode).toBe(422);
    expect(json(res).errors).toEqual({ payment_plan: [paymentJa.noPlan] });
  });

  it('signs the A01-1 form, settles on the notification, and returns the browser with 12999', async () => {
    await post('expired', '/api/payment-plans', { payment_plan: 1, user_id: ids.expired });
    const res = await purchase('expired', 'demo.tenpo.test');
    expect(res.statusCode).toBe(200);
    const form = json<{ data: Form }>(res).data;
    expect(form.action).toBe('http://tenpo.test/sandbox/sbps/f01/FepBuyInfoReceive.do');
    expect(form.amount).toBe(6980);
    expect(form.order_id).toMatch(/^[A-Za-z0-9]{32}$/);
    const f = Object.fromEntries(form.fields.map((x) => [x.name, x.value]));
    expect(f).toMatchObject({
      pay_method: 'credit3d2',
      merchant_id: '30132',
      service_id: '103',
      order_id: form.order_id,
      amount: '6980',
      success_url: `http://tenpo.test/api/payment/sbps/return/success?user_id=${ids.expired}`,
      error_url: `http://tenpo.test/api/payment/sbps/return/error?user_id=${ids.expired}`,
      cancel_url: `http://tenpo.test/api/payment/sbps/return/cancel?user_id=${ids.expired}`,
      pagecon_url: 'http://tenpo.test/api/payment/sbps/notification',
    });
    expect(f.cust_code).toMatch(/^tenpo-\d+-[0-9a-f]{12}$/);
    expect(form.fields.at(-1)?.name).toBe('sps_hashcode');

    const before = await user(ids.expired as number);
    expect(before.role).toBe(ROLE.freeTrial);
    const n = await notify(a02(form, { ok: true }));
    expect(n.statusCode).toBe(200);
    expect(n.headers['content-type']).toBe('text/plain; charset=Shift_JIS');
    expect(n.body).toBe('OK,');

    const after = await user(ids.expired as number);
    expect(after).toMatchObject({ role: ROLE.shop, payment_fail: 0 });
    const a = await account(ids.expired as number);
    const day = Number(today().slice(8, 10));
    expect(a).toMatchObject({ plan: 1, billing_day: day });
    expect(a?.next_billing_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(a?.paid_through).toBe(addDays(a?.next_billing_on as string, -1));
    await t.app.queue.drain();
    const mail = t.mailbox.list({ to: 'expired@tenpo.example' })[0];
    expect(mail?.subject).toBe('【Tenpo】お支払い完了のお知らせ（領収書）');
    expect(mail?.text).toContain(form.order_id);

    // The browser's return (A03-1, posted by SBPS's page in Shift_JIS) goes back to the host
    // it came from, with the success code.
    const back = await t.app.inject({
      method: 'POST',
      url: `/api/payment/sbps/return/success?user_id=${ids.expired}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: sjisForm(a02(form, { ok: true })),
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('http://demo.tenpo.test/register-payment?stt_id=12999');
    // A forged return does not show success.
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/payment/sbps/return/success?user_id=${ids.expired}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: sjisForm(a02(form, { ok: true }, 'x'.repeat(40))),
    });
    expect(forged.headers.location).toBe('http://demo.tenpo.test/register-payment?stt_id=18999');
    // A return by GET carries the same fields in its query.
    const query = new URLSearchParams({
      ...a02(form, { ok: true }),
      user_id: String(ids.expired),
    });
    const byGet = await t.app.inject({
      method: 'GET',
      url: `/api/payment/sbps/return/success?${query.toString()}`,
    });
    expect(byGet.headers.location).toBe('http://demo.tenpo.test/register-payment?stt_id=12999');
    const cancel = await t.app.inject({
      method: 'GET',
      url: `/api/payment/sbps/return/cancel?user_id=${ids.expired}`,
    });
    expect(cancel.statusCode).toBe(303);
    expect(cancel.headers.location).toBe('http://demo.tenpo.test/register-payment');

    // Paid: no second purchase for this period.
    const again = await purchase('expired');
    expect(again.statusCode).toBe(422);
    expect(json(again).errors).toEqual({ user_id: [paymentJa.alreadyPaid] });
  });
});

describe('the first payment on the hosted page: notifications, and a decline', () => {
  it('refuses a replayed, tampered or unknown notification with NG, keeping and logging each', async () => {
    await post('trial', '/api/payment-plans', { payment_plan: 1, user_id: ids.trial });
    const form = json<{ data: Form }>(await purchase('trial')).data;
    const good = a02(form, { ok: true });

    const tampered = await notify({ ...good, amount: '1' });
    expect(tampered.body).toBe('NG,tampered');
    const unknown = await notify(
      a02(
        {
          fields: form.fields.map((f) =>
            f.name === 'order_id' ? { ...f, value: 'X'.repeat(32) } : f,
          ),
        },
        { ok: true },
      ),
    );
    expect(unknown.body).toBe('NG,unknown');
    // Signed with our key but a different amount than the order's: tampered too.
    const wrongAmount = await notify(
      a02(
        { fields: form.fields.map((f) => (f.name === 'amount' ? { ...f, value: '1' } : f)) },
        { ok: true },
      ),
    );
    expect(wrongAmount.body).toBe('NG,tampered');
    // A result SBPS never signed (another key): refused on its hash alone.
    expect((await notify(a02(form, { ok: true }, 'x'.repeat(40)))).body).toBe('NG,tampered');
    // Signed with our key, but for another store's customer code than this order's (ADR 0058).
    const otherStore = await notify(
      a02(
        {
          fields: form.fields.map((f) =>
            f.name === 'cust_code' ? { ...f, value: 'tenpo-demo-shop' } : f,
          ),
        },
        { ok: true },
      ),
    );
    expect(otherStore.body).toBe('NG,tampered');
    expect((await user(ids.trial as number)).role).toBe(ROLE.freeTrial);

    expect((await notify(good)).body).toBe('OK,');
    const replay = await notify(good);
    expect(replay.statusCode).toBe(200);
    expect(replay.body).toBe('NG,replay');
    const rows = (await notifications()).filter(
      (r) => r.order_id === form.order_id || r.order_id === 'X'.repeat(32),
    );
    expect(rows.map((r) => r.verdict)).toEqual([
      'tampered',
      'unknown',
      'tampered',
      'tampered',
      'tampered',
      'accepted',
      'replay',
    ]);
    expect(rows.find((r) => r.reason === 'cust_code')?.verdict).toBe('tampered');
    // Settled once: one receipt.
    await t.app.queue.drain();
    expect(t.mailbox.list({ to: 'trial@tenpo.example' })).toHaveLength(1);
  });

  it('the same notification twice at once settles once', async () => {
    const id = await idOf('store02@tenpo.example');
    const token = await login(t.app, 'store02@tenpo.example');
    // An agency's store pays by card once the card is its chosen method.
    for (const [url, payload] of [
      ['/api/payment-methods', { payment_name: 'credit_card', user_id: id }],
      ['/api/payment-plans', { payment_plan: 1, user_id: id }],
    ] as const)
      expect((await call(t.app, { method: 'POST', url, token, payload })).statusCode).toBe(200);
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/payment/purchase',
      token,
      payload: { user_id: id },
    });
    const form = json<{ data: Form }>(res).data;
    const good = a02(form, { ok: true });
    // Straight to the service, so that the three read the order before any settles it: only
    // the settling UPDATE's condition (state still open) can tell them apart.
    const notifyNow = () => t.app.payments.service.notification(good);
    const replies = await Promise.all([notifyNow(), notifyNow(), notifyNow()]);
    expect(replies.map((r) => r.ok).sort()).toEqual([false, false, true]);
    expect(replies.filter((r) => !r.ok).map((r) => r.reason)).toEqual(['replay', 'replay']);
    await t.app.queue.drain();
    expect(
      t.mailbox.list({ to: 'store02@tenpo.example' }).filter((m) => m.subject.includes('領収書')),
    ).toHaveLength(1);
  });

  it('a declined payment sets payment_fail, mails the failed text, and returns with 18999', async () => {
    const id = await idOf('store11@tenpo.example');
    ids.store11 = id;
    tokens.store11 = await login(t.app, 'store11@tenpo.example');
    await post('store11', '/api/payment-methods', { payment_name: 'credit_card', user_id: id });
    await post('store11', '/api/payment-plans', { payment_plan: 1, user_id: id });
    const form = json<{ data: Form }>(await purchase('store11')).data;
    const ng = a02(form, { ok: false, errCode: '10122000' });
    expect((await notify(ng)).body).toBe('OK,');
    const u = await user(id);
    expect(u).toMatchObject({ payment_fail: 1, role: ROLE.freeTrial });
    await t.app.queue.drain();
    const mail = t.mailbox.list({ to: 'store11@tenpo.example' })[0];
    expect(mail?.subject).toBe('【Tenpo】お支払いを完了できませんでした');
    expect(mail?.text).toContain('http://tenpo.test/register-payment');
    const back = await t.app.inject({
      method: 'POST',
      url: `/api/payment/sbps/return/error?user_id=${id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: sjisForm(ng),
    });
    expect(back.headers.location).toBe('http://tenpo.test/register-payment?stt_id=18999');
    // The state change is in the store's history with its reason.
    const log = await t.database.db
      .selectFrom('audit_log')
      .select(['summary', 'after'])
      .where('store_id', '=', id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(log.summary).toContain('お支払いの失敗');
    expect(log.summary).toContain('10122000');
  });
});

const runBilling = async () => {
  await t.app.payments.service.enqueueDue();
  await t.app.queue.drain();
};
const shopDue = async () => {
  const a = await account(ids.shop as number);
  return a?.next_billing_on as string;
};
/** Moves the test clock to 10:00 Tokyo on `day`. */
const moveTo = (day: string) => {
  const target = Date.parse(`${day}T01:00:00Z`);
  t.clock.advance(Math.max(0, target - t.clock.now().getTime()));
};
const declineShop = (decline: boolean) => {
  const c = sbps.customers.get('tenpo-demo-shop');
  if (c) c.decline = decline;
};
/** Each billing test starts with SBPS answering at once. */
const sbpsAnswersAtOnce = () => {
  sbps.latencyMs = 0;
};

describe('monthly billing: a plan change, and charging once', () => {
  beforeEach(sbpsAnswersAtOnce);

  it('a plan change during a paid period waits for the next charge', async () => {
    const res = await post('shop', '/api/payment-plans', { payment_plan: 2, user_id: ids.shop });
    expect(json(res).data).toMatchObject({ key: 1, next_plan: { key: 2, amount: 20000 } });
    expect(
      json(await get('shop', `/api/payment/selected-payment-plan?user_id=${ids.shop}`)).data,
    ).toMatchObject({
      key: 1,
      next_plan: { key: 2 },
      next_billing_on: await shopDue(),
    });
  });

  it('charges a due store once however often the run repeats, on the next plan', async () => {
    const due = await shopDue();
    await runBilling();
    expect(sbps.sold().filter((x) => x.custCode === 'tenpo-demo-shop')).toHaveLength(0);
    moveTo(due);
    await runBilling();
    await runBilling();
    const sold = sbps.sold().filter((x) => x.custCode === 'tenpo-demo-shop');
    expect(sold).toHaveLength(1);
    expect(sold[0]?.amount).toBe(20000);
    const a = await account(ids.shop as number);
    expect(a).toMatchObject({ plan: 2, next_plan: null });
    expect((a?.next_billing_on ?? '') > due).toBe(true);
    const rows = (await charges(ids.shop as number)).filter((c) => c.period === due);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'paid', attempt: 1, kind: 'billing' });
    expect(rows[0]?.order_id).toMatch(/^[A-Za-z0-9]{32}$/);
    // Running the same attempt's job again (a retried job) charges nothing either.
    await t.app.payments.service.charge({ userId: ids.shop as number, period: due, attempt: 1 });
    expect(sbps.sold().filter((x) => x.custCode === 'tenpo-demo-shop')).toHaveLength(1);
  });

  it('two workers at once charge once: one claims the row, the other is told it is busy', async () => {
    const due = await shopDue();
    moveTo(due);
    sbps.latencyMs = 30;
    const job = { userId: ids.shop as number, period: due, attempt: 1 };
    const calls = sbps.calls.length;
    const [a, b] = await Promise.all([
      t.app.payments.service.charge(job),
      t.app.payments.service.charge(job),
    ]);
    // The loser finds the row held (busy) or, if the winner was quick, already paid.
    expect([a.outcome, b.outcome]).toContain('paid');
    for (const o of [a.outcome, b.outcome]) expect(['busy', 'paid']).toContain(o);
    // One authorisation went to SBPS: the other worker never got as far as calling it.
    expect(sbps.calls.slice(calls).filter((c) => c === 'ST01-00131')).toHaveLength(1);
    const sold = sbps.sold().filter((x) => x.custCode === 'tenpo-demo-shop');
    expect(sold).toHaveLength(2); // last month's and this one
    expect(sbps.transactions.filter((x) => x.orderId === sold[1]?.orderId)).toHaveLength(1);
  });

  it('SBPS down: the claim is given back and the job retries later, charging once', async () => {
    const due = await shopDue();
    moveTo(due);
    sbps.down = true;
    await runBilling();
    const row = (await charges(ids.shop as number)).find((c) => c.period === due);
    expect(row).toMatchObject({ state: 'pending', lease_owner: null, lease_until: null });
    const job = await t.database.db
      .selectFrom('jobs')
      .selectAll()
      .where(
        'idempotency_key',
        '=',
        chargeKeyOf({ userId: ids.shop as number, period: due, attempt: 1 }),
      )
      .executeTakeFirstOrThrow();
    expect(job.queue).toBe(CHARGE_QUEUE);
    expect(job.attempts).toBe(1);
    expect(job.status).toBe('queued');
    sbps.down = false;
    t.clock.advance(HOUR);
    await t.app.queue.drain();
    const sold = sbps.sold().filter((x) => x.orderId === row?.order_id);
    expect(sold).toHaveLength(1);
    expect((await charges(ids.shop as number)).find((c) => c.period === due)?.state).toBe('paid');
  });
});

describe('monthly billing: answers lost, and retried errors', () => {
  beforeEach(sbpsAnswersAtOnce);

  it('an answer lost after SBPS authorised: the rerun is refused as a duplicate, inquires and finishes', async () => {
    const due = await shopDue();
    moveTo(due);
    sbps.loseNextAuthorisation = true;
    await runBilling();
    const row = (await charges(ids.shop as number)).find((c) => c.period === due);
    expect(row?.state).toBe('pending');
    t.clock.advance(HOUR);
    await t.app.queue.drain();
    const mine = sbps.transactions.filter((x) => x.orderId === row?.order_id);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.status).toBe('sold');
    expect(sbps.calls.slice(-4)).toEqual(['ST01-00131', 'MG01-00101', 'ST02-00101', 'ST02-00201']);
    expect((await charges(ids.shop as number)).find((c) => c.period === due)?.state).toBe('paid');
  });

  it('a sale whose answer was lost: the rerun inquires, reads payment_status 2 as sold and settles it paid', async () => {
    const due = await shopDue();
    moveTo(due);
    sbps.loseNextSales = true;
    await runBilling();
    const row = (await charges(ids.shop as number)).find((c) => c.period === due);
    expect(row?.state).toBe('pending');
    t.clock.advance(HOUR);
    await t.app.queue.drain();
    // Sold at SBPS (payment_status 2): paid, never "refunded"/failed; nothing sent again.
    expect(sbps.calls.slice(-1)).toEqual(['MG01-00101']);
    expect((await charges(ids.shop as number)).find((c) => c.period === due)).toMatchObject({
      state: 'paid',
      error_code: null,
    });
    expect((await user(ids.shop as number)).payment_fail).toBe(0);
  });

  it('a commit whose answer was lost: the rerun inquires (committed) and sells without a second commit', async () => {
    const due = await shopDue();
    moveTo(due);
    sbps.loseNextCommit = true;
    await runBilling();
    expect((await charges(ids.shop as number)).find((c) => c.period === due)?.state).toBe(
      'pending',
    );
    t.clock.advance(HOUR);
    await t.app.queue.drain();
    expect(sbps.calls.slice(-2)).toEqual(['MG01-00101', 'ST02-00201']);
    const row = (await charges(ids.shop as number)).find((c) => c.period === due);
    expect(row?.state).toBe('paid');
    expect(sbps.sold().filter((x) => x.orderId === row?.order_id)).toHaveLength(1);
  });

  it("a crash between commit and sales: the resumed sale names the commit's process date", async () => {
    const due = await shopDue();
    moveTo(due);
    sbps.dropNextSales = true;
    await runBilling();
    const pending = (await charges(ids.shop as number)).find((c) => c.period === due);
    expect(pending?.state).toBe('pending');
    expect(pending?.commit_process_date).toBe('20261126141500');
    // The rerun inquires (committed) and sells, naming the commit's date, not none (or today).
    t.clock.advance(HOUR);
    await t.app.queue.drain();
    expect(sbps.calls.slice(-2)).toEqual(['MG01-00101', 'ST02-00201']);
    expect(sbps.salesDates.at(-1)).toBe('20261126141500');
    const row = (await charges(ids.shop as number)).find((c) => c.period === due);
    expect(row?.state).toBe('paid');
    expect(sbps.sold().filter((x) => x.orderId === row?.order_id)).toHaveLength(1);
  });

  it('a duplicate order id refused without a tracking id: that attempt closes quietly, a new order id pays', async () => {
    const id = ids.shop as number;
    const due = await shopDue();
    moveTo(due);
    sbps.loseNextAuthorisation = true;
    sbps.duplicateWithoutTracking = true;
    try {
      await runBilling();
      t.clock.advance(HOUR);
      await t.app.queue.drain();
    } finally {
      sbps.duplicateWithoutTracking = false;
    }
    const rows = (await charges(id)).filter((c) => c.period === due);
    expect(rows.map((r) => [r.attempt, r.state, r.error_code])).toEqual([
      [1, 'failed', '99996000'],
      [2, 'paid', null],
    ]);
    // The lost authorisation is never committed or sold; the store is not told its card failed.
    expect(sbps.transactions.find((x) => x.orderId === rows[0]?.order_id)?.status).toBe(
      'authorised',
    );
    expect(sbps.sold().filter((x) => x.orderId === rows[1]?.order_id)).toHaveLength(1);
    expect((await user(id)).payment_fail).toBe(0);
  });

  it('a credit-centre error (type 21) is retried later, not a decline', async () => {
    const id = ids.shop as number;
    const due = await shopDue();
    moveTo(due);
    sbps.nextAuthorisationNg = '10121000';
    await runBilling();
    const row = (await charges(id)).find((c) => c.period === due);
    expect(row).toMatchObject({ state: 'pending', error_code: null });
    expect((await user(id)).payment_fail).toBe(0);
    t.clock.advance(HOUR);
    await t.app.queue.drain();
    expect((await charges(id)).find((c) => c.period === due)?.state).toBe('paid');
  });
});

describe('monthly billing: declines, a new card, and the schedule', () => {
  beforeEach(sbpsAnswersAtOnce);

  it('a declined charge is final: payment_fail, the mail; a new card clears it and a new attempt pays', async () => {
    const id = ids.shop as number;
    sbps.customers.set('tenpo-demo-shop', {
      masked: '************0002',
      expiration: '203012',
      brand: 'V',
      decline: true,
    });
    const due = await shopDue();
    moveTo(due);
    await runBilling();
    const failed = (await charges(id)).find((c) => c.period === due);
    expect(failed).toMatchObject({ state: 'failed', error_code: '10122000', attempt: 1 });
    expect((await user(id)).payment_fail).toBe(1);
    // No retry storm: the job finished on its first run, one authorisation, no commit or sale.
    const job = await t.database.db
      .selectFrom('jobs')
      .selectAll()
      .where('idempotency_key', '=', chargeKeyOf({ userId: id, period: due, attempt: 1 }))
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ attempts: 1 });
    expect(job.status).not.toBe('queued');
    t.clock.advance(HOUR);
    await t.app.queue.drain();
    expect(sbps.transactions.filter((x) => x.orderId === failed?.order_id)).toHaveLength(1);
    await t.app.queue.drain();
    const mails = t.mailbox.list({ to: 'shop@tenpo.example' });
    expect(mails.some((m) => m.subject === '【Tenpo】お支払いを完了できませんでした')).toBe(true);
    // A failed period waits for a new card: the daily run leaves it.
    await runBilling();
    expect((await charges(id)).filter((c) => c.period === due)).toHaveLength(1);

    // The clock has moved months on: a new session.
    tokens.shop = await login(t.app, 'shop@tenpo.example');
    const res = await post('shop', '/api/payment/credit-card/register', {
      token: 'tok-J-0000',
      tokenKey: 'key',
      user_id: id,
    });
    expect(res.statusCode).toBe(200);
    expect((await user(id)).payment_fail).toBe(0);
    await t.app.queue.drain();
    const rows = (await charges(id)).filter((c) => c.period === due);
    expect(rows.map((r) => [r.attempt, r.state])).toEqual([
      [1, 'failed'],
      [2, 'paid'],
    ]);
    expect(rows[1]?.order_id).not.toBe(rows[0]?.order_id);
    expect(sbps.sold().filter((x) => x.orderId === rows[1]?.order_id)).toHaveLength(1);
    expect((await account(id))?.card_masked).toBe('************0000');
  });

  it('a new card whose retry was lost: the daily run queues the next attempt', async () => {
    const id = ids.shop as number;
    declineShop(true);
    const due = await shopDue();
    moveTo(due);
    await runBilling();
    expect((await user(id)).payment_fail).toBe(1);
    declineShop(false);
    // The card was replaced and payment_fail cleared, but the retry's enqueue never happened.
    await t.database.db
      .updateTable('users')
      .set({ payment_fail: 0 })
      .where('id', '=', id)
      .execute();
    await runBilling();
    const rows = (await charges(id)).filter((c) => c.period === due);
    expect(rows.map((r) => [r.attempt, r.state])).toEqual([
      [1, 'failed'],
      [2, 'paid'],
    ]);
  });

  it('the hosted page settles a declined period: the form is for that period, a new attempt', async () => {
    const id = ids.shop as number;
    declineShop(true);
    const due = await shopDue();
    moveTo(due);
    await runBilling();
    declineShop(false);
    tokens.shop = await login(t.app, 'shop@tenpo.example');
    const res = await post('shop', '/api/payment/purchase', { user_id: id });
    expect(res.statusCode).toBe(200);
    const form = json<{ data: { order_id: string; fields: { name: string; value: string }[] } }>(
      res,
    ).data;
    const row = (await charges(id)).find((c) => c.order_id === form.order_id);
    expect(row).toMatchObject({ period: due, attempt: 2, kind: 'purchase', state: 'pending' });
    // The daily run leaves it to the page (payment_fail is still set until it pays).
    await runBilling();
    // Nor does a retry job of that attempt number (a card registered meanwhile) charge it.
    const retry = await t.app.payments.service.charge({ userId: id, period: due, attempt: 2 });
    expect(retry.outcome).toBe('skipped');
    expect(sbps.transactions.filter((x) => x.orderId === form.order_id)).toHaveLength(0);
    expect((await notify(a02(form, { ok: true }))).body).toBe('OK,');
    expect((await user(id)).payment_fail).toBe(0);
    const a = await account(id);
    expect(a?.next_billing_on).toBe(nextBillingDay(due, a?.billing_day ?? 0));
  });

  it('payfail@ (seeded) pays its failed period with a new card', async () => {
    const id = ids.payfail as number;
    expect((await user(id)).payment_fail).toBe(1);
    // The clock has moved months on: a new session.
    tokens.payfail = await login(t.app, 'payfail@tenpo.example');
    const a = await account(id);
    const res = await post('payfail', '/api/payment/credit-card/register', {
      token: 'tok-V-4242',
      tokenKey: 'key',
      user_id: id,
    });
    expect(res.statusCode).toBe(200);
    await t.app.queue.drain();
    expect((await user(id)).payment_fail).toBe(0);
    const rows = (await charges(id)).filter((c) => c.period === a?.next_billing_on);
    expect(rows.map((r) => r.state)).toEqual(['failed', 'paid']);
  });

  it('the daily schedule runs at BILLING_HOUR, Tokyo', async () => {
    await t.app.payments.jobs.start();
    const s = await t.database.db
      .selectFrom('job_schedules')
      .selectAll()
      .where('name', '=', 'payments.billing')
      .executeTakeFirstOrThrow();
    expect(s.cron).toBe('0 10 * * *');
    void DAY;
  });
});

describe('OpenAPI and CSP', () => {
  it('documents every payment route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    for (const p of [
      '/api/payment/provider',
      '/api/payment-methods',
      '/api/payment-plans',
      '/api/payment/selected-payment-method',
      '/api/payment/selected-payment-plan',
      '/api/payment/credit-card/register',
      '/api/payment/credit-card/reference',
      '/api/payment/credit-card/remove',
      '/api/payment/purchase',
      '/api/payment/sbps/notification',
      '/api/payment/sbps/return/{outcome}',
    ])
      expect(paths).toContain(p);
  });

  it('allows SBPS’s token and purchase origins when they are not ours', async () => {
    const other = await buildTestApp({
      SBPS_TOKEN_SCRIPT_URL: 'https://token.sps.example/sbpstoken/com_sbps_system_token.js',
      SBPS_PURCHASE_URL: 'https://fep.sps.example/f01/FepBuyInfoReceive.do',
    });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/api/health' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self' https://token.sps.example;");
      expect(csp).toContain("connect-src 'self' https://token.sps.example;");
      expect(csp).toContain("form-action 'self' https://fep.sps.example;");
    } finally {
      await other.close();
    }
    const own = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(String(own.headers['content-security-policy'])).toContain("form-action 'self';");
  });
});
