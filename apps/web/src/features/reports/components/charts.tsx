import { useMemo, useState } from 'react';
import { Box, ColorSwatch, Group, Stack, Text } from '@mantine/core';
import type { ChartOptions } from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';
import { IMPRESSION_FIELDS, type CustomerSearch } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { WhenInView } from '@/components/ui/when-in-view';
import { countScale, formatCount, METRIC_COLORS } from './chart-parts';
import { DoughnutRing } from './doughnut-ring';

export type Series = { label: string; data: number[]; color: string };

const tooltipLabel = {
  callbacks: {
    label: (c: { dataset: { label?: string }; parsed: { y?: number | null } | number }) => {
      const v = typeof c.parsed === 'number' ? c.parsed : (c.parsed.y ?? 0);
      return `${c.dataset.label ?? ''}: ${formatCount(v)}`;
    },
  },
};

/**
 * A key that changes only when the figures do. A chart's `options` or `data` of a new identity
 * makes react-chartjs-2 update (and lay out) the chart again, and the screens build both afresh
 * on every render: /dashboard rendered each chart again as each of its queries answered.
 */
const sameFigures = (labels: string[], series: Series[]): string =>
  JSON.stringify([labels, series.map((s) => [s.label, s.color, s.data])]);

/** A chart's `data`, kept while the figures are the same; `style` dresses each series. */
function useChartData<D>(labels: string[], series: Series[], style: (s: Series) => D) {
  const key = sameFigures(labels, series);
  return useMemo(
    () => ({ labels, datasets: series.map(style) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the figures, not the arrays' identity
    [key],
  );
}

const LINE_OPTIONS: ChartOptions<'line'> = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  interaction: { mode: 'index', intersect: false },
  plugins: { legend: { position: 'bottom' }, tooltip: tooltipLabel },
  scales: { y: countScale, x: { ticks: { maxTicksLimit: 12 } } },
};

/** Bars, stacked or side by side, one group per label. */
export function BarChart({
  labels,
  series,
  stacked = false,
  label,
  height = 280,
}: {
  labels: string[];
  series: Series[];
  stacked?: boolean;
  label: string;
  height?: number;
}) {
  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { position: 'bottom' }, tooltip: tooltipLabel },
      scales: { x: { stacked }, y: { ...countScale, stacked } },
    }),
    [stacked],
  );
  const data = useChartData(labels, series, (s) => ({
    label: s.label,
    data: s.data,
    backgroundColor: s.color,
    borderRadius: 2,
    maxBarThickness: 48,
  }));
  return (
    <Box h={height}>
      <WhenInView height="100%">
        <Bar aria-label={label} options={options} data={data} />
      </WhenInView>
    </Box>
  );
}

/** Lines over days or months. */
export function LineChart({
  labels,
  series,
  label,
  height = 280,
}: {
  labels: string[];
  series: Series[];
  label: string;
  height?: number;
}) {
  const data = useChartData(labels, series, (s) => ({
    label: s.label,
    data: s.data,
    borderColor: s.color,
    backgroundColor: s.color,
    pointRadius: labels.length > 40 ? 0 : 2,
    tension: 0.25,
  }));
  return (
    <Box h={height}>
      <WhenInView height="100%">
        <Line aria-label={label} options={LINE_OPTIONS} data={data} />
      </WhenInView>
    </Box>
  );
}

/**
 * Searches by source (spec 3 §2): idle, the centre shows the total of the four; hovering a
 * slice shows its label, value and share. Cutout 80 %, fixed colours.
 */
export function SearchDoughnut({ data }: { data: CustomerSearch }) {
  const { t } = useTranslation();
  const [active, setActive] = useState<number | null>(null);
  const values = IMPRESSION_FIELDS.map((f) => data[f] ?? 0);
  const labels = IMPRESSION_FIELDS.map((f) => t(`screens.report.metrics.${f}`));
  const total = values.reduce((a, b) => a + b, 0);
  const value = active !== null ? (values[active] ?? 0) : total;
  const pct =
    active !== null && total > 0 ? Math.round(((values[active] ?? 0) / total) * 1000) / 10 : null;
  return (
    <Box>
      <Box pos="relative" h={220}>
        <DoughnutRing
          label={t('screens.dashboard.searchSource')}
          segments={IMPRESSION_FIELDS.map((f, i) => ({
            value: values[i] ?? 0,
            color: METRIC_COLORS[f],
            label: labels[i] ?? f,
          }))}
          active={active}
          onActive={setActive}
        />
        <Box
          pos="absolute"
          inset={0}
          style={{ display: 'grid', placeItems: 'center', pointerEvents: 'none' }}
          data-testid="doughnut-centre"
        >
          <Box ta="center" maw={150}>
            <Text size="xs" c="dimmed">
              {active !== null ? labels[active] : t('screens.dashboard.total')}
            </Text>
            <Text fw={700} fz={26}>
              {formatCount(value)}
            </Text>
            {pct !== null && (
              <Text size="sm" c="dimmed">
                {pct}%
              </Text>
            )}
          </Box>
        </Box>
      </Box>
      <Stack gap={4} mt="sm">
        {labels.map((l, i) => (
          <Group key={l} justify="space-between" wrap="nowrap" gap="xs">
            <Group gap={6} wrap="nowrap">
              <ColorSwatch size={10} color={METRIC_COLORS[IMPRESSION_FIELDS[i]!]} />
              <Text size="sm">{l}</Text>
            </Group>
            <Text size="sm" fw={500}>
              {formatCount(values[i] ?? 0)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Box>
  );
}
