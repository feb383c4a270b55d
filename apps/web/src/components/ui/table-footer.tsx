import type { ReactNode } from 'react';
import { Button, Group, NativeSelect, Pagination, Radio, Table, Text } from '@mantine/core';
import { PAGE_SIZE_OPTIONS, type Page } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';

/**
 * Under a paged table: 'Showing x to y of z entries', and the page buttons (5 shown, spec 1 §9),
 * with a per-page choice of 5, 10, 25, 50 when `onPerPage` is given (a native select).
 */
export function TableFooter({
  page,
  onPage,
  onPerPage,
}: {
  page: Pick<Page<unknown>, 'current_page' | 'last_page' | 'per_page' | 'total' | 'from' | 'to'> & {
    /** The count stopped at a cap: `total` is a floor. */
    total_at_least?: boolean;
  };
  onPage: (page: number) => void;
  onPerPage?: (perPage: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {t(page.total_at_least ? 'common.showingAtLeast' : 'common.showing', {
          total: page.total.toLocaleString('ja-JP'),
          from: page.from ?? 0,
          to: page.to ?? 0,
        })}
      </Text>
      <Group>
        {onPerPage && (
          // The browser's own select: a phone's picker, and no positioned dropdown measured
          // while the table renders (issue 23 item 5).
          <NativeSelect
            aria-label={t('common.perPage')}
            w={90}
            data={PAGE_SIZE_OPTIONS.map(String)}
            value={String(page.per_page)}
            onChange={(e) => onPerPage(Number(e.currentTarget.value))}
          />
        )}
        <Pagination
          total={page.last_page}
          value={page.current_page}
          onChange={onPage}
          siblings={2}
        />
      </Group>
    </Group>
  );
}

/** Cancel and a Confirm that stays disabled until something is chosen (spec 1 §5). */
export function ChoiceActions({
  chosen,
  busy,
  onCancel,
  onConfirm,
}: {
  chosen: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('actions.cancel')}
      </Button>
      <Button disabled={!chosen} loading={busy} onClick={onConfirm}>
        {t('actions.confirm')}
      </Button>
    </Group>
  );
}

/**
 * The one row a table shows when it has nothing to list: `text`, or, when the list could not be
 * loaded, the reason (kept in the table, as the alert above it goes away after 2 s).
 */
export function EmptyRow({
  columns,
  text,
  error,
}: {
  columns: number;
  text: string;
  error?: string[] | null;
}) {
  return (
    <Table.Tr>
      <Table.Td colSpan={columns}>
        <Text c={error ? 'red' : 'dimmed'} ta="center">
          {error ? error.join(' ') : text}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * A row chosen by its radio (inside a Radio.Group) or by a click anywhere on it; the chosen
 * row is tinted. `children` are the cells after the radio.
 */
export function ChoiceRow({
  value,
  label,
  chosen,
  onChoose,
  children,
}: {
  value: string;
  label: string;
  chosen: boolean;
  onChoose: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <Table.Tr
      onClick={() => onChoose(value)}
      style={{ cursor: 'pointer' }}
      bg={chosen ? 'blue.0' : undefined}
    >
      <Table.Td>
        <Radio value={value} aria-label={label} />
      </Table.Td>
      {children}
    </Table.Tr>
  );
}
