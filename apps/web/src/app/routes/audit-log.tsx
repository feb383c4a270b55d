import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ROLE, type User } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { AuditLogView } from '../../features/audit-log/components/audit-log-view';
import { storeKeys, storeListCall } from '../../features/stores/api/stores-api';
import { useSession } from '../../lib/session';
import { PageTitle } from '../../components/ui/page-title';

/**
 * /audit-log (issue 12, ADR 0047): who changed what and when. A manager and an agency choose a
 * store among those they see; every other account reads its own store's history.
 */
export function AuditLogRoute() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user) return null;
  const many = user.role === ROLE.manager || user.role === ROLE.agency;
  return (
    <Stack>
      <PageTitle>{t('auditLog.title')}</PageTitle>
      <Text size="sm" c="dimmed">
        {many ? t('auditLog.leadMany') : t('auditLog.leadOwn')}
      </Text>
      {many ? <WithStores user={user} /> : <AuditLogView />}
    </Stack>
  );
}

function WithStores({ user }: { user: User }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const q = { page: 1, perPage: 100, search: debounced.trim() || undefined };
  const stores = useQuery({
    queryKey: storeKeys.list(user.id, q),
    queryFn: () => storeListCall(user, q),
    placeholderData: keepPreviousData,
  });
  const options = (stores.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }));
  return <AuditLogView stores={options} onStoreSearch={setSearch} />;
}
