import {
  paymentJa,
  paymentMethodOf,
  PAYMENT_METHODS,
  type PaymentMethod,
  type PaymentMethodKey,
  type PaymentPlan,
  type PlanId,
  type SelectedPlan,
} from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import { validationError } from '../../lib/errors';
import type { AuditActor } from '../audit/audit.repo';
import type { PaymentsContext } from './payments.context';

/** The payment method and the plan a store chooses (ADR 0050). */
export function createPlans(ctx: PaymentsContext) {
  const { repo, now, record, methodOf, planOf, paidPeriod, selectedPlan } = ctx;
  return {
    methods: (store: UserRow): PaymentMethod[] => PAYMENT_METHODS.map((k) => methodOf(store, k)),

    async chooseMethod(actor: AuditActor, store: UserRow, key: PaymentMethodKey) {
      const method = methodOf(store, key);
      if (method.payment_btn_disable)
        throw validationError({ payment_name: [paymentJa.methodUnavailable] });
      const stamp = now();
      await repo.transaction(async (q, trx) => {
        const a = await q.ensureAccount(store.id, stamp);
        if (a.method === key) return;
        await q.updateAccount(store.id, { method: key, updated_at: stamp });
        await record(
          trx,
          actor,
          store.id,
          '支払い方法の変更',
          { method: a.method },
          { method: key },
        );
      });
      return method;
    },

    async selectedMethod(store: UserRow): Promise<PaymentMethod | null> {
      const a = await repo.account(store.id);
      // Not chosen yet: the way this store pays by its agent code (a direct customer by card).
      const key = PAYMENT_METHODS.find((k) => k === a?.method) ?? paymentMethodOf(store.agent_code);
      return methodOf(store, key);
    },

    plans: (): PaymentPlan[] => [planOf(1), planOf(2)].filter((p): p is PaymentPlan => !!p),

    async choosePlan(actor: AuditActor, store: UserRow, plan: PlanId): Promise<SelectedPlan> {
      const stamp = now();
      await repo.transaction(async (q, trx) => {
        const a = await q.ensureAccount(store.id, stamp);
        const before = { plan: a.plan, next_plan: a.next_plan };
        // During a paid period the new plan waits for the next charge (ADR 0050).
        const after = paidPeriod(store, a)
          ? { plan: a.plan, next_plan: plan === a.plan ? null : plan }
          : { plan, next_plan: null };
        if (before.plan === after.plan && before.next_plan === after.next_plan) return;
        await q.updateAccount(store.id, { ...after, updated_at: stamp });
        await record(
          trx,
          actor,
          store.id,
          after.next_plan
            ? `次回のお支払いから${planOf(after.next_plan)?.name ?? ''}に変更`
            : 'プランの変更',
          before,
          after,
        );
      });
      return selectedPlan(await repo.account(store.id)) as SelectedPlan;
    },

    selectedPlan: async (store: UserRow) => selectedPlan(await repo.account(store.id)),
  };
}
