import { Stack, Title } from '@mantine/core';
import type { StoreRow } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { StoreOverview } from '../../features/stores/components/store-overview';
import { selectStores } from '../../lib/selection';
import { useSession } from '../../lib/session';

/** /overview: the stores an agency, manager or group leader may act for. */
export function OverviewRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  if (!user) return null;
  const open = (rows: StoreRow[], to: string) => {
    selectStores(rows, user);
    void navigate(to);
  };
  return (
    <Stack>
      <Title order={2}>{t('screens.overview.storesTitle')}</Title>
      <StoreOverview
        user={user}
        onOpenDashboard={(row) => open([row], '/dashboard')}
        onViewReport={(rows) => open(rows, rows.length > 1 ? '/report-multiple' : '/report')}
      />
    </Stack>
  );
}
