import { Alert, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReviewMetrics } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ChartCard, type ChartState } from './chart-card';
import { METRIC_COLORS } from './chart-colors';
import { BarChart, LineChart } from './charts';
import { ReviewFigureGrid, ReviewStatusNote, SyncedAt } from './review-figures';

const CHART_HEIGHT = 200;

/**
 * The report's 口コミ section (issue 25 item 7), over the slider's range, a month a bar: the
 * period's four figures, new reviews a month, and the average held at each month's end. It is
 * drawn in the report's second PDF page, under the yearly comparison.
 */
export function ReviewsReport({
  metrics,
  range,
  pending,
  error,
}: {
  metrics: ReviewMetrics | undefined;
  range: { start_date: string; end_date: string };
  pending: boolean;
  error: boolean;
}) {
  const { t } = useTranslation();
  const months = metrics ? Object.keys(metrics.series).sort() : [];
  const state: ChartState = pending
    ? 'loading'
    : !metrics || months.length === 0
      ? 'empty'
      : 'ready';
  const counts = months.map((m) => metrics?.series[m]?.review_count ?? 0);
  // Chart.js leaves a gap for null: a month before the first review has no average.
  const averages = months.map((m) => metrics?.series[m]?.average_rating ?? null);
  return (
    <Stack
      gap="md"
      component="section"
      aria-label={t('screens.reviewMetrics.title')}
      data-testid="report-reviews"
    >
      <Title order={3} fz="lg">
        {t('screens.reviewMetrics.reportTitle', {
          start: range.start_date.replaceAll('-', '/'),
          end: range.end_date.replaceAll('-', '/'),
        })}
      </Title>
      {error ? (
        // The first page already says it as the report's error; this one only for this page.
        <Alert color="red" variant="light" data-testid="report-reviews-error">
          {t('screens.report.error')}
        </Alert>
      ) : metrics && metrics.status !== 'ready' ? (
        <Card withBorder radius="md" padding="lg">
          <ReviewStatusNote metrics={metrics} />
        </Card>
      ) : (
        <>
          {metrics && (
            <Card withBorder radius="md" padding="lg">
              <ReviewFigureGrid metrics={metrics} />
            </Card>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <ChartCard
              title={t('screens.reviewMetrics.countChart')}
              state={state}
              minHeight={CHART_HEIGHT}
            >
              <BarChart
                label={t('screens.reviewMetrics.countChart')}
                height={CHART_HEIGHT}
                labels={months}
                series={[
                  {
                    label: t('screens.reviewMetrics.countSeries'),
                    data: counts,
                    color: METRIC_COLORS.search_keywords,
                  },
                ]}
              />
            </ChartCard>
            <ChartCard
              title={t('screens.reviewMetrics.averageChart')}
              state={state}
              minHeight={CHART_HEIGHT}
            >
              <LineChart
                label={t('screens.reviewMetrics.averageChart')}
                height={CHART_HEIGHT}
                labels={months}
                series={[
                  {
                    label: t('screens.reviewMetrics.averageSeries'),
                    data: averages,
                    color: '#f59f00',
                  },
                ]}
              />
            </ChartCard>
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t('screens.reviewMetrics.note')}
          </Text>
          {metrics && <SyncedAt at={metrics.synced_at} />}
        </>
      )}
    </Stack>
  );
}
