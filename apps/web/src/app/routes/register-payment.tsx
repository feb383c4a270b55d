import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import type { PaymentState } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ui/error-alert';
import {
  useCreditCard,
  useSelectedMethod,
  useSelectedPlan,
} from '../../features/payments/api/payments-api';
import { CardForm } from '../../features/payments/components/card-form';
import { LeaveGuard } from '../../features/payments/components/leave-guard';
import { MethodSelector } from '../../features/payments/components/method-selector';
import { PaymentPanel } from '../../features/payments/components/payment-panel';
import { PaymentResultDialog } from '../../features/payments/components/payment-result-dialog';
import { PlanSelector } from '../../features/payments/components/plan-selector';
import { RegisteredCard } from '../../features/payments/components/registered-card';
import { Section } from '../../features/payments/components/section';
import { errorLines } from '../../lib/api-client';
import { useCurrentStore } from '../../lib/selection';
import { usePaidRefresh, usePaymentState } from '../payment-state';
import { PageTitle } from '../../components/ui/page-title';

/**
 * Spec 1 §2's leave-blocking rule: the card method chosen, no card, payment not failed, and the
 * store in its free trial. Until all four are known it does not block.
 */
export const mustRegisterCard = (
  state: PaymentState | null,
  method: string | null | undefined,
  hasCard: boolean | undefined,
): boolean =>
  state !== null &&
  method === 'credit_card' &&
  hasCard === false &&
  !state.payment_fail &&
  state.in_trial;

/** /register-payment (spec 1 §2; issue 13): plan, method, card and payment for one store. */
export function RegisterPaymentRoute() {
  const { t } = useTranslation();
  const store = useCurrentStore();
  const state = usePaymentState();
  const onPaid = usePaidRefresh();
  return (
    <Stack maw={900}>
      <PageTitle>{t('layout.menu.registerPayment')}</PageTitle>
      {store && <RegisterPayment key={store.id} storeId={store.id} state={state} />}
      <PaymentResultDialog onSuccess={onPaid} />
    </Stack>
  );
}

function RegisterPayment({ storeId, state }: { storeId: number; state: PaymentState | null }) {
  const { t } = useTranslation();
  const onPaid = usePaidRefresh();
  const method = useSelectedMethod(storeId);
  const plan = useSelectedPlan(storeId);
  const card = useCreditCard(storeId);
  const cardMethod = method.data?.key !== 'agency_invoice';
  const hasCard = card.data === undefined ? undefined : card.data !== null;

  return (
    <>
      <LeaveGuard when={mustRegisterCard(state, method.data?.key, hasCard)} />
      <Section title={t('paymentSettings.planSection')}>
        <PlanSelector storeId={storeId} />
      </Section>
      <Section title={t('paymentSettings.methodSection')}>
        <MethodSelector storeId={storeId} />
      </Section>
      {method.isSuccess && !cardMethod ? (
        <Text size="sm">{t('paymentSettings.agencyInvoice')}</Text>
      ) : (
        <>
          <Section title={t('paymentSettings.cardSection')}>
            {card.isPending ? (
              <Center>
                <Loader size="sm" aria-label={t('app.loading')} />
              </Center>
            ) : card.error ? (
              <ErrorAlert lines={errorLines(card.error)} />
            ) : card.data ? (
              <>
                <RegisteredCard storeId={storeId} card={card.data} />
                <Anchor component={Link} to="/change-payment-method" size="sm">
                  {t('paymentSettings.changeCard')}
                </Anchor>
              </>
            ) : (
              <CardForm
                storeId={storeId}
                submitLabel={t('paymentSettings.registerCard')}
                onRegistered={onPaid}
              />
            )}
          </Section>
          {state && (
            <Section title={t('paymentSettings.paySection')}>
              {plan.error ? (
                <ErrorAlert lines={errorLines(plan.error)} />
              ) : (
                <PaymentPanel storeId={storeId} state={state} plan={plan.data ?? null} />
              )}
            </Section>
          )}
        </>
      )}
    </>
  );
}
