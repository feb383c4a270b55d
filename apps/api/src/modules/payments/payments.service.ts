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
import { randomBytes } from 'node:crypto';
import {
  addDays,
  cardBrandOf,
  DEFAULT_AGENT_CODE,
  formatTokyo,
  PAYMENT_RESULT,
  paymentJa,
  paymentMethodOf,
  PAYMENT_METHODS,
  ROLE,
  tokyoDay,
  type CreditCard,
  type PaymentMethod,
  type PaymentMethodKey,
  type PaymentPlan,
  type PlanId,
  type PurchaseForm,
  type SelectedPlan,
} from '@tenpo/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentsConfig } from '../../config';
import type { PaymentAccountRow, PaymentChargeRow, UserRow } from '../../db/types';
import type { Queue } from '../../jobs/engine';
import { addMs, iso, type Clock } from '../../lib/clock';
import { AppError, validationError } from '../../lib/errors';
import type { MailOutbox } from '../../mail/mail.jobs';
import { paymentFailedMail, paymentReceiptMail } from '../../mail/templates';
import type { AuditActor, AuditLog } from '../audit/audit.repo';
import type { PaymentsQueries, PaymentsRepo } from './payments.repo';
import { newOrderId, nextBillingDay } from './payments.rules';
import {
  COMMIT_STATUS,
  isCardError,
  isTransientError,
  PAYMENT_STATUS,
  SBPS_ERR,
  SbpsUnavailable,
  type SbpsClient,
} from './sbps.client';

export const CHARGE_QUEUE = 'payments.charge';
/** One charge attempt: `{ userId, period, attempt }`. */
export type ChargeJob = { userId: number; period: string; attempt: number };
export const chargeKeyOf = (j: ChargeJob) => `payments:charge:${j.userId}:${j.period}:${j.attempt}`;

/** How long a worker holds a charge it is sending to SBPS. */
export const CHARGE_LEASE_MS = 2 * 60_000;

/** The store's own code (empty or 0000) pays the platform; others are billed by their agency. */
const isDirect = (store: Pick<UserRow, 'agent_code'>) =>
  !store.agent_code || store.agent_code === DEFAULT_AGENT_CODE;

const SUMMARY = '支払い';

export type ChargeOutcome = 'paid' | 'failed' | 'busy' | 'skipped';

export type PaymentsService = ReturnType<typeof createPaymentsService>;

export function createPaymentsService(deps: {
  repo: PaymentsRepo;
  sbps: SbpsClient;
  queue: Queue;
  outbox: MailOutbox;
  audit: AuditLog;
  clock: Clock;
  config: PaymentsConfig;
  publicUrl: string;
  log: FastifyBaseLogger;
}) {
  const { repo, sbps, queue, outbox, audit, clock, config, publicUrl, log } = deps;
  const now = () => iso(clock.now());
  const today = () => tokyoDay(clock.now().getTime());
  const apiBase = `${publicUrl}/api/payment/sbps`;

  const planOf = (key: number | null): PaymentPlan | null =>
    key === 1 || key === 2
      ? { key, name: paymentJa.plans[key], price: config.prices[key], amount: config.prices[key] }
      : null;
  const methodOf = (store: UserRow, key: PaymentMethodKey): PaymentMethod => ({
    key,
    name: paymentJa.methods[key],
    payment_btn_disable: key === 'agency_invoice' && isDirect(store),
  });
  const cardOf = (a: PaymentAccountRow | undefined): CreditCard | null =>
    a?.card_masked
      ? {
          cc_number: a.card_masked,
          cc_expiration: a.card_expiry ?? '',
          cardbrand_code: cardBrandOf(a.card_brand),
        }
      : null;
  const storeName = (u: UserRow) => u.store_name ?? u.company_name ?? u.email;

  /** In a paid period: billed, and paid through today or later. */
  const paidPeriod = (store: UserRow, a: PaymentAccountRow | undefined) =>
    store.role === ROLE.shop && !!a?.paid_through && a.paid_through >= today();

  const record = (
    q: Parameters<AuditLog['record']>[1],
    actor: AuditActor | null,
    store: number,
    reason: string,
    before: Record<string, unknown> | null,
    after: Record<string, unknown> | null,
  ) =>
    audit.record(
      {
        actor,
        entity: 'store',
        entityId: store,
        storeId: store,
        action: 'update',
        summary: `${SUMMARY}: ${reason}`,
        before,
        after,
      },
      q,
    );

  const selectedPlan = (a: PaymentAccountRow | undefined): SelectedPlan | null => {
    const plan = planOf(a?.plan ?? null);
    if (!a || !plan) return null;
    return {
      ...plan,
      next_plan: planOf(a.next_plan),
      next_billing_on: a.next_billing_on,
      paid_through: a.paid_through,
    };
  };

  /** The store's SBPS customer code, made once: random, so no two installs share one. */
  const custCodeOf = async (storeId: number): Promise<string> => {
    await repo.ensureAccount(storeId, now());
    return repo.ensureCustCode(
      storeId,
      `tenpo-${storeId}-${randomBytes(6).toString('hex')}`,
      now(),
    );
  };

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

  const providerDown = () => new AppError(503, 'payment_provider_down', paymentJa.providerDown);

  /**
   * Brings an authorised transaction to sold and settles the charge: commit (ST02-00101), then
   * sales (ST02-00201) naming the commit's process date (ADR 0058). `inquireFirst`: a rerun
   * (the process died, or an answer was lost) asks MG01-00101 where the transaction stands and
   * does only the steps left: sold → paid; committed → sales; authorised → commit and sales;
   * cancelled / refunded → failed. A sold transaction is never settled as failed. An answer
   * SBPS does not give, or an NG that means "not now", throws SbpsUnavailable.
   */
  const finishAuthorised = async (
    charge: PaymentChargeRow,
    owner: string,
    t: { trackingId: string; spsTransactionId: string },
    inquireFirst: boolean,
  ): Promise<ChargeOutcome> => {
    let committed = false;
    if (inquireFirst) {
      const s = await sbps.inquire(t);
      if (s.result !== 'OK')
        throw new SbpsUnavailable(`SBPS inquiry of ${charge.order_id}: ${s.errCode}`);
      const info = s.payMethodInfo ?? {};
      const paymentStatus = info.payment_status ?? '';
      const commitStatus = info.commit_status ?? '';
      if (paymentStatus === PAYMENT_STATUS.sold) {
        await settlePaid(charge, { trackingId: t.trackingId, owner, reason: '月額の決済' });
        return 'paid';
      }
      if (
        paymentStatus === PAYMENT_STATUS.cancelled ||
        paymentStatus === PAYMENT_STATUS.refunded ||
        commitStatus === COMMIT_STATUS.committedCancel ||
        commitStatus === COMMIT_STATUS.uncommittedCancel
      ) {
        await settleFailed(charge, {
          errorCode: paymentStatus === PAYMENT_STATUS.refunded ? 'refunded' : 'cancelled',
          trackingId: t.trackingId,
          owner,
          reason: '前回の決済は取消済み',
        });
        return 'failed';
      }
      if (paymentStatus !== PAYMENT_STATUS.authorised)
        throw new SbpsUnavailable(
          `SBPS inquiry of ${charge.order_id}: payment_status "${paymentStatus}"`,
        );
      committed = commitStatus === COMMIT_STATUS.committed;
    }
    const refused = async (step: string, code: string): Promise<ChargeOutcome> => {
      if (isTransientError(code))
        throw new SbpsUnavailable(`SBPS ${step} of ${charge.order_id}: ${code}`);
      await settleFailed(charge, {
        errorCode: code,
        trackingId: t.trackingId,
        owner,
        reason: step === 'commit' ? '決済の確定の失敗' : '売上確定の失敗',
      });
      return 'failed';
    };
    // Sales names the commit's process date: the one just answered, or, resumed after a crash
    // between commit and sales, the one kept on the charge. A commit whose answer was lost left
    // none: sales names today (as vogle does).
    let processingDatetime = committed ? (charge.commit_process_date ?? undefined) : undefined;
    if (!committed) {
      if (!sbps.commit) throw new Error('SBPS client without commit (ST02-00101)');
      const c = await sbps.commit(t);
      if (c.result !== 'OK') return refused('commit', c.errCode);
      processingDatetime = c.processDate || undefined;
      if (processingDatetime)
        await repo.noteCommit(charge.id, owner, {
          commit_process_date: processingDatetime,
          updated_at: now(),
        });
    }
    const sold = await sbps.sales({ ...t, amount: charge.amount, processingDatetime });
    if (sold.result !== 'OK') return refused('sales', sold.errCode);
    await settlePaid(charge, { trackingId: t.trackingId, owner, reason: '月額の決済' });
    return 'paid';
  };

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
    /** The store's SBPS cust_code, made on first use (EMV 3-D Secure names it, ADR 0059). */
    custCodeFor: (store: UserRow): Promise<string> => custCodeOf(store.id),

    provider: () => ({
      token_script_url: sbps.provider.tokenScriptUrl,
      merchant_id: sbps.provider.merchantId,
      service_id: sbps.provider.serviceId,
    }),

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

    async registerCard(
      actor: AuditActor,
      store: UserRow,
      token: string,
      tokenKey: string,
    ): Promise<CreditCard> {
      const before = await repo.ensureAccount(store.id, now());
      const custCode = await custCodeOf(store.id);
      try {
        let r = await sbps.registerCard(custCode, token, tokenKey, !!before.card_masked);
        // Tenpo's copy and SBPS disagree on whether the customer exists: the other call.
        if (r.result === 'NG' && r.errCode === SBPS_ERR.customer)
          r = await sbps.registerCard(custCode, token, tokenKey, !before.card_masked);
        if (r.result !== 'OK') {
          if (r.errCode === SBPS_ERR.token)
            throw validationError({ token: [paymentJa.tokenFailed] });
          if (isCardError(r.errCode)) throw validationError({ card: [paymentJa.cardInvalid] });
          throw validationError({ card: [paymentJa.cardRegisterFailed] });
        }
        const ref = await sbps.referenceCard(custCode);
        if (ref.result !== 'OK' || !ref.card)
          throw validationError({ card: [paymentJa.cardRegisterFailed] });
        const card = ref.card;
        const stamp = now();
        const hadFailed = await repo.transaction(async (q, trx) => {
          await q.updateAccount(store.id, {
            card_brand: card.brand,
            card_masked: card.masked,
            card_expiry: card.expiration,
            method: before.method ?? 'credit_card',
            updated_at: stamp,
          });
          const u = await q.store(store.id);
          if (u.payment_fail === 1)
            await q.setUser(store.id, { payment_fail: 0, updated_at: stamp });
          await record(
            trx,
            actor,
            store.id,
            before.card_masked ? 'カードの更新' : 'カードの登録',
            { card: before.card_masked, payment_fail: u.payment_fail },
            { card: card.masked, payment_fail: 0 },
          );
          return u.payment_fail === 1;
        });
        if (hadFailed) await retryFailedPeriod(store.id);
        return {
          cc_number: card.masked,
          cc_expiration: card.expiration,
          cardbrand_code: cardBrandOf(card.brand),
        };
      } catch (err) {
        if (err instanceof SbpsUnavailable) {
          log.warn({ err, store: store.id }, 'SBPS unavailable: card not registered');
          throw providerDown();
        }
        throw err;
      }
    },

    /** The card as SBPS holds it; Tenpo's copy when SBPS cannot be reached. */
    async referenceCard(store: UserRow): Promise<CreditCard | null> {
      const a = await repo.account(store.id);
      // Asked even without a copy: a card entered on the hosted page is kept by SBPS under the
      // store's cust_code (its "register this card" box), and the monthly charge will use it.
      if (!a?.cust_code) return null;
      try {
        const r = await sbps.referenceCard(a.cust_code);
        const card = r.result === 'OK' ? r.card : null;
        const copy = card
          ? { card_brand: card.brand, card_masked: card.masked, card_expiry: card.expiration }
          : { card_brand: null, card_masked: null, card_expiry: null };
        if (
          copy.card_masked !== a.card_masked ||
          copy.card_expiry !== a.card_expiry ||
          copy.card_brand !== a.card_brand
        )
          await repo.updateAccount(store.id, { ...copy, updated_at: now() });
        if (!card) return null;
        return {
          cc_number: card.masked,
          cc_expiration: card.expiration,
          cardbrand_code: cardBrandOf(card.brand),
        };
      } catch (err) {
        if (!(err instanceof SbpsUnavailable)) throw err;
        log.warn({ err, store: store.id }, 'SBPS unavailable: the stored copy of the card');
        return cardOf(a);
      }
    },

    async removeCard(actor: AuditActor, store: UserRow): Promise<void> {
      const a = await repo.account(store.id);
      if (!a?.cust_code) return;
      if (store.role === ROLE.shop && a.paid_through && a.method === 'credit_card')
        throw validationError({ card: [paymentJa.cardInUse] });
      try {
        const r = await sbps.removeCard(a.cust_code);
        // Unknown at SBPS: already gone there; Tenpo's copy goes too.
        if (r.result !== 'OK' && r.errCode !== SBPS_ERR.customer)
          throw validationError({ card: [paymentJa.cardRegisterFailed] });
      } catch (err) {
        if (err instanceof SbpsUnavailable) throw providerDown();
        throw err;
      }
      const stamp = now();
      await repo.transaction(async (q, trx) => {
        await q.updateAccount(store.id, {
          card_brand: null,
          card_masked: null,
          card_expiry: null,
          updated_at: stamp,
        });
        await record(trx, actor, store.id, 'カードの削除', { card: a.card_masked }, { card: null });
      });
    },

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

    /** For tests and the admin: the store's account row. */
    account: (storeId: number) => repo.account(storeId),
  };
}

export type { PaymentsQueries };
