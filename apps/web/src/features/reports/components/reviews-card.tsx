import { useDeferredValue } from 'react';
import { Stack } from '@mantine/core';
import { DASHBOARD_RANGES, type ReviewMetrics } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useBoxData } from '../use-dashboard';
import { ChartCard, chartState, PeriodSelect } from './chart-card';
import { ReviewFigureGrid, ReviewStatusNote, SyncedAt } from './review-figures';
import { ReviewTrend } from './review-trend';

/**
 * The dashboard's 口コミ card (issue 25 item 7): the average ★ held, the new reviews, the reply
 * rate and the time to reply over its own period, with a small trend. Its figures ride on
 * box-data's answer: with the same period as the boxes the two cards share one call.
 */
export function ReviewsCard({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const box = useBoxData(userId);
  const data = useDeferredValue(box.query.data);
  // An answer without the object (a server before issue 25 item 7) draws as no data.
  const metrics: ReviewMetrics | undefined = data?.reviews;
  const title = t('screens.reviewMetrics.title');
  return (
    <ChartCard
      title={title}
      minHeight={120}
      action={
        <PeriodSelect
          label={`${title} ${t('screens.dashboard.period')}`}
          value={box.range}
          options={DASHBOARD_RANGES}
          onChange={box.setRange}
        />
      }
      state={chartState(box.query, !metrics)}
    >
      {metrics &&
        (metrics.status === 'ready' ? (
          <Stack gap="sm">
            <ReviewFigureGrid metrics={metrics} />
            <ReviewTrend series={metrics.series} label={t('screens.reviewMetrics.trend')} />
            <SyncedAt at={metrics.synced_at} />
          </Stack>
        ) : (
          <ReviewStatusNote metrics={metrics} />
        ))}
    </ChartCard>
  );
}
