import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { ROLE, type PaymentState, type SelectedPlan } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { purchaseCall } from '../api/payments-api';
import { submitPurchaseForm } from '../purchase';

/** Whether the store has a payment to make now: a trial (running or ended) or a failed charge. */
export const paymentDue = (s: PaymentState): boolean => s.role === ROLE.freeTrial || s.payment_fail;

/**
 * The first payment, or the settlement of a failed period (ADR 0050): the amount of the selected
 * plan and 支払う, which asks Tenpo for the signed purchase request and posts it to the card
 * provider's hosted page.
 */
export function PaymentPanel({
  storeId,
  state,
  plan,
}: {
  storeId: number;
  state: PaymentState;
  plan: SelectedPlan | null;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [lines, setLines] = useState<string[] | null>(null);

  if (!paymentDue(state)) return <Text size="sm">{t('paymentSettings.nothingToPay')}</Text>;

  const pay = async () => {
    setBusy(true);
    setLines(null);
    try {
      submitPurchaseForm(await purchaseCall(storeId));
      // The browser is leaving; the button stays busy until it has gone.
    } catch (e) {
      setLines(errorLines(e));
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm">
      {state.payment_fail && (
        <Alert color="red" variant="light">
          {t('paymentSettings.paymentFailNote')}
        </Alert>
      )}
      <ErrorAlert lines={lines} />
      {plan ? (
        <Group gap="xs">
          <Text fw={500}>{t('paymentSettings.amount')}</Text>
          <Text data-testid="amount">
            {plan.name}{' '}
            {t('paymentSettings.amountValue', { amount: plan.amount.toLocaleString('ja-JP') })}
          </Text>
        </Group>
      ) : (
        <Text size="sm">{t('paymentSettings.noPlan')}</Text>
      )}
      <Text size="sm" c="dimmed">
        {t('paymentSettings.payNote')}
      </Text>
      <Group>
        <Button color="orange" onClick={() => void pay()} loading={busy} disabled={!plan}>
          {t('paymentSettings.pay')}
        </Button>
      </Group>
    </Stack>
  );
}
