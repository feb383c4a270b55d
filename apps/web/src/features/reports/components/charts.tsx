import { useMemo } from 'react';
import { Box } from '@mantine/core';
import type { ChartOptions } from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';
import { WhenInView } from '@/components/ui/when-in-view';
import { formatCount } from './chart-colors';
import { countScale } from './chart-parts';

/** A series' values; null is a gap (a month before a store's first review has no average). */
export type Series = { label: string; data: (number | null)[]; color: string };

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
