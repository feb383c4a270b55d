import { PAYMENT_RESULT, paymentJa, paymentMethodOf, type PurchaseForm } from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import { validationError } from '../../lib/errors';
import type { PaymentsContext } from './payments.context';
import { newOrderId } from './payments.rules';
import type { Settlement } from './payments.settle';

/**
 * The first payment (or a failed period's) on SBPS's hosted page: the signed form, SBPS's
 * result notification, and where the browser comes back to.
 */
export function createPurchase(ctx: PaymentsContext, { settlePaid, settleFailed }: Settlement) {
  const { repo, sbps, log, publicUrl, now, today, apiBase, planOf, paidPeriod, custCodeOf } = ctx;
  return {
    /**
     * The signed A01-1 form of the first payment (or of a failed period), for the browser to
     * post to SBPS's hosted page. `origin`: where the browser comes back to.
     */
    async purchase(store: UserRow, origin: string): Promise<PurchaseForm> {
      const a = await repo.ensureAccount(store.id, now());
      // A store its agency bills (chosen, or by its agent code) pays no card page of ours.
      if ((a.method ?? paymentMethodOf(store.agent_code)) !== 'credit_card')
        throw validationError({ payment_name: [paymentJa.methodUnavailable] });
      const plan = planOf(a.next_plan ?? a.plan);
      if (!plan) throw validationError({ payment_plan: [paymentJa.noPlan] });
      if (paidPeriod(store, a) && store.payment_fail === 0)
        throw validationError({ user_id: [paymentJa.alreadyPaid] });
      // A period already due and not paid (a declined charge) is the one to pay; else from today.
      const period =
        a.next_billing_on && a.next_billing_on <= today() ? a.next_billing_on : today();
      const custCode = await custCodeOf(store.id);
      const stamp = now();
      const latest = (await repo.attempts(store.id, period))[0];
      if (latest?.state === 'paid') throw validationError({ user_id: [paymentJa.alreadyPaid] });
      const charge = await repo.chargeFor({
        user_id: store.id,
        period,
        attempt: (latest?.attempt ?? 0) + 1,
        order_id: newOrderId(),
        kind: 'purchase',
        plan: plan.key,
        amount: plan.amount,
        state: 'pending',
        origin,
        created_at: stamp,
        updated_at: stamp,
      });
      const back = (outcome: string) => `${apiBase}/return/${outcome}?user_id=${store.id}`;
      const form = sbps.purchaseForm({
        custCode,
        orderId: charge.order_id,
        itemId: `tenpo-plan-${plan.key}`,
        // ASCII: the link type's hash bytes are only certain for ASCII (providers.md §5.2).
        itemName: plan.key === 1 ? 'Tenpo Standard' : 'Tenpo Premium',
        amount: charge.amount,
        successUrl: back('success'),
        cancelUrl: back('cancel'),
        errorUrl: back('error'),
        pagecon: `${apiBase}/notification`,
      });
      return { ...form, order_id: charge.order_id, amount: charge.amount };
    },

    /**
     * SBPS's result notification (A02-1): `OK,` when Tenpo took it, `NG,<reason>` for a
     * tampered hash, an unknown order or an order settled already (a replay). Each is kept.
     */
    async notification(fields: Record<string, string>): Promise<{ ok: boolean; reason: string }> {
      const orderId = fields.order_id ?? '';
      const charge = orderId ? await repo.chargeByOrder(orderId) : undefined;
      let verdict: 'accepted' | 'tampered' | 'unknown' | 'replay' = 'accepted';
      let reason = '';
      if (!sbps.verifyResult(fields)) [verdict, reason] = ['tampered', 'hash'];
      else if (!charge || charge.kind !== 'purchase') [verdict, reason] = ['unknown', 'order'];
      else if (
        fields.amount !== String(charge.amount) ||
        (fields.cust_code ?? '') === '' ||
        !['OK', 'NG'].includes(fields.res_result ?? '')
      )
        [verdict, reason] = ['tampered', 'fields'];
      else if ((await repo.account(charge.user_id))?.cust_code !== fields.cust_code)
        // Signed, but for another customer than the store this order is for (ADR 0058).
        [verdict, reason] = ['tampered', 'cust_code'];
      else if (charge.state === 'paid' || charge.state === 'failed')
        [verdict, reason] = ['replay', 'settled'];
      else {
        const settled =
          fields.res_result === 'OK'
            ? await settlePaid(charge, {
                trackingId: fields.res_tracking_id || null,
                reason: 'お支払い（決済ページ）',
              })
            : await settleFailed(charge, {
                errorCode: fields.res_err_code || 'NG',
                trackingId: fields.res_tracking_id || null,
                reason: 'お支払いの失敗（決済ページ）',
              });
        if (!settled) [verdict, reason] = ['replay', 'settled'];
      }
      await repo.recordNotification({
        received_at: now(),
        order_id: orderId || null,
        verdict,
        reason: reason || null,
        res_result: fields.res_result ?? null,
        hash: fields.sps_hashcode ?? null,
        fields: JSON.stringify(fields),
      });
      if (verdict !== 'accepted')
        log.warn({ orderId, verdict, reason }, 'SBPS notification refused');
      return { ok: verdict === 'accepted', reason: verdict === 'accepted' ? '' : verdict };
    },

    /** Where the browser goes after the hosted page (A03-1): the web's /register-payment. */
    async returnTo(
      outcome: 'success' | 'error' | 'cancel',
      userId: number,
      fields: Record<string, string>,
    ): Promise<string> {
      if (outcome === 'cancel') {
        const open = await repo.openPurchase(userId);
        return `${open?.origin ?? publicUrl}/register-payment`;
      }
      const charge = fields.order_id ? await repo.chargeByOrder(fields.order_id) : undefined;
      const mine = charge && charge.user_id === userId ? charge : undefined;
      const good =
        outcome === 'success' &&
        sbps.verifyResult(fields) &&
        fields.res_result === 'OK' &&
        mine !== undefined &&
        mine.state !== 'failed';
      if (!good && outcome === 'success')
        log.warn({ userId, orderId: fields.order_id }, 'SBPS success return refused');
      const stt = good ? PAYMENT_RESULT.success : PAYMENT_RESULT.fail;
      return `${mine?.origin ?? publicUrl}/register-payment?stt_id=${stt}`;
    },
  };
}
