import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PaymentGate } from '../../components/ui/payment-panels';
import { RichResultsModal } from '../../features/knowledge-tag/components/rich-results-modal';
import { usePaymentState } from '../payment-state';
import { PageTitle } from '../../components/ui/page-title';

/** /knowledge-tag (spec 2 §2): to the add flow, or the rich-results check of a page. */
export function KnowledgeTagRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  const [checking, setChecking] = useState(false);
  return (
    <Stack>
      <PageTitle>{t('knowledgeTag.title')}</PageTitle>
      <PaymentGate state={payment}>
        <Stack>
          <Text>{t('knowledgeTag.lead')}</Text>
          <Group>
            <Button component={Link} to="/add-knowledge-tag">
              {t('knowledgeTag.add')}
            </Button>
            <Button variant="light" onClick={() => setChecking(true)}>
              {t('knowledgeTag.check')}
            </Button>
          </Group>
          <RichResultsModal opened={checking} onClose={() => setChecking(false)} />
        </Stack>
      </PaymentGate>
    </Stack>
  );
}
