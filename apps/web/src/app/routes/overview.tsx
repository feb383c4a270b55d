import { Stack } from '@mantine/core';
import { ROLE, type StoreRow } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ManagerOverview } from '../../features/admin/components/manager-overview';
import { StoreOverview } from '../../features/stores/components/store-overview';
import { selectStores } from '../../lib/selection';
import { useSession } from '../../lib/session';
import { PageTitle } from '../../components/ui/page-title';

/**
 * /overview: the stores an agency or group leader may act for; for a manager, the customers
 * and agencies of the platform (spec 3 §2 manager overview, ADR 0049).
 */
export function OverviewRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  if (!user) return null;
  if (user.role === ROLE.manager)
    return (
      <Stack>
        <PageTitle>{t('admin.title')}</PageTitle>
        <ManagerOverview onOpenAgency={(a) => void navigate(`/overview/agencies/${a.id}`)} />
      </Stack>
    );
  const open = (rows: StoreRow[], to: string) => {
    selectStores(rows, user);
    void navigate(to);
  };
  return (
    <Stack>
      <PageTitle>{t('screens.overview.storesTitle')}</PageTitle>
      <StoreOverview
        user={user}
        onOpenDashboard={(row) => open([row], '/dashboard')}
        onViewReport={(rows) => open(rows, rows.length > 1 ? '/report-multiple' : '/report')}
      />
    </Stack>
  );
}
