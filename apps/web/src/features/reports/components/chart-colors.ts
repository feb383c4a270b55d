import { formatThousands, type MetricField } from '@tenpo/domain';

// The charts' colours and number format, apart from Chart.js (chart-parts.ts registers it): the
// dashboard's first screen uses these without loading Chart.js (ADR 0079's addendum).

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
