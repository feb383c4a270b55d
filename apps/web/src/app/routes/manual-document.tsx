import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ManualViewer } from '../../features/manual/components/manual-viewer';
import { PageTitle } from '../../components/ui/page-title';

/**
 * /manual-document: the PDF manual inside the product. It opens for every role and payment
 * state (issue 23 item 10, ADR 0070): a store whose trial ended or whose charge failed needs the
 * manual most, and the payment panels stay on the screens that act for the store.
 */
export function ManualDocumentRoute() {
  const { t } = useTranslation();
  return (
    <Stack>
      <PageTitle>{t('screens.manual.title')}</PageTitle>
      <ManualViewer />
    </Stack>
  );
}
