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
import { formatThousands, type MetricField } from '@tenpo/domain';

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

/** Fixed colours per metric, the same on every chart (spec 3 §2: the doughnut's are fixed). */
export const METRIC_COLORS: Record<MetricField | 'search_keywords', string> = {
  business_impressions_desktop_maps: '#1c7ed6',
  business_impressions_mobile_maps: '#74c0fc',
  business_impressions_desktop_search: '#f08c00',
  business_impressions_mobile_search: '#ffc078',
  business_bookings: '#ae3ec9',
  business_conversations: '#f06595',
  business_direction_requests: '#2f9e44',
  business_food_orders: '#e8590c',
  call_clicks: '#e03131',
  website_clicks: '#1971c2',
  search_keywords: '#0c8599',
};

export const YEAR_COLORS = { lastYear: '#adb5bd', thisYear: '#1c7ed6' } as const;

export const formatCount = (n: number): string => formatThousands(n);

/** Axis ticks and tooltips with thousands separators. */
export const countScale = {
  beginAtZero: true,
  ticks: { callback: (v: string | number) => (typeof v === 'number' ? formatCount(v) : v) },
};
