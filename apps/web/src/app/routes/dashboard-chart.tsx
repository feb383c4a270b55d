import { Anchor, Group, Stack, Text } from '@mantine/core';
import { DASHBOARD_RANGES, IMPRESSION_FIELDS } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PaymentGate } from '../../components/ui/payment-panels';
import { ChartCard, chartState, PeriodSelect } from '../../features/reports/components/chart-card';
import { formatCount, METRIC_COLORS } from '../../features/reports/components/chart-colors';
import { BarChart, LineChart } from '../../features/reports/components/charts';
import { allZero, shortDay, useDashboardChart } from '../../features/reports/use-dashboard';
import { useCurrentStore } from '../../lib/selection';
import { usePaymentState } from '../payment-state';
import { PageNotice, PageTitle } from '../../components/ui/page-title';

/**
 * /dashboard-chart (ADR 0037): the day-by-day series the dashboard sums up — views, where the
 * listing was seen, and calls — full width, each with its own period. These are the three
 * dashboard calls that /dashboard itself does not draw.
 */
export function DashboardChartRoute() {
  const { t } = useTranslation();
  const store = useCurrentStore();
  const payment = usePaymentState();
  if (!store) {
    return (
      <PageNotice title={t('screens.dashboard.chartTitle')}>
        {t('screens.dashboard.noStore')}
      </PageNotice>
    );
  }
  return (
    <PaymentGate state={payment} title={t('screens.dashboard.chartTitle')}>
      <Charts key={store.id} userId={store.id} />
    </PaymentGate>
  );
}

function Total({ value }: { value: number | undefined }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed">
      {t('screens.dashboard.total')}{' '}
      <Text span fw={700} c="dark">
        {formatCount(value ?? 0)}
      </Text>
    </Text>
  );
}

function Charts({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const views = useDashboardChart('customer-view', userId);
  const impressions = useDashboardChart('impressions-graph', userId);
  const calls = useDashboardChart('customer-call', userId);

  const viewData = views.query.data;
  const viewDays = viewData ? Object.keys(viewData.views ?? {}) : [];
  const impData = impressions.query.data;
  const impDays = impData ? Object.keys(impData.business_impressions_desktop_maps ?? {}) : [];
  const callData = calls.query.data;
  const callDays = callData ? Object.keys(callData.call_clicks ?? {}) : [];

  const select = (title: string, c: { range: string; setRange: (v: string) => void }) => (
    <PeriodSelect
      label={`${title} ${t('screens.dashboard.period')}`}
      value={c.range}
      options={DASHBOARD_RANGES}
      onChange={c.setRange}
    />
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <PageTitle>{t('screens.dashboard.chartTitle')}</PageTitle>
        <Anchor component={Link} to="/dashboard" size="sm">
          {t('screens.dashboard.title')}
        </Anchor>
      </Group>
      <ChartCard
        title={t('screens.dashboard.views')}
        action={
          <Group gap="md">
            {viewData && <Total value={viewData.total} />}
            {select(t('screens.dashboard.views'), views)}
          </Group>
        }
        state={chartState(views.query, !viewData || allZero(Object.values(viewData.views ?? {})))}
      >
        {viewData && (
          <LineChart
            label={t('screens.dashboard.views')}
            labels={viewDays.map(shortDay)}
            series={[
              {
                label: t('screens.dashboard.boxes.view'),
                data: viewDays.map((d) => viewData.views[d] ?? 0),
                color: METRIC_COLORS.business_impressions_desktop_maps,
              },
            ]}
          />
        )}
      </ChartCard>
      <ChartCard
        title={t('screens.dashboard.impressions')}
        action={select(t('screens.dashboard.impressions'), impressions)}
        state={chartState(
          impressions.query,
          !impData || allZero(IMPRESSION_FIELDS.flatMap((f) => Object.values(impData[f] ?? {}))),
        )}
      >
        {impData && (
          <BarChart
            stacked
            label={t('screens.dashboard.impressions')}
            labels={impDays.map(shortDay)}
            series={IMPRESSION_FIELDS.map((f) => ({
              label: t(`screens.report.metrics.${f}`),
              data: impDays.map((d) => impData[f]?.[d] ?? 0),
              color: METRIC_COLORS[f],
            }))}
          />
        )}
      </ChartCard>
      <ChartCard
        title={t('screens.dashboard.calls')}
        action={
          <Group gap="md">
            {callData && <Total value={callData.total} />}
            {select(t('screens.dashboard.calls'), calls)}
          </Group>
        }
        state={chartState(
          calls.query,
          !callData || allZero(Object.values(callData.call_clicks ?? {})),
        )}
      >
        {callData && (
          <BarChart
            label={t('screens.dashboard.calls')}
            labels={callDays.map(shortDay)}
            series={[
              {
                label: t('screens.report.metrics.call_clicks'),
                data: callDays.map((d) => callData.call_clicks[d] ?? 0),
                color: METRIC_COLORS.call_clicks,
              },
            ]}
          />
        )}
      </ChartCard>
    </Stack>
  );
}
