import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@tenpo/domain';
import { DAY } from '../src/lib/clock';
import { createSbpsClient } from '../src/modules/payments/sbps.client';
import { chargeKeyOf } from '../src/modules/payments/payments.service';
import { buildTestApp, call, json, login, type TestApp } from './helpers';
import { freePort, startSandbox, type RunningSandbox } from './sandbox';

/**
 * The far end: Tenpo's real SBPS client against the sandbox's SBPS (apps/sandbox/src/sbps) on a
 * port of this machine, with the API listening too so that the hosted page's notification
 * (pagecon_url) reaches it. Charges are counted on the sandbox's own control API.
 */
let sb: RunningSandbox;
let t: TestApp;
const ids: Record<string, number> = {};

type SbpsPayment = { order_id: string; cust_code: string; amount: number; status: string };
type Form = { action: string; fields: { name: string; value: string }[]; order_id: string };

const sandboxGet = async <T>(p: string): Promise<T> =>
  ((await (await fetch(`${sb.url}${p}`)).json()) as { data: T }).data;
const payments = () => sandboxGet<SbpsPayment[]>('/sbps/control/payments');
const soldFor = async (custCode: string) =>
  (await payments()).filter((p) => p.cust_code === custCode && p.status === 'sold');

/** What the token script does in the browser: the card goes to SBPS, a token pair comes back. */
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
  const body = (await res.json()) as {
    result: string;
    tokenResponse: { token: string; tokenKey: string };
  };
  expect(body.result).toBe('OK');
  return body.tokenResponse;
};

const session = (email: string) => login(t.app, email);

/** Moves both clocks (Tenpo's and the sandbox's) on, so SBPS's request_date checks agree. */
const advance = async (ms: number) => {
  t.clock.advance(ms);
  await sb.control('POST', '/control/clock', { advance_seconds: Math.round(ms / 1000) });
};
const moveTo = async (day: string) => {
  const target = Date.parse(`${day}T01:00:00Z`);
  await advance(Math.max(0, target - t.clock.now().getTime()));
};

/** Moves both clocks to the seeded shop's next monthly charge, and names its Tokyo day. */
const toShopsNextCharge = async (): Promise<string> => {
  const due = (
    await t.database.db
      .selectFrom('payment_accounts')
      .select('next_billing_on')
      .where('user_id', '=', ids.shop as number)
      .executeTakeFirstOrThrow()
  ).next_billing_on as string;
  await moveTo(due);
  return due;
};

/** SBPS's XML API answers every call with a 5xx until the faults are cleared. */
const sbpsApiDown = () =>
  sb.control('POST', '/faults', {
    provider: 'sbps',
    kind: 'server_error',
    path: '/sbps/api',
    count: 'until_cleared',
  });

const hidden = (html: string): Record<string, string> => {
  const out: Record<string, string> = {};
  const unesc = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    out[unesc(m[1] as string)] = unesc(m[2] as string);
  return out;
};

/**
 * The browser's way through SBPS's hosted page: Tenpo signs the purchase form, the browser posts
 * it to SBPS (the card page), then pays there with `card` (the registered one, or a new one).
 */
const throughHostedPage = async (token: string, userId: number, card: Record<string, string>) => {
  const form = json<{ data: Form }>(
    await call(t.app, {
      method: 'POST',
      url: '/api/payment/purchase',
      token,
      payload: { user_id: userId },
    }),
  ).data;
  const page = await fetch(form.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form.fields.map((f): [string, string] => [f.name, f.value])),
  });
  const html = await page.text();
  const purchaseId = /name="purchase_id" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const result = await (
    await fetch(`${sb.url}/sbps/f01/FepPayment.do`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ purchase_id: purchaseId, action: 'pay', ...card }),
    })
  ).text();
  // Where the page's auto-submitting form sends the browser back.
  const action = /action="([^"]+)"/.exec(result)?.[1]?.replace(/&amp;/g, '&') ?? '';
  return { form, status: page.status, html, result, action };
};

beforeAll(async () => {
  sb = await startSandbox();
  const port = await freePort();
  t = await buildTestApp({ SANDBOX_URL: sb.url, PUBLIC_URL: `http://127.0.0.1:${port}` });
  await t.app.listen({ port, host: '127.0.0.1' });
  for (const e of ['shop', 'expired', 'payfail'])
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

describe('payments against the SBPS sandbox: a card, and paying on the hosted page', () => {
  it('registers a card with a token pair and reads it back masked', async () => {
    const token = await session('expired@tenpo.example');
    const pair = await tokenFor('5555555555554444');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/payment/credit-card/register',
      token,
      payload: { token: pair.token, tokenKey: pair.tokenKey, user_id: ids.expired },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).data).toEqual({
      cc_number: '************4444',
      cc_expiration: '203012',
      cardbrand_code: 'M',
    });
    // The token pair is single-use at SBPS: sent again, it is refused with the spec's text.
    const again = await call(t.app, {
      method: 'POST',
      url: '/api/payment/credit-card/register',
      token,
      payload: { token: pair.token, tokenKey: pair.tokenKey, user_id: ids.expired },
    });
    expect(again.statusCode).toBe(422);
    expect(Object.keys(json(again).errors as object)).toEqual(['token']);
  });

  it('pays on the hosted page: the notification settles it, the browser returns with 12999', async () => {
    const token = await session('expired@tenpo.example');
    await call(t.app, {
      method: 'POST',
      url: '/api/payment-plans',
      token,
      payload: { payment_plan: 1, user_id: ids.expired },
    });
    // The browser posts the signed form to SBPS: the card page, with the registered card.
    const { form, status, html, result, action } = await throughHostedPage(
      token,
      ids.expired as number,
      {
        card_choice: 'registered',
      },
    );
    expect(status, html).toBe(200);
    expect(html).toContain('************4444');
    expect(action).toBe(
      `${t.config.publicUrl}/api/payment/sbps/return/success?user_id=${ids.expired}`,
    );
    // SBPS's notification reached Tenpo and was taken.
    const sent = (
      await sandboxGet<{ order_id: string; accepted: boolean; reply: { body: string } }[]>(
        '/sbps/control/notifications',
      )
    ).find((n) => n.order_id === form.order_id);
    expect(sent).toMatchObject({ accepted: true, reply: { body: 'OK,' } });
    const back = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(hidden(result)),
      redirect: 'manual',
    });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(
      `${t.config.publicUrl}/register-payment?stt_id=12999`,
    );
    const u = await t.database.db
      .selectFrom('users')
      .select(['role', 'payment_fail'])
      .where('id', '=', ids.expired as number)
      .executeTakeFirstOrThrow();
    expect(u).toEqual({ role: ROLE.shop, payment_fail: 0 });
    expect((await payments()).filter((p) => p.order_id === form.order_id)).toMatchObject([
      { status: 'sold', amount: 6980 },
    ]);
  });

  it('a card declined on the hosted page: payment_fail, the mail in the mailbox, 18999', async () => {
    const token = await session('trial@tenpo.example');
    const id = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'trial@tenpo.example')
        .executeTakeFirstOrThrow()
    ).id;
    await call(t.app, {
      method: 'POST',
      url: '/api/payment-plans',
      token,
      payload: { payment_plan: 2, user_id: id },
    });
    const { form, result, action } = await throughHostedPage(token, id, {
      card_choice: 'new',
      cc_number: '4000000000000002',
      cc_exp_month: '12',
      cc_exp_year: '2030',
      security_code: '123',
    });
    expect(action).toBe(`${t.config.publicUrl}/api/payment/sbps/return/error?user_id=${id}`);
    const back = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(hidden(result)),
      redirect: 'manual',
    });
    expect(back.headers.get('location')).toBe(
      `${t.config.publicUrl}/register-payment?stt_id=18999`,
    );
    const u = await t.database.db
      .selectFrom('users')
      .select(['role', 'payment_fail'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(u).toEqual({ role: ROLE.freeTrial, payment_fail: 1 });
    await t.app.queue.drain();
    expect(t.mailbox.list({ to: 'trial@tenpo.example' }).map((m) => m.subject)).toContain(
      '【Tenpo】お支払いを完了できませんでした',
    );
    // Nothing sold at SBPS for that order.
    expect(
      (await payments()).filter((p) => p.order_id === form.order_id && p.status === 'sold'),
    ).toEqual([]);
  });
});

describe('payments against the SBPS sandbox: the card kept, and notifications', () => {
  it('a card entered and kept on the hosted page is the card the settings show', async () => {
    const token = await session('trial@tenpo.example');
    const id = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'trial@tenpo.example')
        .executeTakeFirstOrThrow()
    ).id;
    const reference = async () =>
      json<{ data: unknown }>(
        await call(t.app, {
          method: 'GET',
          url: `/api/payment/credit-card/reference?user_id=${id}`,
          token,
        }),
      ).data;
    // The declined card of the test before was not kept (its box was not ticked).
    expect(await reference()).toBeNull();
    const { action } = await throughHostedPage(token, id, {
      card_choice: 'new',
      cc_number: '3530111333300000',
      cc_exp_month: '06',
      cc_exp_year: '2031',
      security_code: '123',
      save_card: '1',
    });
    expect(action).toContain('/api/payment/sbps/return/success');
    // SBPS keeps it under the store's cust_code; Tenpo shows it and keeps its copy.
    expect(await reference()).toEqual({
      cc_number: '************0000',
      cc_expiration: '203106',
      cardbrand_code: 'J',
    });
    const copy = await t.database.db
      .selectFrom('payment_accounts')
      .select(['card_masked', 'card_brand'])
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(copy).toEqual({ card_masked: '************0000', card_brand: 'J' });
  });

  it("reads the seeded shop's card from SBPS", async () => {
    const token = await session('shop@tenpo.example');
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/payment/credit-card/reference?user_id=${ids.shop}`,
      token,
    });
    expect(json(res).data).toEqual({
      cc_number: '************1111',
      cc_expiration: '203012',
      cardbrand_code: 'V',
    });
  });

  it('a notification SBPS sends again is refused as a replay (NG) and changes nothing', async () => {
    const list = await sandboxGet<{ id: string; accepted: boolean }[]>(
      '/sbps/control/notifications',
    );
    const first = list.find((n) => n.accepted);
    expect(first).toBeDefined();
    const res = (await sb.control('POST', `/sbps/control/notifications/${first?.id}/resend`)) as {
      data: { reply: { body: string }; accepted: boolean };
    };
    expect(res.data.reply.body).toBe('NG,replay');
    expect(res.data.accepted).toBe(false);
    const rows = await t.database.db
      .selectFrom('payment_notifications')
      .select('verdict')
      .orderBy('id')
      .execute();
    // Three taken before (paid, declined, paid with a kept card), then the replay refused.
    expect(rows.map((r) => r.verdict)).toEqual(['accepted', 'accepted', 'accepted', 'replay']);
  });
});

describe('payments against the SBPS sandbox: the billing run', () => {
  it('the billing run twice, and two workers at once, make one sold transaction per order', async () => {
    const due = await toShopsNextCharge();
    const service = t.app.payments.service;
    const job = { userId: ids.shop as number, period: due, attempt: 1 };
    const [a, b] = await Promise.all([service.charge(job), service.charge(job)]);
    // The loser finds the row held (busy) or, if the winner was quick, already paid.
    expect([a.outcome, b.outcome]).toContain('paid');
    for (const o of [a.outcome, b.outcome]) expect(['busy', 'paid']).toContain(o);
    // A run that starts after the winner finished (a redelivery) finds its own attempt paid.
    expect((await service.charge(job)).outcome).toBe('paid');
    await service.enqueueDue();
    await t.app.queue.drain();
    await service.enqueueDue();
    await t.app.queue.drain();
    const sold = await soldFor('tenpo-demo-shop');
    expect(sold).toHaveLength(1);
    expect(sold[0]?.amount).toBe(6980);
    const all = (await payments()).filter((p) => p.order_id === sold[0]?.order_id);
    expect(all).toHaveLength(1);
  });

  it('SBPS down during the run: retried later, charged once', async () => {
    const due = await toShopsNextCharge();
    await sbpsApiDown();
    await t.app.payments.service.enqueueDue();
    await t.app.queue.drain();
    expect(await soldFor('tenpo-demo-shop')).toHaveLength(1);
    const row = await t.database.db
      .selectFrom('payment_charges')
      .select(['state', 'order_id'])
      .where('user_id', '=', ids.shop as number)
      .where('period', '=', due)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('pending');
    await sb.control('DELETE', '/faults');
    await advance(DAY / 24);
    await t.app.queue.drain();
    const sold = await soldFor('tenpo-demo-shop');
    expect(sold).toHaveLength(2);
    expect(sold.filter((p) => p.order_id === row.order_id)).toHaveLength(1);
  });

  it('an authorisation whose answer was lost: the rerun is refused as a duplicate and finishes it', async () => {
    const due = await toShopsNextCharge();
    // A first run whose calls SBPS answers with a 5xx leaves the attempt's row (and order id).
    await sbpsApiDown();
    await t.app.payments.service.enqueueDue();
    await t.app.queue.drain();
    await sb.control('DELETE', '/faults');
    const row = await t.database.db
      .selectFrom('payment_charges')
      .select(['state', 'order_id', 'amount', 'tracking_id'])
      .where('user_id', '=', ids.shop as number)
      .where('period', '=', due)
      .executeTakeFirstOrThrow();
    // A run whose ST01 reached SBPS but whose answer never came back. (The sandbox's 5xx fault
    // on the XML API already answers after doing the work; if it did not, this does it.)
    if ((await payments()).every((p) => p.order_id !== row.order_id)) {
      const client = createSbpsClient(t.config.payments.sbps, t.clock);
      const lost = await client.authorize({
        custCode: 'tenpo-demo-shop',
        orderId: row.order_id,
        itemId: 'tenpo-plan-1',
        itemName: 'スタンダード',
        amount: row.amount,
      });
      expect(lost.result).toBe('OK');
    }
    expect(
      (await payments()).filter((p) => p.order_id === row.order_id).map((p) => p.status),
    ).toEqual(['authorised']);
    expect(row.tracking_id).toBeNull();
    await advance(DAY / 24);
    await t.app.queue.drain();
    const mine = (await payments()).filter((p) => p.order_id === row.order_id);
    expect(mine.map((p) => p.status)).toEqual(['sold']);
    const settled = await t.database.db
      .selectFrom('payment_charges')
      .select(['state', 'tracking_id', 'sps_transaction_id'])
      .where('order_id', '=', row.order_id)
      .executeTakeFirstOrThrow();
    expect(settled.state).toBe('paid');
    expect(settled.tracking_id).toMatch(/^\d{14}$/);
  });

  it('a card declined at billing: the real-shaped NG ends as payment_fail, one attempt at SBPS, no retries', async () => {
    const token = await session('shop@tenpo.example');
    const pair = await tokenFor('4000000000000002');
    const reg = await call(t.app, {
      method: 'POST',
      url: '/api/payment/credit-card/register',
      token,
      payload: { token: pair.token, tokenKey: pair.tokenKey, user_id: ids.shop },
    });
    expect(reg.statusCode, reg.body).toBe(200);
    const due = await toShopsNextCharge();
    await t.app.payments.service.enqueueDue();
    await t.app.queue.drain();
    const row = await t.database.db
      .selectFrom('payment_charges')
      .select(['state', 'order_id', 'error_code', 'attempt'])
      .where('user_id', '=', ids.shop as number)
      .where('period', '=', due)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'failed', error_code: '10122000', attempt: 1 });
    const u = await t.database.db
      .selectFrom('users')
      .select('payment_fail')
      .where('id', '=', ids.shop as number)
      .executeTakeFirstOrThrow();
    expect(u.payment_fail).toBe(1);
    const job = await t.database.db
      .selectFrom('jobs')
      .selectAll()
      .where(
        'idempotency_key',
        '=',
        chargeKeyOf({ userId: ids.shop as number, period: due, attempt: 1 }),
      )
      .executeTakeFirstOrThrow();
    expect(job.attempts).toBe(1);
    expect(job.status).not.toBe('queued');
    // Hours later, and the daily run again: still one attempt at SBPS for that order id.
    await advance(DAY / 4);
    await t.app.payments.service.enqueueDue();
    await t.app.queue.drain();
    expect(
      (await payments()).filter((p) => p.order_id === row.order_id).map((p) => p.status),
    ).toEqual(['declined']);
  });

  it('payfail@’s declining card, then a new card: the failed period is charged once', async () => {
    const token = await session('payfail@tenpo.example');
    const pair = await tokenFor('4111111111111111');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/payment/credit-card/register',
      token,
      payload: { token: pair.token, tokenKey: pair.tokenKey, user_id: ids.payfail },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.queue.drain();
    const sold = await soldFor('tenpo-demo-payfail');
    expect(sold).toHaveLength(1);
    const u = await t.database.db
      .selectFrom('users')
      .select('payment_fail')
      .where('id', '=', ids.payfail as number)
      .executeTakeFirstOrThrow();
    expect(u.payment_fail).toBe(0);
  });
});
