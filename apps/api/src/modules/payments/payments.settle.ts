import { addDays, formatTokyo, ROLE } from '@tenpo/domain';
import type { PaymentChargeRow } from '../../db/types';
import { paymentFailedMail, paymentReceiptMail } from '../../mail/templates';
import type { PaymentsContext } from './payments.context';
import { nextBillingDay } from './payments.rules';

export type Settlement = ReturnType<typeof createSettlement>;

/**
 * How a charge ends, whoever ends it (SBPS's notification of the hosted page, or the monthly
 * billing): paid or declined, each once, in one transaction with what follows from it.
 */
export function createSettlement(ctx: PaymentsContext) {
  const { repo, outbox, clock, publicUrl, now, record, planOf, storeName } = ctx;

  /**
   * Settles a charge as paid, in one transaction with its consequences; false when it was
   * settled already. `owner`: the claimant of a billing charge.
   */
  const settlePaid = async (
    charge: PaymentChargeRow,
    v: { trackingId: string | null; owner?: string; reason: string },
  ): Promise<boolean> => {
    const stamp = now();
    const mail = await repo.transaction(async (q, trx) => {
      const won = await q.settle(charge.id, 'paid', {
        tracking_id: v.trackingId,
        error_code: null,
        now: stamp,
        ...(v.owner ? { owner: v.owner } : {}),
      });
      if (!won) return null;
      const a = await q.ensureAccount(charge.user_id, stamp);
      const store = await q.store(charge.user_id);
      const billingDay = a.billing_day ?? Number(charge.period.slice(8, 10));
      const next = nextBillingDay(charge.period, billingDay);
      const after = {
        plan: charge.plan,
        next_plan: a.next_plan === charge.plan ? null : a.next_plan,
        paid_through: addDays(next, -1),
        next_billing_on: next,
        billing_day: billingDay,
      };
      await q.updateAccount(charge.user_id, {
        ...after,
        method: a.method ?? 'credit_card',
        updated_at: stamp,
      });
      const role = store.role === ROLE.freeTrial ? ROLE.shop : store.role;
      await q.setUser(charge.user_id, { role, payment_fail: 0, updated_at: stamp });
      await record(
        trx,
        null,
        charge.user_id,
        `${v.reason}（注文番号 ${charge.order_id}、${charge.amount}円）`,
        {
          role: store.role,
          payment_fail: store.payment_fail,
          plan: a.plan,
          paid_through: a.paid_through,
          next_billing_on: a.next_billing_on,
        },
        { role, payment_fail: 0, ...after },
      );
      const plan = planOf(charge.plan);
      await outbox.send(
        {
          to: store.email,
          ...paymentReceiptMail({
            storeName: storeName(store),
            planName: plan?.name ?? '',
            amount: charge.amount,
            from: charge.period,
            through: after.paid_through,
            orderId: charge.order_id,
            paidAt: formatTokyo(clock.now(), 'YYYY-MM-DD HH:mm'),
          }),
        },
        { key: `mail:payment-receipt:${charge.order_id}`, trx },
      );
      return true;
    });
    return mail !== null;
  };

  /** Settles a charge as declined: final for this attempt; the store is flagged and mailed. */
  const settleFailed = async (
    charge: PaymentChargeRow,
    v: { errorCode: string; trackingId?: string | null; owner?: string; reason: string },
  ): Promise<boolean> => {
    const stamp = now();
    return repo.transaction(async (q, trx) => {
      const won = await q.settle(charge.id, 'failed', {
        tracking_id: v.trackingId ?? null,
        error_code: v.errorCode,
        now: stamp,
        ...(v.owner ? { owner: v.owner } : {}),
      });
      if (!won) return false;
      const store = await q.store(charge.user_id);
      await q.setUser(charge.user_id, { payment_fail: 1, updated_at: stamp });
      await record(
        trx,
        null,
        charge.user_id,
        `${v.reason}（注文番号 ${charge.order_id}、エラー ${v.errorCode}）`,
        { payment_fail: store.payment_fail },
        { payment_fail: 1 },
      );
      await outbox.send(
        {
          to: store.email,
          ...paymentFailedMail({
            storeName: storeName(store),
            planName: planOf(charge.plan)?.name ?? '',
            amount: charge.amount,
            link: `${charge.origin ?? publicUrl}/register-payment`,
          }),
        },
        { key: `mail:payment-failed:${charge.order_id}`, trx },
      );
      return true;
    });
  };

  return { settlePaid, settleFailed };
}
