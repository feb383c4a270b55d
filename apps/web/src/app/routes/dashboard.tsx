import { Suspense, lazy, useDeferredValue } from 'react';
import { Anchor, Box, Grid, Group, Stack } from '@mantine/core';
import { DASHBOARD_RANGES, KEYWORD_RANGES, REACTION_FIELDS } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PaymentGate } from '../../components/ui/payment-panels';
import { ChartCard, chartState, PeriodSelect } from '../../features/reports/components/chart-card';
import { METRIC_COLORS } from '../../features/reports/components/chart-colors';
import { SearchDoughnut } from '../../features/reports/components/search-doughnut';
import { WhenInView } from '../../components/ui/when-in-view';
import { KeywordList } from '../../features/reports/components/keyword-list';
import { ReviewsCard } from '../../features/reports/components/reviews-card';
import { StatBoxes } from '../../features/reports/components/stat-boxes';
import {
  allZero,
  shortDay,
  useBoxData,
  useDashboardChart,
} from '../../features/reports/use-dashboard';
import { useCurrentStore, useSelection } from '../../lib/selection';
import { isAccountManager, useSession } from '../../lib/session';
import { usePaymentState } from '../payment-state';
import { PageNotice, PageTitle } from '../../components/ui/page-title';

/**
 * /dashboard (spec 3 §2): payment panels first; then six stat boxes, the 口コミ card (issue 25
 * item 7), the searches by source, the top keywords and the customer actions, each with its own
 * period. Every query is keyed by the
 * store, so a new selection loads everything again.
 */
export function DashboardRoute() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { ids } = useSelection();
  const store = useCurrentStore();
  const payment = usePaymentState();
  if ((isAccountManager(user) && ids.length === 0) || !store) {
    return (
      <PageNotice title={t('screens.dashboard.title')}>{t('screens.dashboard.noStore')}</PageNotice>
    );
  }
  return (
    <PaymentGate state={payment} title={t('screens.dashboard.title')}>
      <Dashboard key={store.id} userId={store.id} />
    </PaymentGate>
  );
}

/**
 * Chart.js comes with the actions card's chart, once that card nears the screen: on a phone it
 * lies below the first screen, which then loads and starts no Chart.js (ADR 0079's addendum).
 */
const LineChart = lazy(() =>
  import('../../features/reports/components/charts').then((m) => ({ default: m.LineChart })),
);
const CHART_HEIGHT = 280;

/**
 * The screen, one component per card: each card asks for its own figures, so an answer renders
 * its card alone rather than the whole screen (on a phone each render of the screen was a long
 * task; issue 23 item 5). A card draws its figures from a deferred copy of the answer: the query
 * library's update is rendered at once and whole, the deferred one in slices that leave the
 * page free to answer a tap (ADR 0079's addendum).
 */
function Dashboard({ userId }: { userId: number }) {
  return (
    <Stack gap="lg">
      <TitleAndBoxes userId={userId} />
      <ReviewsCard userId={userId} />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <SearchSourceCard userId={userId} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <KeywordsCard userId={userId} />
        </Grid.Col>
      </Grid>
      <ActionsCard userId={userId} />
    </Stack>
  );
}

/** The title, the boxes' period and the six stat boxes. */
function TitleAndBoxes({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const boxes = useBoxData(userId);
  const boxData = useDeferredValue(boxes.query.data);
  return (
    <>
      <Group justify="space-between">
        <PageTitle>{t('screens.dashboard.title')}</PageTitle>
        <Group gap="md">
          <PeriodSelect
            label={`${t('screens.dashboard.title')} ${t('screens.dashboard.period')}`}
            value={boxes.range}
            options={DASHBOARD_RANGES}
            onChange={boxes.setRange}
          />
          <Anchor component={Link} to="/dashboard-chart" size="sm">
            {t('screens.dashboard.openCharts')}
          </Anchor>
        </Group>
      </Group>
      <StatBoxes data={boxes.query.isError ? null : (boxData ?? null)} />
    </>
  );
}

function SearchSourceCard({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const search = useDashboardChart('customer-search', userId);
  const searchData = useDeferredValue(search.query.data);
  return (
    <ChartCard
      title={t('screens.dashboard.searchSource')}
      action={
        <PeriodSelect
          label={`${t('screens.dashboard.searchSource')} ${t('screens.dashboard.period')}`}
          value={search.range}
          options={DASHBOARD_RANGES}
          onChange={search.setRange}
        />
      }
      state={chartState(search.query, !searchData || allZero([searchData.total]))}
    >
      {searchData && <SearchDoughnut data={searchData} />}
    </ChartCard>
  );
}

function KeywordsCard({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const keywords = useDashboardChart('search-keywords', userId);
  const keywordData = useDeferredValue(keywords.query.data);
  return (
    <ChartCard
      title={t('screens.dashboard.keywords')}
      action={
        <PeriodSelect
          label={`${t('screens.dashboard.keywords')} ${t('screens.dashboard.period')}`}
          value={keywords.range}
          options={KEYWORD_RANGES}
          onChange={keywords.setRange}
        />
      }
      state={chartState(
        keywords.query,
        !keywordData ||
          (allZero([keywordData.search_keywords_total]) &&
            Object.keys(keywordData.search_keywords).length === 0),
      )}
    >
      {keywordData && <KeywordList data={keywordData} />}
    </ChartCard>
  );
}

function ActionsCard({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const actions = useDashboardChart('reactions-graph', userId);
  const actionData = useDeferredValue(actions.query.data);
  const days = actionData ? Object.keys(actionData.website_clicks ?? {}) : [];
  return (
    <ChartCard
      title={t('screens.dashboard.actions')}
      action={
        <PeriodSelect
          label={`${t('screens.dashboard.actions')} ${t('screens.dashboard.period')}`}
          value={actions.range}
          options={DASHBOARD_RANGES}
          onChange={actions.setRange}
        />
      }
      state={chartState(
        actions.query,
        !actionData || allZero(REACTION_FIELDS.flatMap((f) => Object.values(actionData[f] ?? {}))),
      )}
    >
      {actionData && (
        <WhenInView height={CHART_HEIGHT}>
          <Suspense fallback={<Box h={CHART_HEIGHT} />}>
            <LineChart
              height={CHART_HEIGHT}
              label={t('screens.dashboard.actions')}
              labels={days.map(shortDay)}
              series={REACTION_FIELDS.map((f) => ({
                label: t(`screens.report.metrics.${f}`),
                data: days.map((d) => actionData[f]?.[d] ?? 0),
                color: METRIC_COLORS[f],
              }))}
            />
          </Suspense>
        </WhenInView>
      )}
    </ChartCard>
  );
}
