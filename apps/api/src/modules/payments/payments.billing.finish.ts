import type { PaymentChargeRow } from '../../db/types';
import type { ChargeOutcome } from './payments.billing';
import type { PaymentsContext } from './payments.context';
import type { Settlement } from './payments.settle';
import { COMMIT_STATUS, isTransientError, PAYMENT_STATUS, SbpsUnavailable } from './sbps.client';

/**
 * Brings an authorised transaction to sold and settles the charge: commit (ST02-00101), then
 * sales (ST02-00201) naming the commit's process date (ADR 0058). `inquireFirst`: a rerun
 * (the process died, or an answer was lost) asks MG01-00101 where the transaction stands and
 * does only the steps left: sold → paid; committed → sales; authorised → commit and sales;
 * cancelled / refunded → failed. A sold transaction is never settled as failed. An answer
 * SBPS does not give, or an NG that means "not now", throws SbpsUnavailable.
 */
export function createFinishAuthorised(
  ctx: PaymentsContext,
  { settlePaid, settleFailed }: Pick<Settlement, 'settlePaid' | 'settleFailed'>,
) {
  const { repo, sbps, now } = ctx;
  return async (
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
}
