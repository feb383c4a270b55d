import { Alert, List, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ROLE } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { PaymentGate } from '../../components/ui/payment-panels';
import {
  multipleReportCall,
  multipleReviewsCall,
  reportKeys,
} from '../../features/reports/api/reports-api';
import { ReportSlider } from '../../features/reports/components/report-controls';
import { AdjustmentPage } from '../../features/reports/components/report-charts';
import {
  ReportHeader,
  usePageRef,
  useReportExports,
} from '../../features/reports/components/report-header';
import { StoreReviewsTable } from '../../features/reports/components/store-reviews-table';
import { useReportRange } from '../../features/reports/use-report-range';
import { useSelection } from '../../lib/selection';
import { useSession } from '../../lib/session';
import { usePaymentState } from '../payment-state';
import { Redirect } from '../redirect';

/** /report-multiple (spec 3 §2): one bar per store; one store or none goes back to /report. */
export function ReportMultipleRoute() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { ids, stores } = useSelection();
  const payment = usePaymentState();
  if (ids.length <= 1) return <Redirect to="/report" />;
  if (!user) return null;
  const free =
    user.role === ROLE.freeTrial ||
    stores.some((s) => ids.includes(s.id) && s.role === ROLE.freeTrial);
  return (
    <PaymentGate state={payment} title={t('screens.report.multipleTitle')}>
      <MultipleReport key={ids.join(',')} ids={ids} free={free} />
    </PaymentGate>
  );
}

function MultipleReport({ ids, free }: { ids: number[]; free: boolean }) {
  const { t } = useTranslation();
  const { today, value, setValue, shown, range, waiting } = useReportRange();
  const report = useQuery({
    queryKey: reportKeys.multiple(ids, range.start_date, range.end_date),
    queryFn: ({ signal }) => multipleReportCall(ids, range, signal),
    placeholderData: keepPreviousData,
  });
  // The stores' reviews come by a call of their own: the report's totals never wait for them.
  const reviews = useQuery({
    queryKey: [...reportKeys.multiple(ids, range.start_date, range.end_date), 'reviews'],
    queryFn: ({ signal }) => multipleReviewsCall(ids, range, signal),
    placeholderData: keepPreviousData,
  });
  const page1 = usePageRef();
  const page2 = usePageRef();
  const exports = useReportExports({
    free,
    kind: 'multiple',
    userId: ids,
    range,
    pages: [page1, page2],
  });

  const data = report.data;
  const names = data ? Object.keys(data.stores) : [];
  const notLinked = data?.not_linked ?? [];

  return (
    <Stack gap="lg">
      <ReportHeader title={t('screens.report.multipleTitle')} exports={exports} />
      <ReportSlider
        today={today}
        value={value}
        onChange={setValue}
        shown={shown}
        loading={waiting || report.isFetching}
      />
      {notLinked.length > 0 && (
        <Alert color="yellow" variant="light" data-testid="not-linked">
          <Text size="sm" mb={4}>
            {t('screens.report.notLinked')}
          </Text>
          <List size="sm">
            {notLinked.map((s) => (
              <List.Item key={s.id}>{s.name}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <AdjustmentPage
        pageRef={page1}
        title={t('screens.report.multipleTitle')}
        range={range}
        error={report.isError}
        labels={names}
        figures={() => names.map((n) => data!.stores[n]!)}
        pending={report.isPending}
      />
      {/* Beyond the spec (issue 25 item 7): each store's reviews, in the PDF's second page. */}
      <Stack gap="md" ref={page2} p="xs" data-testid="report-page-2">
        <StoreReviewsTable
          names={names}
          reviews={reviews.data?.reviews}
          range={range}
          error={reviews.isError}
        />
      </Stack>
    </Stack>
  );
}
