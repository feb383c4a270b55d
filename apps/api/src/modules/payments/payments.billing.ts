import { randomBytes } from 'node:crypto';
import { paymentJa, type PaymentPlan, type PlanId } from '@tenpo/domain';
import type { PaymentChargeRow } from '../../db/types';
import { addMs, iso } from '../../lib/clock';
import type { PaymentsContext } from './payments.context';
import { createFinishAuthorised } from './payments.billing.finish';
import { newOrderId } from './payments.rules';
import type { Settlement } from './payments.settle';
import { isTransientError, SBPS_ERR, SbpsUnavailable } from './sbps.client';

export const CHARGE_QUEUE = 'payments.charge';
/** One charge attempt: `{ userId, period, attempt }`. */
export type ChargeJob = { userId: number; period: string; attempt: number };
export const chargeKeyOf = (j: ChargeJob) => `payments:charge:${j.userId}:${j.period}:${j.attempt}`;

/** How long a worker holds a charge it is sending to SBPS. */
export const CHARGE_LEASE_MS = 2 * 60_000;

export type ChargeOutcome = 'paid' | 'failed' | 'busy' | 'skipped';

/**
 * Monthly billing in advance on the stored card (ADR 0050, 0058): the daily run queues one
 * charge job per due store; each attempt is claimed by one worker, authorised, committed and
 * sold, and settled once.
 */
export function createBilling(ctx: PaymentsContext, { settlePaid, settleFailed }: Settlement) {
  const { repo, sbps, queue, clock, now, today, record, planOf } = ctx;

  /**
   * The charge job of a store's open period: its first attempt, or after a declined one (final
   * for that attempt) the next attempt, with a new order id.
   */
  const chargeJobOf = async (storeId: number, period: string): Promise<ChargeJob | null> => {
    const latest = (await repo.attempts(storeId, period))[0];
    if (latest?.state === 'paid') return null;
    const attempt = !latest ? 1 : latest.state === 'failed' ? latest.attempt + 1 : latest.attempt;
    return { userId: storeId, period, attempt };
  };

  /**
   * After a new card: the failed period of a billed store is tried again, as a new attempt. Should
   * this enqueue be lost, the daily run queues the same job (payment_fail is clear by then).
   */
  const retryFailedPeriod = async (storeId: number): Promise<void> => {
    const a = await repo.account(storeId);
    if (!a?.next_billing_on) return;
    const latest = (await repo.attempts(storeId, a.next_billing_on))[0];
    if (!latest || latest.state !== 'failed') return;
    const job = await chargeJobOf(storeId, a.next_billing_on);
    if (job) await queue.enqueue(CHARGE_QUEUE, job, { key: chargeKeyOf(job) });
  };

  const finishAuthorised = createFinishAuthorised(ctx, { settlePaid, settleFailed });

  /**
   * SBPS refused a known order id (99996000) without naming the earlier transaction: that
   * authorisation (from a run whose answer was lost) cannot be found, is never committed and
   * lapses. This attempt is closed without flagging the store, and the period is tried again as
   * a new attempt with a new order id.
   */
  const abandonDuplicate = async (charge: PaymentChargeRow, owner: string) => {
    const stamp = now();
    const won = await repo.transaction(async (q, trx) => {
      const ok = await q.settle(charge.id, 'failed', {
        error_code: SBPS_ERR.duplicateOrder,
        now: stamp,
        owner,
      });
      if (ok)
        await record(
          trx,
          null,
          charge.user_id,
          `注文番号の重複、新しい注文番号で再試行（注文番号 ${charge.order_id}）`,
          null,
          null,
        );
      return ok;
    });
    if (!won) return;
    const job: ChargeJob = {
      userId: charge.user_id,
      period: charge.period,
      attempt: charge.attempt + 1,
    };
    await queue.enqueue(CHARGE_QUEUE, job, { key: chargeKeyOf(job) });
  };

  return {
    retryFailedPeriod,

    /** The daily run: one charge job per store due today or earlier (Tokyo). */
    async enqueueDue(): Promise<number> {
      const due = await repo.due(today());
      for (const d of due) {
        const job = await chargeJobOf(d.user_id, d.next_billing_on);
        if (job) await queue.enqueue(CHARGE_QUEUE, job, { key: chargeKeyOf(job) });
      }
      return due.length;
    },

    /**
     * One attempt at a period's charge on the stored card. Safe to run twice or on two workers
     * at once: the row is made once, claimed by one, and SBPS refuses an order id twice.
     * Throws SbpsUnavailable (claim released) for the job engine to retry.
     */
    async charge(job: ChargeJob): Promise<{ outcome: ChargeOutcome; leaseUntil?: Date }> {
      const a = await repo.account(job.userId);
      if (!a?.cust_code || !a.plan) return { outcome: 'skipped' };
      const attempts = await repo.attempts(job.userId, job.period);
      const mine = attempts.find((c) => c.attempt === job.attempt);
      // This very attempt was settled by a run beside this one (two workers, a redelivery).
      if (mine?.state === 'paid') return { outcome: 'paid' };
      // Settled by another attempt (the hosted page, an earlier retry), or no longer due.
      if (attempts.some((c) => c.state === 'paid')) return { outcome: 'skipped' };
      if (!mine && a.next_billing_on !== job.period) return { outcome: 'skipped' };
      // That attempt is the hosted page's (the store is paying there): not for the stored card.
      if (mine && mine.kind !== 'billing') return { outcome: 'skipped' };
      const plan = planOf(a.next_plan ?? a.plan) as PaymentPlan;
      const stamp = now();
      const charge =
        mine ??
        (await repo.chargeFor({
          user_id: job.userId,
          period: job.period,
          attempt: job.attempt,
          order_id: newOrderId(),
          kind: 'billing',
          plan: plan.key,
          amount: plan.amount,
          state: 'pending',
          origin: null,
          created_at: stamp,
          updated_at: stamp,
        }));
      if (charge.state === 'paid') return { outcome: 'paid' };
      if (charge.state === 'failed') return { outcome: 'failed' };
      const owner = randomBytes(8).toString('hex');
      const until = addMs(clock.now(), CHARGE_LEASE_MS);
      if (!(await repo.claim(charge.id, owner, stamp, iso(until)))) {
        const held = await repo.charge(charge.id);
        return held?.state === 'processing' && held.lease_until
          ? { outcome: 'busy', leaseUntil: new Date(held.lease_until) }
          : { outcome: held?.state === 'paid' ? 'paid' : 'skipped' };
      }
      const claimed = (await repo.charge(charge.id)) as PaymentChargeRow;
      try {
        // An earlier run got as far as the authorisation: find out where it stands.
        if (claimed.tracking_id)
          return {
            outcome: await finishAuthorised(
              claimed,
              owner,
              {
                trackingId: claimed.tracking_id,
                spsTransactionId: claimed.sps_transaction_id ?? '',
              },
              true,
            ),
          };
        const r = await sbps.authorize({
          custCode: a.cust_code,
          orderId: claimed.order_id,
          itemId: `tenpo-plan-${claimed.plan}`,
          itemName: paymentJa.plans[claimed.plan as PlanId] ?? 'Tenpo',
          amount: claimed.amount,
        });
        if (r.result === 'NG' && r.errCode === SBPS_ERR.duplicateOrder && !r.trackingId) {
          await abandonDuplicate(claimed, owner);
          return { outcome: 'skipped' };
        }
        // "Not now" (the credit centre, SBPS's system): the claim goes back, the job retries.
        if (r.result === 'NG' && isTransientError(r.errCode))
          throw new SbpsUnavailable(`SBPS authorisation of ${claimed.order_id}: ${r.errCode}`);
        if (r.result === 'OK' || (r.errCode === SBPS_ERR.duplicateOrder && r.trackingId)) {
          const t = {
            trackingId: r.trackingId ?? '',
            spsTransactionId: r.result === 'OK' ? (r.spsTransactionId ?? '') : '',
          };
          await repo.noteAuthorisation(claimed.id, owner, {
            tracking_id: t.trackingId,
            sps_transaction_id: t.spsTransactionId || null,
            updated_at: now(),
          });
          // A refused duplicate: this order id was authorised by an earlier run.
          return { outcome: await finishAuthorised(claimed, owner, t, r.result !== 'OK') };
        }
        await settleFailed(claimed, {
          errorCode: r.errCode,
          owner,
          reason: '月額の決済の失敗',
        });
        return { outcome: 'failed' };
      } catch (err) {
        await repo.release(claimed.id, owner, now());
        throw err;
      }
    },
  };
}
