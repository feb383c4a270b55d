import { randomBytes } from 'node:crypto';
import {
  cardBrandOf,
  DEFAULT_AGENT_CODE,
  paymentJa,
  ROLE,
  tokyoDay,
  type CreditCard,
  type PaymentMethod,
  type PaymentMethodKey,
  type PaymentPlan,
  type SelectedPlan,
} from '@tenpo/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentsConfig } from '../../config';
import type { PaymentAccountRow, UserRow } from '../../db/types';
import type { Queue } from '../../jobs/engine';
import { iso, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { MailOutbox } from '../../mail/mail.jobs';
import type { AuditActor, AuditLog } from '../audit/audit.repo';
import type { PaymentsRepo } from './payments.repo';
import type { SbpsClient } from './sbps.client';

/** What the payments parts run on (payments.service.ts puts them together). */
export type PaymentsDeps = {
  repo: PaymentsRepo;
  sbps: SbpsClient;
  queue: Queue;
  outbox: MailOutbox;
  audit: AuditLog;
  clock: Clock;
  config: PaymentsConfig;
  publicUrl: string;
  log: FastifyBaseLogger;
};

/** The store's own code (empty or 0000) pays the platform; others are billed by their agency. */
const isDirect = (store: Pick<UserRow, 'agent_code'>) =>
  !store.agent_code || store.agent_code === DEFAULT_AGENT_CODE;

const SUMMARY = '支払い';

export type PaymentsContext = ReturnType<typeof createPaymentsContext>;

/** The pieces every part of payments shares: plans and methods as shown, the audit line, the clock. */
export function createPaymentsContext(deps: PaymentsDeps) {
  const { repo, audit, clock, config, publicUrl } = deps;
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

  /** SBPS cannot be reached: 503, in Japanese. */
  const providerDown = () => new AppError(503, 'payment_provider_down', paymentJa.providerDown);

  return {
    ...deps,
    now,
    today,
    apiBase,
    planOf,
    methodOf,
    cardOf,
    storeName,
    paidPeriod,
    record,
    selectedPlan,
    custCodeOf,
    providerDown,
  };
}
