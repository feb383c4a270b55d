import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GoogleConnectCard } from '../../features/publishers/components/google-connect-card';
import { useCurrentStore } from '../../lib/selection';
import { PageTitle } from '../../components/ui/page-title';

/** /google-my-business: the business-profile connect card (spec 1 §2, spec 3 §2). */
export function GoogleMyBusinessRoute() {
  const { t } = useTranslation();
  const store = useCurrentStore();
  return (
    <Stack maw={760}>
      <PageTitle>{t('screens.googleMyBusiness.title')}</PageTitle>
      {store && <GoogleConnectCard key={store.id} storeId={store.id} />}
    </Stack>
  );
}
