import { useRef, useState, type ReactNode, type RefObject } from 'react';
import { Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import type { ReportRange } from '../api/reports-api';
import { exportPdf } from '../pdf';
import { useCsvExport } from '../use-csv-export';
import { ExportButtons, FreeUserDialog, useFreeDialog } from './report-controls';
import { PageTitle } from '@/components/ui/page-title';

const compact = (day: string) => day.replaceAll('-', '');

/**
 * The exports of /report and /report-multiple (spec 3 §2, §5): the PDF of the given pages and
 * the CSV of the range, each with its spinner and ignored while it runs; a free-trial user gets
 * the payment prompt instead of either.
 */
export function useReportExports({
  free,
  kind,
  userId,
  range,
  pages,
}: {
  free: boolean;
  kind: 'single' | 'multiple';
  userId: number | number[];
  range: ReportRange;
  pages: RefObject<HTMLDivElement | null>[];
}) {
  const { t } = useTranslation();
  const csv = useCsvExport();
  const dialog = useFreeDialog();
  const [pdfBusy, setPdfBusy] = useState(false);
  const onPdf = async () => {
    if (free) return dialog.open();
    const elements = pages.map((p) => p.current);
    if (pdfBusy || elements.some((e) => !e)) return;
    setPdfBusy(true);
    try {
      const name = kind === 'single' ? 'report' : 'report_multiple';
      await exportPdf(
        elements as HTMLDivElement[],
        `${name}_${compact(range.start_date)}-${compact(range.end_date)}.pdf`,
      );
    } catch {
      notifications.show({ color: 'red', message: t('screens.report.pdfFailed') });
    } finally {
      setPdfBusy(false);
    }
  };
  const onCsv = () => {
    if (free) return dialog.open();
    void csv.run(kind, userId, range);
  };
  return { pdfBusy, csvBusy: csv.busy, onPdf, onCsv, dialog };
}

export type ReportExports = ReturnType<typeof useReportExports>;

/** The report's first page, held for its PDF export. */
export const usePageRef = () => useRef<HTMLDivElement>(null);

/** The title row with the PDF and CSV buttons, and the free-trial prompt they may open. */
export function ReportHeader({ title, exports }: { title: ReactNode; exports: ReportExports }) {
  return (
    <>
      <Group justify="space-between">
        <PageTitle>{title}</PageTitle>
        <ExportButtons
          pdfBusy={exports.pdfBusy}
          csvBusy={exports.csvBusy}
          onPdf={() => void exports.onPdf()}
          onCsv={exports.onCsv}
        />
      </Group>
      <FreeUserDialog opened={exports.dialog.opened} onClose={exports.dialog.close} />
    </>
  );
}
