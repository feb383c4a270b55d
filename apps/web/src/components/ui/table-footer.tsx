import { Button, Group, Pagination, Select, Text } from '@mantine/core';
import { PAGE_SIZE_OPTIONS, type Page } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';

/**
 * Under a paged table: 'Showing x to y of z entries', and the page buttons (5 shown, spec 1 §9),
 * with a per-page choice of 5, 10, 25, 50 when `onPerPage` is given.
 */
export function TableFooter({
  page,
  onPage,
  onPerPage,
}: {
  page: Pick<Page<unknown>, 'current_page' | 'last_page' | 'per_page' | 'total' | 'from' | 'to'>;
  onPage: (page: number) => void;
  onPerPage?: (perPage: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {t('common.showing', { total: page.total, from: page.from ?? 0, to: page.to ?? 0 })}
      </Text>
      <Group>
        {onPerPage && (
          <Select
            aria-label={t('common.perPage')}
            w={90}
            data={PAGE_SIZE_OPTIONS.map(String)}
            value={String(page.per_page)}
            onChange={(v) => onPerPage(Number(v ?? PAGE_SIZE_OPTIONS[0]))}
            allowDeselect={false}
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
