import { useState, type ReactNode } from 'react';
import {
  Badge,
  Button,
  Group,
  Image,
  Loader,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PER_PAGE, ja, type AdminAgency, type AdminStoreRow } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { EmptyRow, TableFooter } from '@/components/ui/table-footer';
import { errorLines } from '@/lib/api-client';
import { FIRST_PAGE, positionOf, type PagePosition } from '@/lib/keyset-pager';
import {
  adminKeys,
  agencyListCall,
  type AdminListQuery,
  type AdminPage,
  customerListCall,
  deleteAgencyCall,
  deleteCustomerCall,
} from '../api/admin-api';
import { AgencyFormModal } from './agency-form-modal';
import { ConfirmDelete } from './confirm-delete';
import { CustomerFormModal } from './customer-form-modal';

/**
 * Search, a paged table (10 a page) and its footer; the page goes back when it empties. The
 * next and previous pages are asked for by cursor (`onPage`, ADR 0098), others by number.
 */
function usePagedList<T>(
  key: 'agencies' | 'customers',
  call: (q: AdminListQuery) => Promise<AdminPage<T>>,
) {
  const [pos, setPos] = useState<PagePosition>(FIRST_PAGE);
  const [perPage, setPerPage] = useState<number>(DEFAULT_PER_PAGE);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const q = { ...pos, perPage, search: debounced || undefined };
  const list = useQuery({
    queryKey: key === 'agencies' ? adminKeys.agencies(q) : adminKeys.customers(q),
    queryFn: () => call(q),
    placeholderData: keepPreviousData,
  });
  const setPage = (page: number) => setPos({ page });
  const onPage = (page: number) => setPos(positionOf(page, list.data));
  return { page: pos.page, setPage, onPage, perPage, setPerPage, search, setSearch, list };
}

function Logo({ url, name }: { url: string | null; name: string }) {
  const { t } = useTranslation();
  return url ? (
    <Image src={url} alt={name} h={28} w={28} fit="contain" radius="sm" />
  ) : (
    <Text size="xs" c="dimmed">
      {t('admin.noLogo')}
    </Text>
  );
}

function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Badge color={status === 0 ? 'red' : 'blue'} variant="dot" miw="max-content">
      {t(`admin.statuses.${status === 0 ? 0 : 1}`)}
    </Badge>
  );
}

function ListFrame({
  search,
  onSearch,
  placeholder,
  addLabel,
  onAdd,
  error,
  pending,
  footer,
  children,
}: {
  search: string;
  onSearch: (v: string) => void;
  placeholder: string;
  addLabel: string;
  onAdd: () => void;
  error: unknown;
  pending: boolean;
  footer: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack pt="md">
      <Group align="flex-end">
        <TextInput
          label={t('actions.search')}
          placeholder={placeholder}
          w={320}
          value={search}
          onChange={(e) => onSearch(e.currentTarget.value)}
        />
        <Button ml="auto" onClick={onAdd}>
          {addLabel}
        </Button>
      </Group>
      {error ? <ErrorAlert lines={errorLines(error)} /> : null}
      {pending ? <Loader /> : children}
      {footer}
    </Stack>
  );
}

function CustomersTab() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const l = usePagedList('customers', customerListCall);
  const [editing, setEditing] = useState<AdminStoreRow | null | 'new'>(null);
  const [deleting, setDeleting] = useState<AdminStoreRow | null>(null);
  const c = 'admin.columns';
  const d = l.list.data;
  const refresh = () => qc.invalidateQueries({ queryKey: adminKeys.all });

  return (
    <>
      <ListFrame
        search={l.search}
        onSearch={(v) => {
          l.setSearch(v);
          l.setPage(1);
        }}
        placeholder={t('admin.searchCustomers')}
        addLabel={t('admin.addCustomer')}
        onAdd={() => setEditing('new')}
        error={l.list.error}
        pending={l.list.isPending}
        footer={
          d && (
            <TableFooter
              page={d}
              onPage={l.onPage}
              onPerPage={(n) => {
                l.setPerPage(n);
                l.setPage(1);
              }}
            />
          )
        }
      >
        <Table.ScrollContainer minWidth={1000} className="cards-on-phone">
          <Table
            striped
            highlightOnHover
            withTableBorder
            verticalSpacing="sm"
            aria-label={t('admin.customersTab')}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.id`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.logo`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.store_name`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.company_name`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.email`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.app_name`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.payment_method`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.google_status`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.status`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.actions`)}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {d && d.data.length === 0 && <EmptyRow columns={10} text={t('admin.empty')} />}
              {d?.data.map((r) => (
                <Table.Tr key={r.id} data-testid={`customer-row-${r.id}`}>
                  <Table.Td data-label={t(`${c}.id`)}>{r.id}</Table.Td>
                  <Table.Td data-label={t(`${c}.logo`)}>
                    <Logo url={r.logo_url} name={r.name} />
                  </Table.Td>
                  <Table.Td
                    data-label={t(`${c}.store_name`)}
                    fw={500}
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {r.name}
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.company_name`)}>{r.company_name}</Table.Td>
                  <Table.Td data-label={t(`${c}.email`)}>{r.email}</Table.Td>
                  <Table.Td data-label={t(`${c}.app_name`)}>
                    {r.app_name ?? t('admin.defaultApp')}
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.payment_method`)}>
                    {t(`admin.paymentMethods.${r.payment_method}`)}
                    {r.payment_fail && (
                      <Badge color="red" variant="light" ml={6} miw="max-content">
                        {t('admin.paymentFailed')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.google_status`)}>
                    <Badge
                      color={r.google_status === 1 ? 'teal' : 'gray'}
                      variant="light"
                      miw="max-content"
                    >
                      {r.google_status === 1
                        ? t('screens.overview.googleConnected')
                        : t('screens.overview.googleNotConnected')}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.status`)}>
                    <StatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.actions`)}>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => setEditing(r)}
                        aria-label={`${r.name} ${t('admin.edit')}`}
                      >
                        {t('admin.edit')}
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setDeleting(r)}
                        aria-label={`${r.name} ${t('admin.delete')}`}
                      >
                        {t('admin.delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </ListFrame>
      {editing !== null && (
        <CustomerFormModal
          customer={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
        />
      )}
      {deleting && (
        <ConfirmDelete
          opened
          title={t('admin.deleteCustomerTitle')}
          body={t('admin.deleteCustomerBody', { name: deleting.name })}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            const r = await deleteCustomerCall(deleting.id);
            notifications.show({
              color: 'teal',
              message: r.message ?? ja.deleteSuccess,
              autoClose: 2000,
            });
            setDeleting(null);
            // The last row of a page went: show the page before it.
            if (d && d.data.length === 1 && l.page > 1) l.setPage(l.page - 1);
            await refresh();
          }}
        />
      )}
    </>
  );
}

function AgenciesTab({ onOpenAgency }: { onOpenAgency: (a: AdminAgency) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const l = usePagedList('agencies', agencyListCall);
  const [editing, setEditing] = useState<AdminAgency | null | 'new'>(null);
  const [deleting, setDeleting] = useState<AdminAgency | null>(null);
  const c = 'admin.columns';
  const d = l.list.data;
  const refresh = () => qc.invalidateQueries({ queryKey: adminKeys.all });
  const nameOf = (a: AdminAgency) => a.company_name ?? a.email;

  return (
    <>
      <ListFrame
        search={l.search}
        onSearch={(v) => {
          l.setSearch(v);
          l.setPage(1);
        }}
        placeholder={t('admin.searchAgencies')}
        addLabel={t('admin.addAgency')}
        onAdd={() => setEditing('new')}
        error={l.list.error}
        pending={l.list.isPending}
        footer={
          d && (
            <TableFooter
              page={d}
              onPage={l.onPage}
              onPerPage={(n) => {
                l.setPerPage(n);
                l.setPage(1);
              }}
            />
          )
        }
      >
        <Table.ScrollContainer minWidth={1100} className="cards-on-phone">
          <Table
            striped
            highlightOnHover
            withTableBorder
            verticalSpacing="sm"
            aria-label={t('admin.agenciesTab')}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.id`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.logo`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.company_name`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.email`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.app_name`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.prefix`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.payment_method`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.google_status`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.status`)}</Table.Th>
                <Table.Th style={{ whiteSpace: 'nowrap' }}>{t(`${c}.actions`)}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {d && d.data.length === 0 && <EmptyRow columns={10} text={t('admin.empty')} />}
              {d?.data.map((a) => (
                <Table.Tr key={a.id} data-testid={`agency-row-${a.id}`}>
                  <Table.Td data-label={t(`${c}.id`)}>{a.id}</Table.Td>
                  <Table.Td data-label={t(`${c}.logo`)}>
                    <Logo url={a.logo_url} name={nameOf(a)} />
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.company_name`)} fw={500}>
                    {nameOf(a)}
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.email`)}>{a.email}</Table.Td>
                  <Table.Td data-label={t(`${c}.app_name`)}>
                    <Group gap={6} wrap="nowrap">
                      {a.favicon_url && <Image src={a.favicon_url} alt="" h={16} w={16} />}
                      <span>{a.title ?? t('admin.defaultApp')}</span>
                    </Group>
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.prefix`)}>{a.prefix ?? '—'}</Table.Td>
                  <Table.Td data-label={t(`${c}.payment_method`)}>
                    {t(`admin.paymentMethods.${a.payment_method}`)}
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.google_status`)}>
                    <Badge
                      color={a.google_connected > 0 ? 'teal' : 'gray'}
                      variant="light"
                      miw="max-content"
                    >
                      {t('admin.googleCount', {
                        connected: a.google_connected,
                        total: a.store_count,
                      })}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.status`)}>
                    <StatusBadge status={a.status} />
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.actions`)}>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => onOpenAgency(a)}
                        aria-label={`${nameOf(a)} ${t('admin.stores')}`}
                      >
                        {t('admin.stores')}
                      </Button>
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => setEditing(a)}
                        aria-label={`${nameOf(a)} ${t('admin.edit')}`}
                      >
                        {t('admin.edit')}
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setDeleting(a)}
                        aria-label={`${nameOf(a)} ${t('admin.delete')}`}
                      >
                        {t('admin.delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </ListFrame>
      {editing !== null && (
        <AgencyFormModal
          agency={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
        />
      )}
      {deleting && (
        <ConfirmDelete
          opened
          title={t('admin.deleteAgencyTitle')}
          body={t('admin.deleteAgencyBody', {
            name: nameOf(deleting),
            count: deleting.store_count,
          })}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            const r = await deleteAgencyCall(deleting.id);
            notifications.show({
              color: 'teal',
              message: r.message ?? ja.deleteSuccess,
              autoClose: 3000,
            });
            setDeleting(null);
            if (d && d.data.length === 1 && l.page > 1) l.setPage(l.page - 1);
            await refresh();
          }}
        />
      )}
    </>
  );
}

/**
 * The manager's overview (spec 3 §2, spec 1 §2): customers of the platform and agencies, each
 * paged 10 with search, their payment method, status, Google status, app name and logo, and
 * their create, edit and delete actions (ADR 0049).
 */
export function ManagerOverview({ onOpenAgency }: { onOpenAgency: (a: AdminAgency) => void }) {
  const { t } = useTranslation();
  return (
    <Tabs defaultValue="customers" keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="customers">{t('admin.customersTab')}</Tabs.Tab>
        <Tabs.Tab value="agencies">{t('admin.agenciesTab')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="customers">
        <CustomersTab />
      </Tabs.Panel>
      <Tabs.Panel value="agencies">
        <AgenciesTab onOpenAgency={onOpenAgency} />
      </Tabs.Panel>
    </Tabs>
  );
}
