import { useState } from 'react';
import { Button, Group, Loader, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { AGENCY_STORES_PER_PAGE, ROLE, type StoreRow, type User } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { TableFooter } from '@/components/ui/table-footer';
import { errorLines } from '@/lib/api-client';
import { FIRST_PAGE, positionOf, type PagePosition } from '@/lib/keyset-pager';
import { groupListCall, storeKeys, storeListCall } from '../api/stores-api';
import { GroupFormModal } from './group-form';
import { StoreOverviewTable } from './store-overview-table';

/**
 * The overview's store list (spec 3 §2 agency store overview): group selector, search, paged
 * table with checkboxes (5 per page; 5, 10, 25, 50), a dashboard button per row and a view
 * report button enabled when a chosen store is active.
 */
export function StoreOverview({
  user,
  agencyId,
  onOpenDashboard,
  onViewReport,
}: {
  user: User;
  /** A manager's view of one agency's stores (/overview/agencies/{id}). */
  agencyId?: number;
  onOpenDashboard: (row: StoreRow) => void;
  onViewReport: (rows: StoreRow[]) => void;
}) {
  const { t } = useTranslation();
  // The page shown; the next and previous pages are asked for by cursor (ADR 0098).
  const [pos, setPos] = useState<PagePosition>(FIRST_PAGE);
  const setPage = (page: number) => setPos({ page });
  const [perPage, setPerPage] = useState<number>(AGENCY_STORES_PER_PAGE);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [groupId, setGroupId] = useState<number | null>(null);
  const [checked, setChecked] = useState<StoreRow[]>([]);
  const [groupForm, setGroupForm] = useState<'create' | 'edit' | null>(null);
  const qc = useQueryClient();

  // A manager has groups here only on one agency's page (/overview/agencies/{id}).
  const withGroups = user.role !== ROLE.manager || agencyId !== undefined;
  const editsGroups = user.role === ROLE.agency || (user.role === ROLE.manager && !!agencyId);
  const groups = useQuery({
    queryKey: storeKeys.groups(user.id, agencyId),
    queryFn: () => groupListCall(user, agencyId),
    enabled: withGroups,
  });
  const q = { ...pos, perPage, search: debounced, groupId, agencyId };
  const list = useQuery({
    queryKey: storeKeys.list(user.id, q),
    queryFn: () => storeListCall(user, q),
    placeholderData: keepPreviousData,
  });

  const isChecked = (r: StoreRow) => checked.some((x) => x.id === r.id);
  const toggle = (r: StoreRow, on: boolean) =>
    setChecked((xs) =>
      on ? [...xs.filter((x) => x.id !== r.id), r] : xs.filter((x) => x.id !== r.id),
    );
  const canReport = checked.some((r) => r.status !== 0);
  const chosenGroup = groups.data?.find((g) => g.id === groupId) ?? null;
  const groupSaved = (message: string) => {
    setGroupForm(null);
    notifications.show({ color: 'teal', message, autoClose: 2000 });
    void qc.invalidateQueries({ queryKey: ['groups'] });
    void qc.invalidateQueries({ queryKey: ['stores'] });
  };
  const d = list.data;

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        {withGroups && (
          <Select
            label={t('screens.overview.group')}
            w={240}
            data={[
              { value: '', label: t('screens.overview.allGroups') },
              ...(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name })),
            ]}
            value={groupId === null ? '' : String(groupId)}
            onChange={(v) => {
              setGroupId(v ? Number(v) : null);
              setPage(1);
            }}
            allowDeselect={false}
          />
        )}
        <TextInput
          label={t('actions.search')}
          placeholder={t('screens.overview.searchPlaceholder')}
          w={300}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
        {editsGroups && (
          <>
            <Button variant="light" onClick={() => setGroupForm('create')}>
              {t('groups.create')}
            </Button>
            {/* Spec 3 §2: update group waits until a group is chosen in the selector. */}
            <Button
              variant="light"
              disabled={chosenGroup === null}
              onClick={() => setGroupForm('edit')}
            >
              {t('groups.edit')}
            </Button>
          </>
        )}
        <Button
          ml="auto"
          disabled={!canReport}
          onClick={() => onViewReport(checked.filter((r) => r.status !== 0))}
        >
          {t('screens.overview.viewReport')}
        </Button>
      </Group>

      {groupForm && (
        <GroupFormModal
          key={groupForm === 'edit' ? `edit-${chosenGroup?.id}` : 'create'}
          user={user}
          agencyId={agencyId}
          group={groupForm === 'edit' ? chosenGroup : null}
          opened
          onClose={() => setGroupForm(null)}
          onSaved={groupSaved}
        />
      )}

      {list.isError && <ErrorAlert lines={errorLines(list.error)} />}
      {list.isPending ? (
        <Loader />
      ) : (
        <StoreOverviewTable
          rows={d?.data}
          isChecked={isChecked}
          onToggle={toggle}
          onOpenDashboard={onOpenDashboard}
          withReviews={user.role !== ROLE.manager || agencyId !== undefined}
        />
      )}

      {d && (
        <TableFooter
          page={d}
          onPage={(p) => setPos(positionOf(p, d))}
          onPerPage={(n) => {
            setPerPage(n);
            setPage(1);
          }}
        />
      )}
    </Stack>
  );
}
