import { ComingSoon } from '../../components/ui/coming-soon';
import { PaymentGate } from '../../components/ui/payment-panels';
import { usePaymentState } from '../payment-state';
import { useRouteMeta } from '../use-route-meta';

/**
 * The screens later issues fill (posts, reports, payment, store information, …): their routes
 * and guards are in place; the content area says honestly that it is not ready.
 */
export function ComingSoonRoute() {
  const meta = useRouteMeta();
  const payment = usePaymentState();
  const body = <ComingSoon title={meta?.title ?? ''} />;
  return meta?.paymentGate ? <PaymentGate state={payment}>{body}</PaymentGate> : body;
}
