import { Stack, Table, Text, Title } from '@mantine/core';
import type { StorePeriodReviews } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { formatCount } from './chart-colors';
import { ReportError } from './report-charts';
import { rateText, ratingText, useReplyTimeText } from './review-figures';

const m = 'screens.reviewMetrics';

/** One store's row: its name, then the single-store report's four figures, or `—` and why. */
function StoreReviewsRow({ name, r }: { name: string; r: StorePeriodReviews | undefined }) {
  const { t } = useTranslation();
  const p = r?.period ?? null;
  const replyTime = useReplyTimeText(p?.median_reply_hours);
  // Never zeros for a store Tenpo cannot see: `—`, and the reason under the name.
  const reason = r && r.status !== 'ready' ? t(`${m}.reasons.${r.status}`) : null;
  const none = reason ? t('screens.overview.reviewsNone', { reason }) : undefined;
  const cell = (label: string, value: string, testId: string) => (
    <Table.Td
      data-label={label}
      aria-label={none ? `${label}: ${none}` : undefined}
      title={none}
      data-testid={testId}
      style={{ whiteSpace: 'nowrap' }}
    >
      {value}
    </Table.Td>
  );
  return (
    <Table.Tr>
      <Table.Td
        data-label={t('screens.overview.columns.name')}
        fw={500}
        style={{ overflowWrap: 'anywhere' }}
      >
        {name}
        {reason && (
          <Text size="xs" c="dimmed" fw={400}>
            {reason}
          </Text>
        )}
      </Table.Td>
      {cell(t(`${m}.average`), ratingText(p?.average_rating), 'store-reviews-average')}
      {cell(
        t(`${m}.count`),
        p ? t(`${m}.countValue`, { n: formatCount(p.review_count) }) : '—',
        'store-reviews-count',
      )}
      {cell(t(`${m}.replyRate`), rateText(p?.reply_rate), 'store-reviews-reply-rate')}
      {cell(t(`${m}.replyTime`), replyTime, 'store-reviews-reply-time')}
    </Table.Tr>
  );
}

/**
 * The multi-store report's 口コミ (issue 25 item 7): a row a linked store with the single-store
 * report's figures over the range (average ★ held at its end, new reviews, reply rate, median
 * time to reply). Wide screens scroll it sideways; a phone shows each store as a card.
 */
export function StoreReviewsTable({
  names,
  reviews,
  range,
  error,
}: {
  /** The linked stores, as the report keys them. */
  names: string[];
  reviews: Record<string, StorePeriodReviews> | undefined;
  range: { start_date: string; end_date: string };
  error: boolean;
}) {
  const { t } = useTranslation();
  const title = t(`${m}.reportTitle`, {
    start: range.start_date.replaceAll('-', '/'),
    end: range.end_date.replaceAll('-', '/'),
  });
  return (
    <Stack gap="sm" component="section" aria-label={title} data-testid="report-store-reviews">
      <Title order={3} fz="lg">
        {title}
      </Title>
      {error ? (
        <ReportError />
      ) : (
        <>
          <Table.ScrollContainer minWidth={640} className="cards-on-phone">
            <Table striped withTableBorder verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('screens.overview.columns.name')}</Table.Th>
                  <Table.Th>{t(`${m}.average`)}</Table.Th>
                  <Table.Th>{t(`${m}.count`)}</Table.Th>
                  <Table.Th>{t(`${m}.replyRate`)}</Table.Th>
                  <Table.Th>{t(`${m}.replyTime`)}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {names.map((n) => (
                  <StoreReviewsRow key={n} name={n} r={reviews?.[n]} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Text size="xs" c="dimmed">
            {t(`${m}.averageHint`)}。{t(`${m}.note`)}
          </Text>
        </>
      )}
    </Stack>
  );
}
