import { useEffect } from 'react';
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { FacebookPagePicker } from '../../features/publishers/components/facebook-page-picker';
import { useCurrentStore } from '../../lib/selection';
import { PageTitle } from '../../components/ui/page-title';

/** /facebook/connect-page: choose the Facebook page (and with it Instagram) for the store. */
export function FacebookConnectPageRoute() {
  const { t } = useTranslation();
  const store = useCurrentStore();
  const { hash, pathname, search } = useLocation();
  const navigate = useNavigate();
  // Facebook's redirect back appends `#_=_`; it means nothing to us, so it goes.
  useEffect(() => {
    if (hash === '#_=_') void navigate({ pathname, search, hash: '' }, { replace: true });
  }, [hash, pathname, search, navigate]);
  return (
    <Stack>
      <PageTitle>{t('screens.facebookConnectPage.title')}</PageTitle>
      {store && <FacebookPagePicker key={store.id} storeId={store.id} />}
    </Stack>
  );
}
