import { Alert, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PaymentGate } from '../../components/ui/payment-panels';
import { SchemaMarkupEditor } from '../../features/knowledge-tag/components/schema-markup-editor';
import { useCurrentStore } from '../../lib/selection';
import { usePaymentState } from '../payment-state';
import { PageTitle } from '../../components/ui/page-title';

/** /add-knowledge-tag/schema-markup (spec 2 §2): the JSON-LD template, kept per store. */
export function SchemaMarkupRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  const store = useCurrentStore();
  return (
    <Stack>
      <PageTitle>{t('knowledgeTag.markup.title')}</PageTitle>
      <PaymentGate state={payment}>
        {store ? (
          <SchemaMarkupEditor key={store.id} userId={store.id} />
        ) : (
          <Alert color="blue" variant="light">
            {t('knowledgeTag.noStore')}
          </Alert>
        )}
      </PaymentGate>
    </Stack>
  );
}
