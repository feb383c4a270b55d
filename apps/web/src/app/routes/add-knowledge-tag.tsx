import { Alert, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PaymentGate } from '../../components/ui/payment-panels';
import { AddKnowledgeTag } from '../../features/knowledge-tag/components/add-knowledge-tag';
import { useCurrentStore } from '../../lib/selection';
import { usePaymentState } from '../payment-state';
import { PageTitle } from '../../components/ui/page-title';

/** /add-knowledge-tag (spec 2 §2): the store's script tag, its embed codes, its installation. */
export function AddKnowledgeTagRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  const store = useCurrentStore();
  return (
    <Stack>
      <PageTitle>{t('knowledgeTag.steps.title')}</PageTitle>
      <PaymentGate state={payment}>
        {store ? (
          <AddKnowledgeTag key={store.id} userId={store.id} origin={window.location.origin} />
        ) : (
          <Alert color="blue" variant="light">
            {t('knowledgeTag.noStore')}
          </Alert>
        )}
      </PaymentGate>
    </Stack>
  );
}
