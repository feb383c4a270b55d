import { Badge, Button, Checkbox, Table } from '@mantine/core';
import { formatThousands, storeOptionDisabled, type StoreRow } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { EmptyRow } from '@/components/ui/table-footer';

const c = 'screens.overview.columns';

/**
 * The row's reviews (issue 25 item 7): the average ★ held and the reviews without a reply, as
 * Tenpo's copy holds them now; `—` with the reason for a store not connected or not read yet.
 */
function ReviewCells({ r }: { r: StoreRow }) {
  const { t } = useTranslation();
  const s = r.reviews;
  if (!s || s.status !== 'ready') {
    const reason =
      s?.status === 'not_connected'
        ? t('screens.reviewMetrics.reasons.not_connected')
        : t('screens.reviewMetrics.reasons.not_synced');
    const label = s ? t('screens.overview.reviewsNone', { reason }) : undefined;
    return (
      <>
        <Table.Td data-label={t(`${c}.average_rating`)} aria-label={label} title={label}>
          —
        </Table.Td>
        <Table.Td data-label={t(`${c}.unreplied`)} aria-label={label} title={label}>
          —
        </Table.Td>
      </>
    );
  }
  return (
    <>
      <Table.Td data-label={t(`${c}.average_rating`)} data-testid={`store-rating-${r.id}`}>
        {s.average_rating === null ? '—' : `★ ${s.average_rating.toFixed(1)}`}
      </Table.Td>
      <Table.Td data-label={t(`${c}.unreplied`)} data-testid={`store-unreplied-${r.id}`}>
        {s.unreplied_count > 0 ? (
          <Badge color="orange" variant="light" miw="max-content">
            {formatThousands(s.unreplied_count)}
          </Badge>
        ) : (
          formatThousands(s.unreplied_count)
        )}
      </Table.Td>
    </>
  );
}

/** One store of the overview: its checkbox, figures, Google and status badges, dashboard button. */
function StoreOverviewRow({
  r,
  checked,
  onToggle,
  onOpenDashboard,
  withReviews,
}: {
  r: StoreRow;
  withReviews: boolean;
  checked: boolean;
  onToggle: (r: StoreRow, on: boolean) => void;
  onOpenDashboard: (row: StoreRow) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.Tr data-testid={`store-row-${r.id}`}>
      <Table.Td>
        <Checkbox
          aria-label={r.name}
          checked={checked}
          onChange={(e) => onToggle(r, e.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td data-label={t(`${c}.id`)}>{r.id}</Table.Td>
      <Table.Td data-label={t(`${c}.company_name`)}>{r.company_name}</Table.Td>
      {/* A long name wraps, even without spaces, instead of squeezing the badges. */}
      <Table.Td data-label={t(`${c}.name`)} fw={500} style={{ overflowWrap: 'anywhere' }}>
        {r.name}
      </Table.Td>
      <Table.Td data-label={t(`${c}.person_in_charge`)}>{r.person_in_charge}</Table.Td>
      <Table.Td data-label={t(`${c}.email`)}>{r.email}</Table.Td>
      <Table.Td data-label={t(`${c}.google_status`)}>
        {/* A badge's label truncates (未…) when its column is squeezed: keep it whole. */}
        <Badge color={r.google_status === 1 ? 'teal' : 'gray'} variant="light" miw="max-content">
          {r.google_status === 1
            ? t('screens.overview.googleConnected')
            : t('screens.overview.googleNotConnected')}
        </Badge>
      </Table.Td>
      <Table.Td data-label={t(`${c}.status`)}>
        <Badge color={r.status === 0 ? 'red' : 'blue'} variant="dot" miw="max-content">
          {r.status === 0 ? t('screens.overview.inactive') : t('screens.overview.active')}
        </Badge>
      </Table.Td>
      {withReviews && <ReviewCells r={r} />}
      <Table.Td data-label={t(`${c}.actions`)}>
        <Button
          size="xs"
          variant="light"
          disabled={storeOptionDisabled(r, 'single')}
          onClick={() => onOpenDashboard(r)}
          aria-label={`${r.name} ${t('screens.overview.dashboard')}`}
        >
          {t('screens.overview.dashboard')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

/** The overview's table of stores: a checkbox column, the store's figures, a dashboard button. */
export function StoreOverviewTable({
  rows,
  isChecked,
  onToggle,
  onOpenDashboard,
  withReviews = false,
}: {
  /** The page's stores; undefined while none has been answered. */
  rows: StoreRow[] | undefined;
  isChecked: (r: StoreRow) => boolean;
  onToggle: (r: StoreRow, on: boolean) => void;
  onOpenDashboard: (row: StoreRow) => void;
  /** The reviews' columns (agency and group-leader lists, a manager's view of one agency). */
  withReviews?: boolean;
}) {
  const { t } = useTranslation();
  const columns = withReviews ? 11 : 9;
  return (
    <Table.ScrollContainer minWidth={withReviews ? 1000 : 860} className="cards-on-phone">
      <Table striped highlightOnHover withTableBorder verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40} />
            <Table.Th>{t(`${c}.id`)}</Table.Th>
            <Table.Th>{t(`${c}.company_name`)}</Table.Th>
            <Table.Th>{t(`${c}.name`)}</Table.Th>
            <Table.Th>{t(`${c}.person_in_charge`)}</Table.Th>
            <Table.Th>{t(`${c}.email`)}</Table.Th>
            <Table.Th>{t(`${c}.google_status`)}</Table.Th>
            <Table.Th>{t(`${c}.status`)}</Table.Th>
            {withReviews && (
              <>
                <Table.Th>{t(`${c}.average_rating`)}</Table.Th>
                <Table.Th>{t(`${c}.unreplied`)}</Table.Th>
              </>
            )}
            <Table.Th>{t(`${c}.actions`)}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows && rows.length === 0 && (
            <EmptyRow columns={columns} text={t('screens.overview.empty')} />
          )}
          {rows?.map((r) => (
            <StoreOverviewRow
              key={r.id}
              r={r}
              checked={isChecked(r)}
              onToggle={onToggle}
              onOpenDashboard={onOpenDashboard}
              withReviews={withReviews}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
