import type { Ref } from 'react';
import { Alert, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IMPRESSION_FIELDS,
  REACTION_FIELDS,
  type FixedReport,
  type MonthFigures,
  type YearSeries,
} from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ChartCard, type ChartState } from './chart-card';
import { METRIC_COLORS, YEAR_COLORS } from './chart-colors';
import { BarChart } from './charts';

const sum = (xs: number[]) => xs.reduce((a, b) => a + (Number(b) || 0), 0);

/** The report failed: a red message replaces the charts (spec 3 §2, §8). */
export function ReportError() {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" role="alert" data-testid="report-error">
      {t('screens.report.error')}
    </Alert>
  );
}

/**
 * The three adjustment-period charts over `columns` (months of one store, or stores): customer
 * search stacked by source, listing views from search keywords, customer actions stacked.
 */
export function AdjustmentCharts({
  labels,
  figures,
  pending,
}: {
  labels: string[];
  figures: MonthFigures[];
  pending: boolean;
}) {
  const { t } = useTranslation();
  const f = (field: keyof MonthFigures) => figures.map((m) => Number(m[field] ?? 0));
  const state = (values: number[]): ChartState =>
    pending ? 'loading' : sum(values) === 0 ? 'empty' : 'ready';
  const search = IMPRESSION_FIELDS.flatMap((k) => f(k));
  const actions = REACTION_FIELDS.flatMap((k) => f(k));
  return (
    <Stack gap="md">
      <ChartCard title={t('screens.report.customerSearch')} state={state(search)}>
        <BarChart
          stacked
          label={t('screens.report.customerSearch')}
          labels={labels}
          series={IMPRESSION_FIELDS.map((k) => ({
            label: t(`screens.report.metrics.${k}`),
            data: f(k),
            color: METRIC_COLORS[k],
          }))}
        />
      </ChartCard>
      <ChartCard title={t('screens.report.listingViews')} state={state(f('search_keywords'))}>
        <BarChart
          label={t('screens.report.listingViews')}
          labels={labels}
          series={[
            {
              label: t('screens.report.metrics.search_keywords'),
              data: f('search_keywords'),
              color: METRIC_COLORS.search_keywords,
            },
          ]}
        />
      </ChartCard>
      <ChartCard title={t('screens.report.customerActions')} state={state(actions)}>
        <BarChart
          stacked
          label={t('screens.report.customerActions')}
          labels={labels}
          series={REACTION_FIELDS.map((k) => ({
            label: t(`screens.report.metrics.${k}`),
            data: f(k),
            color: METRIC_COLORS[k],
          }))}
        />
      </ChartCard>
    </Stack>
  );
}

/**
 * The report's first PDF page: its title, the range, and the adjustment-period charts (or the
 * report error in their place). Shared by /report (months) and /report-multiple (stores).
 */
export function AdjustmentPage({
  pageRef,
  title,
  range,
  error,
  labels,
  figures,
  pending,
}: {
  pageRef: Ref<HTMLDivElement>;
  title: string;
  range: { start_date: string; end_date: string };
  error: boolean;
  labels: string[];
  figures: () => MonthFigures[];
  pending: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" ref={pageRef} p="xs" data-testid="report-page-1">
      <Group justify="space-between">
        <Title order={3} fz="lg">
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {t('screens.report.range', {
            start: range.start_date.replaceAll('-', '/'),
            end: range.end_date.replaceAll('-', '/'),
          })}
        </Text>
      </Group>
      {error ? (
        <ReportError />
      ) : (
        <AdjustmentCharts labels={labels} figures={figures()} pending={pending} />
      )}
    </Stack>
  );
}

/** This year against last year, month by month (spec 3 §2 fixed period). */
export function YearlyCharts({
  data,
  pending,
}: {
  data: FixedReport | undefined;
  pending: boolean;
}) {
  const { t } = useTranslation();
  const charts = [
    ['discoverySearch', data?.search_graph],
    ['mapsListing', data?.impressions_graph],
    ['yearlyActions', data?.reactions_graph],
  ] as const;
  return (
    <SimpleGrid cols={1} spacing="md">
      {charts.map(([key, g]) => {
        // `MM` keys: '10' to '12' are integer-like, which JavaScript puts before '01'.
        const months = Object.keys({ ...g?.latest_year, ...g?.current_year }).sort();
        const pick = (y: YearSeries | undefined) => months.map((m) => Number(y?.[m] ?? 0));
        const all = [...pick(g?.current_year), ...pick(g?.latest_year)];
        const title = t(`screens.report.${key}`);
        return (
          <ChartCard
            key={key}
            title={title}
            state={pending || !g ? 'loading' : sum(all) === 0 ? 'empty' : 'ready'}
            minHeight={220}
          >
            <BarChart
              label={title}
              height={220}
              labels={months.map((m) => t('screens.report.monthLabel', { month: Number(m) }))}
              series={[
                {
                  label: t('screens.report.lastYear'),
                  data: pick(g?.latest_year),
                  color: YEAR_COLORS.lastYear,
                },
                {
                  label: t('screens.report.thisYear'),
                  data: pick(g?.current_year),
                  color: YEAR_COLORS.thisYear,
                },
              ]}
            />
          </ChartCard>
        );
      })}
    </SimpleGrid>
  );
}
