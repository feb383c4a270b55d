import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../src/lib/clock';
import { createSbpsClient, SBPS_ERR } from '../src/modules/payments/sbps.client';
import { chargeKeyOf } from '../src/modules/payments/payments.service';
import { buildTestApp, type TestApp } from './helpers';
import { freePort, startSandbox, type RunningSandbox } from './sandbox';

/**
 * Issue 21 item 1 (ADR 0058): a store whose customer SBPS no longer knows (99995000, e.g. the
 * card was deleted at SBPS's side) is charged at billing: the NG ends as payment_fail after one
 * authorisation, and nothing is sent again. Counted at the sandbox's own control API.
 */
let sb: RunningSandbox;
let t: TestApp;
let shop = 0;

const sandboxGet = async <T>(p: string): Promise<T> =>
  ((await (await fetch(`${sb.url}${p}`)).json()) as { data: T }).data;
/** Calls of SBPS's XML API (every API id posts to the one path). */
const xmlApiCalls = async () =>
  (await sandboxGet<Record<string, number>>('/control/calls'))['POST /sbps/api/xmlapi.do'] ?? 0;

const advance = async (ms: number) => {
  t.clock.advance(ms);
  await sb.control('POST', '/control/clock', { advance_seconds: Math.round(ms / 1000) });
};

beforeAll(async () => {
  sb = await startSandbox();
  const port = await freePort();
  t = await buildTestApp({ SANDBOX_URL: sb.url, PUBLIC_URL: `http://127.0.0.1:${port}` });
  await t.app.listen({ port, host: '127.0.0.1' });
  shop = (
    await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'shop@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});

describe('SBPS 99995000 (unknown customer) at billing', () => {
  it('ends as payment_fail after one authorisation at SBPS, and is not retried', async () => {
    // SBPS's side loses the customer (deleted there); Tenpo still holds its card summary.
    const client = createSbpsClient(t.config.payments.sbps, t.clock);
    expect((await client.removeCard('tenpo-demo-shop')).result).toBe('OK');
    expect(
      (await sandboxGet<{ cust_code: string }[]>('/sbps/control/customers')).map(
        (c) => c.cust_code,
      ),
    ).not.toContain('tenpo-demo-shop');
    const due = (
      await t.database.db
        .selectFrom('payment_accounts')
        .select('next_billing_on')
        .where('user_id', '=', shop)
        .executeTakeFirstOrThrow()
    ).next_billing_on as string;
    await advance(Math.max(0, Date.parse(`${due}T01:00:00Z`) - t.clock.now().getTime()));
    await sb.control('DELETE', '/control/calls');

    await t.app.payments.service.enqueueDue();
    await t.app.queue.drain();

    const row = await t.database.db
      .selectFrom('payment_charges')
      .select(['state', 'order_id', 'error_code', 'attempt', 'tracking_id'])
      .where('user_id', '=', shop)
      .where('period', '=', due)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      state: 'failed',
      error_code: SBPS_ERR.customer,
      attempt: 1,
      tracking_id: null,
    });
    const u = await t.database.db
      .selectFrom('users')
      .select('payment_fail')
      .where('id', '=', shop)
      .executeTakeFirstOrThrow();
    expect(u.payment_fail).toBe(1);
    const job = await t.database.db
      .selectFrom('jobs')
      .selectAll()
      .where('idempotency_key', '=', chargeKeyOf({ userId: shop, period: due, attempt: 1 }))
      .executeTakeFirstOrThrow();
    expect(job.attempts).toBe(1);
    expect(job.status).not.toBe('queued');
    // One call reached SBPS: the authorisation (ST01), answered 99995000; no commit, no sale.
    expect(await xmlApiCalls()).toBe(1);
    expect(
      (await sandboxGet<{ order_id: string }[]>('/sbps/control/payments')).filter(
        (p) => p.order_id === row.order_id,
      ),
    ).toEqual([]);

    // Hours later, and the daily run again: still that one call.
    await advance(DAY / 4);
    await t.app.payments.service.enqueueDue();
    await t.app.queue.drain();
    expect(await xmlApiCalls()).toBe(1);
  });
});
