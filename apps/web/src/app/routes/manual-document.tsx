import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PaymentGate } from '../../components/ui/payment-panels';
import { ManualViewer } from '../../features/manual/components/manual-viewer';
import { usePaymentState } from '../payment-state';

/** /manual-document: the PDF manual inside the product, behind the payment panels. */
export function ManualDocumentRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  return (
    <Stack>
      <Title order={2}>{t('screens.manual.title')}</Title>
      <PaymentGate state={payment}>
        <ManualViewer />
      </PaymentGate>
    </Stack>
  );
}
