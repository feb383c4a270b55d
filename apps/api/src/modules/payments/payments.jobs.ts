import type { Queue } from '../../jobs/engine';
import { dailyAt } from '../../jobs/recurrence';
import { CHARGE_QUEUE, type ChargeJob, type PaymentsService } from './payments.service';

/** The daily fan-out: one charge job per store due (ADR 0050). */
export const BILLING_QUEUE = 'payments.billing';
export const BILLING_SCHEDULE = 'payments.billing';

/**
 * The billing jobs (ADR 0050): `payments.billing` (a cron at BILLING_HOUR, Tokyo) queues one
 * `payments.charge` per due store, keyed by store + period + attempt so a second run the same
 * day adds nothing. A charge that SBPS could not take (down, time-out) throws after giving its
 * claim back, and the engine retries it with back-off; a charge another worker holds waits for
 * that worker's lease.
 */
export function registerPaymentJobs(
  queue: Queue,
  deps: { payments: PaymentsService; billingHour: number },
) {
  queue.work<ChargeJob>(
    CHARGE_QUEUE,
    async (job, ctx) => {
      const r = await deps.payments.charge(job);
      if (r.outcome === 'busy' && r.leaseUntil) ctx.retryAt(r.leaseUntil, 'held by another worker');
    },
    { concurrency: 2 },
  );
  queue.work(BILLING_QUEUE, async () => {
    await deps.payments.enqueueDue();
  });
  return {
    /** At start (a process that runs jobs): the daily schedule is declared. */
    async start(): Promise<void> {
      await queue.schedule({
        name: BILLING_SCHEDULE,
        cron: dailyAt(deps.billingHour),
        queue: BILLING_QUEUE,
      });
    },
  };
}
export type PaymentJobs = ReturnType<typeof registerPaymentJobs>;
