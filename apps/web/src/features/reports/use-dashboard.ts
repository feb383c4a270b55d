import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_DASHBOARD_RANGE } from '@tenpo/domain';
import {
  boxDataCall,
  dashboardChartCall,
  reportKeys,
  type DashboardAnswer,
  type DashboardCall,
} from './api/reports-api';

/** One dashboard chart's call with its own period (default 1 month, spec 3 §9). */
export const useDashboardChart = <C extends DashboardCall>(call: C, userId: number) => {
  const [range, setRange] = useState<string>(DEFAULT_DASHBOARD_RANGE);
  const query = useQuery<DashboardAnswer[C]>({
    queryKey: reportKeys.chart(call, userId, range),
    queryFn: ({ signal }) => dashboardChartCall(call, userId, range, signal),
  });
  return { range, setRange, query };
};

export const useBoxData = (userId: number) => {
  const [range, setRange] = useState<string>(DEFAULT_DASHBOARD_RANGE);
  const query = useQuery({
    queryKey: reportKeys.box(userId, range),
    queryFn: ({ signal }) => boxDataCall(userId, range, signal),
  });
  return { range, setRange, query };
};

/** `YYYY/MM/DD` day labels as `MM/DD` on an axis. */
export const shortDay = (label: string): string => label.slice(5);

export const allZero = (values: Iterable<number>): boolean => {
  for (const v of values) if (Number(v) !== 0) return false;
  return true;
};
