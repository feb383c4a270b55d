import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LocationPicker } from '../../features/publishers/components/location-picker';
import { useCurrentStore } from '../../lib/selection';

/** /connect-location: choose the Google business location that becomes the store's listing. */
export function ConnectLocationRoute() {
  const { t } = useTranslation();
  const store = useCurrentStore();
  return (
    <Stack>
      <Title order={2}>{t('screens.connectLocation.title')}</Title>
      {store && <LocationPicker key={store.id} storeId={store.id} />}
    </Stack>
  );
}
