import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PaymentGate } from '../../components/ui/payment-panels';
import { ConnectAccount } from '../../features/publishers/components/connect-account';
import { useCurrentStore } from '../../lib/selection';
import { usePaymentState } from '../payment-state';
import { PageTitle } from '../../components/ui/page-title';

/** /connect-account: the store's channel connections, behind the payment panels. */
export function ConnectAccountRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  const store = useCurrentStore();
  return (
    <Stack>
      <PageTitle>{t('screens.connectAccount.title')}</PageTitle>
      <PaymentGate state={payment}>
        {store && <ConnectAccount key={store.id} storeId={store.id} role={store.role} />}
      </PaymentGate>
    </Stack>
  );
}
