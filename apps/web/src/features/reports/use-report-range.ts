import { useEffect, useMemo, useState } from 'react';
import { REPORT_DEBOUNCE_MS, REPORT_SLIDER_DEFAULT, sliderRange, tokyoDay } from '@tenpo/domain';

export type SliderValue = [number, number];

/**
 * The slider position (moves at once, and the shown dates with it) and the range the report is
 * loaded for, which follows after 600 ms of quiet (spec 3 §4).
 */
export const useReportRange = () => {
  const today = useMemo(() => tokyoDay(Date.now()), []);
  const [value, setValue] = useState<SliderValue>([...REPORT_SLIDER_DEFAULT] as SliderValue);
  const [settled, setSettled] = useState<SliderValue>(value);
  useEffect(() => {
    if (value[0] === settled[0] && value[1] === settled[1]) return;
    const t = setTimeout(() => setSettled(value), REPORT_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [value, settled]);
  const shown = sliderRange(value[0], value[1], today);
  const range = useMemo(() => sliderRange(settled[0], settled[1], today), [settled, today]);
  const waiting = value[0] !== settled[0] || value[1] !== settled[1];
  return { today, value, setValue, shown, range, waiting };
};
