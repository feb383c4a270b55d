import { Fragment, useState } from 'react';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditRow } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { errorLines } from '@/lib/api-client';
import { positionOf } from '@/lib/keyset-pager';
import { tokyoDateTime } from '@/lib/format';
import { auditKeys, auditLogCall, type AuditFilters } from '../api/audit-log-api';
import { AuditChanges } from './audit-changes';

export type StoreOption = { value: string; label: string };

/**
 * The change history (issue 12, ADR 0047): filters (the store for those who see several, what,
 * how, when, who), a paged table newest first, and each row's values before → after.
 */
export function AuditLogView({
  stores,
  onStoreSearch,
}: {
  /** The stores the user may pick from; absent for a user who sees only its own. */
  stores?: StoreOption[];
  onStoreSearch?: (search: string) => void;
}) {
  const { t } = useTranslation();
  const [f, setF] = useState<AuditFilters>({
    storeId: null,
    entity: null,
    action: null,
    actor: '',
    from: '',
    to: '',
    page: 1,
  });
  const [actor] = useDebouncedValue(f.actor, 400);
  const filters = { ...f, actor };
  const list = useQuery({
    queryKey: auditKeys.list(filters),
    queryFn: () => auditLogCall(filters),
    placeholderData: keepPreviousData,
  });
  const [open, setOpen] = useState<number | null>(null);
  // A filter changed: page 1, no cursor. The next and previous pages go by cursor (ADR 0098).
  const set = (patch: Partial<AuditFilters>) =>
    setF((x) => ({ ...x, page: 1, after: undefined, before: undefined, ...patch }));
  const entityLabel = (e: string) => t(`auditLog.entities.${e}`, { defaultValue: e });
  const actionLabel = (a: string) => t(`auditLog.actions.${a}`, { defaultValue: a });
  const who = (r: AuditRow) => r.actor?.email ?? t('auditLog.system');
  const rows = list.data?.data ?? [];
  const meta = list.data?.meta;
  const toPage = (page: number) =>
    setF((x) => ({
      ...x,
      after: undefined,
      before: undefined,
      ...positionOf(
        page,
        list.data && {
          current_page: list.data.meta.current_page,
          next_cursor: list.data.next_cursor,
          prev_cursor: list.data.prev_cursor,
        },
      ),
    }));

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap" gap="sm">
        {stores && (
          <Select
            label={t('auditLog.filters.store')}
            placeholder={t('auditLog.filters.all')}
            data={stores}
            value={f.storeId === null ? null : String(f.storeId)}
            onChange={(v) => set({ storeId: v ? Number(v) : null })}
            onSearchChange={onStoreSearch}
            searchable
            clearable
            nothingFoundMessage={t('auditLog.filters.noStore')}
            w={240}
          />
        )}
        <Select
          label={t('auditLog.filters.entity')}
          placeholder={t('auditLog.filters.all')}
          data={AUDIT_ENTITIES.map((e) => ({ value: e, label: entityLabel(e) }))}
          value={f.entity}
          onChange={(v) => set({ entity: v })}
          clearable
          w={160}
        />
        <Select
          label={t('auditLog.filters.action')}
          placeholder={t('auditLog.filters.all')}
          data={AUDIT_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) }))}
          value={f.action}
          onChange={(v) => set({ action: v })}
          clearable
          w={140}
        />
        <TextInput
          type="date"
          label={t('auditLog.filters.from')}
          value={f.from}
          onChange={(e) => set({ from: e.currentTarget.value })}
          w={160}
        />
        <TextInput
          type="date"
          label={t('auditLog.filters.to')}
          value={f.to}
          onChange={(e) => set({ to: e.currentTarget.value })}
          w={160}
        />
        <TextInput
          label={t('auditLog.filters.actor')}
          placeholder={t('auditLog.filters.actorHint')}
          value={f.actor}
          onChange={(e) => set({ actor: e.currentTarget.value })}
          w={240}
        />
      </Group>

      {list.isError && (
        <Alert color="red" role="alert">
          {errorLines(list.error).join('\n')}
        </Alert>
      )}
      {list.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : rows.length === 0 ? (
        <Text c="dimmed" py="lg" ta="center">
          {t('auditLog.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={800} className="cards-on-phone">
          <Table striped highlightOnHover aria-label={t('auditLog.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('auditLog.columns.at')}</Table.Th>
                <Table.Th>{t('auditLog.columns.actor')}</Table.Th>
                <Table.Th>{t('auditLog.columns.store')}</Table.Th>
                <Table.Th>{t('auditLog.columns.what')}</Table.Th>
                <Table.Th>{t('auditLog.columns.summary')}</Table.Th>
                <Table.Th>{t('auditLog.columns.detail')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Fragment key={r.id}>
                  <Table.Tr>
                    <Table.Td
                      data-label={t('auditLog.columns.at')}
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {tokyoDateTime(new Date(r.at))}
                    </Table.Td>
                    <Table.Td data-label={t('auditLog.columns.actor')}>{who(r)}</Table.Td>
                    <Table.Td data-label={t('auditLog.columns.store')}>
                      {r.store ? (r.store.name ?? `#${r.store.id}`) : '—'}
                    </Table.Td>
                    <Table.Td
                      data-label={t('auditLog.columns.what')}
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {t('auditLog.what', {
                        entity: entityLabel(r.entity),
                        action: actionLabel(r.action),
                      })}
                    </Table.Td>
                    <Table.Td data-label={t('auditLog.columns.summary')}>
                      {r.summary ?? ''}
                    </Table.Td>
                    <Table.Td data-label={t('auditLog.columns.detail')}>
                      <Button
                        size="compact-xs"
                        variant="light"
                        aria-expanded={open === r.id}
                        aria-label={t('auditLog.showDetail', { at: tokyoDateTime(new Date(r.at)) })}
                        onClick={() => setOpen(open === r.id ? null : r.id)}
                      >
                        {open === r.id ? t('auditLog.hide') : t('auditLog.show')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                  {open === r.id && (
                    <Table.Tr>
                      <Table.Td colSpan={6}>
                        <AuditChanges row={r} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {meta && meta.total > 0 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('auditLog.total', { total: meta.total })}
          </Text>
          <Pagination total={meta.last_page} value={meta.current_page} onChange={toPage} />
        </Group>
      )}
    </Stack>
  );
}
