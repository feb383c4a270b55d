import type { ReactNode } from 'react';
import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReviewFigures, ReviewMetrics } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { tokyoDateTime } from '@/lib/format';
import { formatCount } from './chart-colors';

// The review metrics' figures (issue 25 item 7), shared by the dashboard's 口コミ card and the
// report's section: four figures and what a store without figures says instead.

const NONE = '—';

/** `★ 4.3`; no review held: `—`. */
export const ratingText = (r: number | null | undefined): string =>
  r === null || r === undefined ? NONE : `★ ${r.toFixed(1)}`;

/** `75%`, `57.1%`; nothing written in the period: `—`. */
export const rateText = (r: number | null | undefined): string =>
  r === null || r === undefined ? NONE : `${r}%`;

/** Hours as minutes (under one), hours (under 48) or days, rounded to one decimal. */
export const replyTimeParts = (h: number): { unit: 'minutes' | 'hours' | 'days'; n: number } =>
  h < 1
    ? { unit: 'minutes', n: Math.round(h * 60) }
    : h < 48
      ? { unit: 'hours', n: Math.round(h * 10) / 10 }
      : { unit: 'days', n: Math.round((h / 24) * 10) / 10 };

/** The median time to reply, in words; none: `—`. */
export function useReplyTimeText(h: number | null | undefined): string {
  const { t } = useTranslation();
  if (h === null || h === undefined) return NONE;
  const { unit, n } = replyTimeParts(h);
  return unit === 'minutes'
    ? t('screens.reviewMetrics.minutes', { n })
    : unit === 'hours'
      ? t('screens.reviewMetrics.hours', { n })
      : t('screens.reviewMetrics.days', { n });
}

function Figure({
  label,
  value,
  hint,
  badge,
  testId,
}: {
  label: string;
  value: string;
  hint?: ReactNode;
  badge?: ReactNode;
  testId: string;
}) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Group gap="xs" align="center" wrap="wrap">
        <Text
          fw={700}
          fz={26}
          lh={1.2}
          style={{ whiteSpace: 'nowrap' }}
          data-testid={`${testId}-value`}
        >
          {value}
        </Text>
        {badge}
      </Group>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}

/** The average's move over the period, against the average held when it began. */
function TrendBadge({ from, to }: { from: number | null; to: number | null }) {
  const { t } = useTranslation();
  if (from === null || to === null) return null;
  const delta = Math.round((to - from) * 100) / 100;
  const short = delta > 0 ? `+${delta.toFixed(2)}` : delta < 0 ? delta.toFixed(2) : '±0';
  const text =
    delta > 0
      ? t('screens.reviewMetrics.trendUp', { delta: delta.toFixed(2) })
      : delta < 0
        ? t('screens.reviewMetrics.trendDown', { delta: delta.toFixed(2) })
        : t('screens.reviewMetrics.trendFlat');
  // The figure's column is narrow: the badge says the move, its name says since when.
  return (
    <Badge
      variant="light"
      color={delta > 0 ? 'teal' : delta < 0 ? 'red' : 'gray'}
      miw="max-content"
      title={text}
      aria-label={text}
      data-testid="reviews-trend"
    >
      {short}
    </Badge>
  );
}

/** The four figures of a period: average ★ (and its move), new reviews, reply rate and time. */
export function ReviewFigureGrid({ metrics }: { metrics: ReviewMetrics }) {
  const { t } = useTranslation();
  const p: ReviewFigures | null = metrics.period;
  const replyTime = useReplyTimeText(p?.median_reply_hours);
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
      <Figure
        testId="reviews-average"
        label={t('screens.reviewMetrics.average')}
        value={ratingText(p?.average_rating)}
        badge={<TrendBadge from={metrics.starting_average_rating} to={p?.average_rating ?? null} />}
        hint={t('screens.reviewMetrics.averageHint')}
      />
      <Figure
        testId="reviews-count"
        label={t('screens.reviewMetrics.count')}
        value={p ? t('screens.reviewMetrics.countValue', { n: formatCount(p.review_count) }) : NONE}
        hint={
          p ? t('screens.reviewMetrics.totalHint', { n: formatCount(p.total_review_count) }) : null
        }
      />
      <Figure
        testId="reviews-reply-rate"
        label={t('screens.reviewMetrics.replyRate')}
        value={rateText(p?.reply_rate)}
        hint={
          p && p.review_count > 0
            ? t('screens.reviewMetrics.repliedHint', {
                total: formatCount(p.review_count),
                replied: formatCount(p.replied_count),
              })
            : null
        }
      />
      <Figure
        testId="reviews-reply-time"
        label={t('screens.reviewMetrics.replyTime')}
        value={replyTime}
        hint={t('screens.reviewMetrics.replyTimeHint')}
      />
    </SimpleGrid>
  );
}

/**
 * What a store without figures says in their place: not connected to Google, or its reviews
 * not read yet. Never zeros: a store Tenpo cannot see is not a store without reviews.
 */
export function ReviewStatusNote({ metrics }: { metrics: ReviewMetrics }) {
  const { t } = useTranslation();
  if (metrics.status === 'ready') return null;
  return (
    <Text c="dimmed" ta="center" py="lg" data-testid="reviews-status">
      {metrics.status === 'not_connected'
        ? t('screens.reviewMetrics.notConnected')
        : t('screens.reviewMetrics.notSynced')}
    </Text>
  );
}

/** When the copy was last read from Google, in Tokyo time. */
export function SyncedAt({ at }: { at: string | null }) {
  const { t } = useTranslation();
  if (!at) return null;
  return (
    <Text size="xs" c="dimmed">
      {t('screens.reviewMetrics.syncedAt', { at: tokyoDateTime(new Date(at)) })}
    </Text>
  );
}
