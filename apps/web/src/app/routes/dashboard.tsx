import { Alert, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ComingSoon } from '../../components/ui/coming-soon';
import { PaymentGate } from '../../components/ui/payment-panels';
import { useSelection } from '../../lib/selection';
import { isAccountManager, useSession } from '../../lib/session';
import { usePaymentState } from '../payment-state';

/** /dashboard: the payment panels are real; the charts belong to the dashboard issue. */
export function DashboardRoute() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { ids } = useSelection();
  const payment = usePaymentState();
  if (isAccountManager(user) && ids.length === 0) {
    return (
      <Stack>
        <Alert color="blue" variant="light">
          {t('screens.dashboard.noStore')}
        </Alert>
      </Stack>
    );
  }
  return (
    <PaymentGate state={payment}>
      <ComingSoon title={t('layout.menu.dashboard')} />
    </PaymentGate>
  );
}
