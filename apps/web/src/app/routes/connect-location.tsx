import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LocationPicker } from '../../features/publishers/components/location-picker';
import { useCurrentStore } from '../../lib/selection';
import { PageTitle } from '../../components/ui/page-title';

/** /connect-location: choose the Google business location that becomes the store's listing. */
export function ConnectLocationRoute() {
  const { t } = useTranslation();
  const store = useCurrentStore();
  return (
    <Stack>
      <PageTitle>{t('screens.connectLocation.title')}</PageTitle>
      {store && <LocationPicker key={store.id} storeId={store.id} />}
    </Stack>
  );
}
