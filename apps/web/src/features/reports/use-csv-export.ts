import { useRef, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { errorLines } from '@/lib/api-client';
import { csvCall, csvFileCall, type ReportRange } from './api/reports-api';
import { saveBlob } from './pdf';

const compact = (day: string) => day.replaceAll('-', '');

/**
 * The CSV export of spec 3 §5: ignored while one is running; a missing date shows the
 * "specify the periods" danger notice; a failure shows the server's first error.
 */
export const useCsvExport = () => {
  const { t } = useTranslation();
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = async (
    kind: 'single' | 'multiple',
    userId: number | number[],
    range: Partial<ReportRange>,
  ): Promise<void> => {
    if (running.current) return;
    if (!range.start_date || !range.end_date) {
      notifications.show({
        color: 'red',
        message: t('screens.report.texts.specifyThePeriodsMissing'),
        autoClose: 4000,
      });
      return;
    }
    running.current = true;
    setBusy(true);
    try {
      const body = { user_id: userId, start_date: range.start_date, end_date: range.end_date };
      const url = await csvCall(kind, body);
      const blob = await csvFileCall(url);
      saveBlob(blob, `report_${compact(range.start_date)}-${compact(range.end_date)}.csv`);
    } catch (e) {
      notifications.show({ color: 'red', message: errorLines(e)[0], autoClose: 4000 });
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, run };
};
