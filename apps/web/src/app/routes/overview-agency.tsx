import { Anchor, Group, Image, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { StoreRow } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../components/ui/error-alert';
import { adminKeys, agencyCall } from '../../features/admin/api/admin-api';
import { StoreOverview } from '../../features/stores/components/store-overview';
import { errorLines } from '../../lib/api-client';
import { selectStores } from '../../lib/selection';
import { useSession } from '../../lib/session';
import { PageTitle } from '../../components/ui/page-title';

/**
 * /overview/agencies/{id} (manager only): the agency store overview of spec 3 §2 for one
 * agency: its groups in the selector, its stores (each with its dashboard button), and the
 * group create/update modal over the manager's calls (/admin/groups, /admin/stores).
 */
export function OverviewAgencyRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const id = Number(useParams().id);
  const agency = useQuery({
    queryKey: adminKeys.agency(id),
    queryFn: () => agencyCall(id),
    enabled: Number.isInteger(id) && id > 0,
  });
  if (!user) return null;
  if (!Number.isInteger(id) || id <= 0 || agency.isError)
    return (
      <ErrorAlert
        lines={agency.isError ? errorLines(agency.error) : [t('screens.overview.empty')]}
      />
    );
  const open = (rows: StoreRow[], to: string) => {
    selectStores(rows, user);
    void navigate(to);
  };
  const name = agency.data?.company_name ?? agency.data?.email ?? '';
  return (
    <Stack>
      <Anchor component={Link} to="/overview" size="sm">
        {t('admin.backToOverview')}
      </Anchor>
      <Group gap="sm">
        {agency.data?.logo_url && (
          <Image src={agency.data.logo_url} alt={name} h={32} w={32} fit="contain" />
        )}
        <PageTitle>{agency.data ? t('admin.agencyStoresTitle', { name }) : ''}</PageTitle>
      </Group>
      {/* Keyed by the agency: another agency's page starts with no group chosen. */}
      <StoreOverview
        key={id}
        user={user}
        agencyId={id}
        onOpenDashboard={(row) => open([row], '/dashboard')}
        onViewReport={(rows) => open(rows, rows.length > 1 ? '/report-multiple' : '/report')}
      />
    </Stack>
  );
}
