/**
 * Lifecycle (issue 13, ADR 0050).
 * - Trial: registration makes a store role 0 (free trial) with `trial_ends_at` 30 days ahead.
 * - First payment: the store picks a plan, registers a card (token → MG02-00131/00132) and pays
 *   on SBPS's hosted page (A01-1). The A02-1 notification settles the charge: role 0 → 1,
 *   `paid_through` / `next_billing_on` (the same Tokyo day next month, clamped to the month's
 *   end), `payment_fail` cleared, a receipt mailed.
 * - Monthly billing in advance: a daily job at BILLING_HOUR (Tokyo) queues one charge job per
 *   due store (key: store + period). A charge is one row per attempt with its own 32-character
 *   order id; a worker claims the row (conditional UPDATE with a lease) before calling SBPS, so
 *   a second worker or a rerun charges nothing; SBPS refusing a known order id (99996000) is
 *   answered by an inquiry of the earlier transaction (or, when SBPS names none, a new attempt).
 *   A charge is ST01-00131 on the saved card → ST02-00101 commit → ST02-00201 sales (ADR 0058);
 *   a rerun inquires (MG01-00101) and does only the steps left. SBPS down, or an NG that means
 *   "not now" (credit centre, SBPS's system): the claim is released and the job retries with
 *   back-off; a decline is final for the attempt.
 * - Declined (a notification NG or a billing NG): that attempt is final; `payment_fail` = 1 and
 *   the payment-failed mail. A new card (register/update) clears `payment_fail` and queues a new
 *   attempt (new order id) of the failed period.
 * - Plan change: before the first payment it applies at once; during a paid period it becomes
 *   `next_plan`, charged from `next_billing_on` (next period, no proration).
 * Every state change is written to the audit log with its reason.
 */
import type { UserRow } from '../../db/types';
import { createBilling } from './payments.billing';
import { createCards } from './payments.cards';
import { createPaymentsContext, type PaymentsDeps } from './payments.context';
import { createPlans } from './payments.plans';
import { createPurchase } from './payments.purchase';
import type { PaymentsQueries } from './payments.repo';
import { createSettlement } from './payments.settle';

export {
  CHARGE_LEASE_MS,
  CHARGE_QUEUE,
  chargeKeyOf,
  type ChargeJob,
  type ChargeOutcome,
} from './payments.billing';

export type PaymentsService = ReturnType<typeof createPaymentsService>;

/** Payments, put together from its parts: plans, cards, purchase and billing. */
export function createPaymentsService(deps: PaymentsDeps) {
  const ctx = createPaymentsContext(deps);
  const settlement = createSettlement(ctx);
  const { retryFailedPeriod, ...billing } = createBilling(ctx, settlement);
  return {
    /** The store's SBPS cust_code, made on first use (EMV 3-D Secure names it, ADR 0059). */
    custCodeFor: (store: UserRow): Promise<string> => ctx.custCodeOf(store.id),

    provider: () => ({
      token_script_url: deps.sbps.provider.tokenScriptUrl,
      merchant_id: deps.sbps.provider.merchantId,
      service_id: deps.sbps.provider.serviceId,
    }),

    ...createPlans(ctx),
    ...createCards(ctx, retryFailedPeriod),
    ...createPurchase(ctx, settlement),
    ...billing,

    /** For tests and the admin: the store's account row. */
    account: (storeId: number) => deps.repo.account(storeId),
  };
}

export type { PaymentsQueries };
