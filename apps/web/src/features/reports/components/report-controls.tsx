import { useEffect, useRef, useState } from 'react';
import { Button, Card, Group, Loader, RangeSlider, Stack, Text, ThemeIcon } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { REPORT_SLIDER_MIN, sliderLabel, sliderMonth } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { SliderValue } from '../use-report-range';

const slash = (day: string) => day.replaceAll('-', '/');

/** The two-handle month slider, 25 months, labelled MM/YYYY (spec 3 §4), and the dates it means. */
export function ReportSlider({
  today,
  value,
  onChange,
  shown,
  loading,
}: {
  today: string;
  value: SliderValue;
  onChange: (v: SliderValue) => void;
  shown: { start_date: string; end_date: string };
  loading: boolean;
}) {
  const { t } = useTranslation();
  const marks = [-24, -18, -12, -6, 0].map((v) => ({ value: v, label: sliderLabel(v, today) }));
  const root = useRef<HTMLDivElement>(null);
  // A screen reader reads the month a thumb stands for ("2026年5月"), not its position (-6):
  // Mantine's thumbs take no aria-valuetext of their own, so it is set on them after each render.
  useEffect(() => {
    root.current?.querySelectorAll('[role="slider"]').forEach((thumb, i) => {
      const month = sliderMonth(value[i === 0 ? 0 : 1], today);
      thumb.setAttribute(
        'aria-valuetext',
        t('screens.report.sliderMonth', { year: month.slice(0, 4), month: Number(month.slice(5)) }),
      );
    });
  });
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Text fw={600}>{t('screens.report.period')}</Text>
          <Text data-testid="report-range">
            {t('screens.report.range', {
              start: slash(shown.start_date),
              end: slash(shown.end_date),
            })}
          </Text>
        </Group>
        {loading && (
          <Group gap={6}>
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {t('screens.report.loading')}
            </Text>
          </Group>
        )}
      </Group>
      <RangeSlider
        ref={root}
        aria-label={t('screens.report.slider')}
        thumbFromLabel={t('screens.report.sliderStart')}
        thumbToLabel={t('screens.report.sliderEnd')}
        min={REPORT_SLIDER_MIN}
        max={0}
        step={1}
        minRange={0}
        value={value}
        onChange={onChange}
        label={(v) => sliderLabel(v, today)}
        marks={marks}
        mb="lg"
        px="md"
      />
    </Card>
  );
}

/** The PDF and CSV buttons, each with its spinner. */
export function ExportButtons({
  pdfBusy,
  csvBusy,
  onPdf,
  onCsv,
}: {
  pdfBusy: boolean;
  csvBusy: boolean;
  onPdf: () => void;
  onCsv: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="sm">
      <Button variant="default" loading={pdfBusy} onClick={onPdf}>
        {t('screens.report.pdf')}
      </Button>
      <Button loading={csvBusy} onClick={onCsv} data-busy={csvBusy || undefined}>
        {t('screens.report.csv')}
      </Button>
    </Group>
  );
}

/**
 * A free user (role 0) asking for a download (spec 3 §2): the exports are closed on trial, and
 * this warning offers the payment settings, or cancel.
 */
export function useFreeDialog() {
  const [opened, setOpened] = useState(false);
  return { opened, open: () => setOpened(true), close: () => setOpened(false) };
}

export function FreeUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Modal opened={opened} onClose={onClose} title={t('screens.report.freeTitle')} centered>
      <Stack>
        <Group wrap="nowrap" align="flex-start">
          <ThemeIcon color="yellow" variant="light" radius="xl" size="lg" aria-hidden>
            !
          </ThemeIcon>
          <Text size="sm">{t('screens.report.freeText')}</Text>
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button color="yellow" onClick={() => navigate('/register-payment')}>
            {t('screens.report.toPayment')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
