import {
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Filler,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { formatCount } from './chart-colors';

// Only the Chart.js parts these screens draw (bars, lines; the doughnut is SVG, doughnut-ring.tsx),
// registered once; the module is imported by the lazily loaded report and dashboard screens only
// (ADR 0017, 0037).
ChartJS.register(
  BarElement,
  CategoryScale,
  LinearScale,
  LineElement,
  PointElement,
  Filler,
  Tooltip,
  Legend,
);
ChartJS.defaults.font.family =
  "'Hiragino Sans', 'Hiragino Kaku Gothic ProN', 'Noto Sans JP', 'Noto Sans CJK JP', Meiryo, sans-serif";

/** Axis ticks and tooltips with thousands separators. */
export const countScale = {
  beginAtZero: true,
  ticks: { callback: (v: string | number) => (typeof v === 'number' ? formatCount(v) : v) },
};
