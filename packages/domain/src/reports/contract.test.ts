import { describe, expect, it } from 'vitest';
import { addMonths, isDay, lastDayOf, tokyoDay } from '../tokyo';
import {
  dashboardPeriod,
  formatFigure,
  keywordMonths,
  percentChange,
  reportWindowStart,
  sliderLabel,
  sliderRange,
} from './contract';

describe('report periods (Asia/Tokyo)', () => {
  it('takes the Tokyo calendar day', () => {
    expect(tokyoDay(Date.parse('2026-03-31T14:59:59Z'))).toBe('2026-03-31');
    expect(tokyoDay(Date.parse('2026-03-31T15:00:00Z'))).toBe('2026-04-01');
  });

  it('does month arithmetic across years and month lengths', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2025-11', 14)).toBe('2027-01');
    expect(lastDayOf('2024-02')).toBe('2024-02-29');
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2028-02-29')).toBe(true);
  });

  it('ends dashboard periods yesterday, with the previous period of equal length', () => {
    expect(dashboardPeriod('7', '2026-11-24')).toEqual({
      start: '2026-11-17',
      end: '2026-11-23',
      previous: { start: '2026-11-10', end: '2026-11-16' },
    });
    // a month: 2026-10-24..2026-11-23 is 31 days; the 31 days before it
    expect(dashboardPeriod('1', '2026-11-24')).toEqual({
      start: '2026-10-24',
      end: '2026-11-23',
      previous: { start: '2026-09-23', end: '2026-10-23' },
    });
    // clamped: three months back from 05-31 is 02-28
    expect(dashboardPeriod('3', '2026-06-01').start).toBe('2026-03-01');
  });

  it('gives the keyword months as complete months', () => {
    expect(keywordMonths('1', '2026-01-10')).toEqual(['2025-12']);
    expect(keywordMonths('3', '2026-01-10')).toEqual(['2025-10', '2025-11', '2025-12']);
  });

  it('maps the slider to dates (spec 3 §4)', () => {
    expect(sliderLabel(-24, '2026-11-24')).toBe('11/2024');
    expect(sliderRange(-6, 0, '2026-11-24')).toEqual({
      start_date: '2026-05-01',
      end_date: '2026-11-24',
    });
    expect(sliderRange(-3, -1, '2026-11-24')).toEqual({
      start_date: '2026-08-01',
      end_date: '2026-10-31',
    });
    expect(reportWindowStart('2026-11-24')).toBe('2024-11-01');
  });
});

describe('figures', () => {
  it('works a percent change by hand', () => {
    // 1,234 views against 987: (1234 − 987) / 987 = 25.025…% → 25.0
    expect(percentChange(1234, 987)).toBe(25);
    expect(percentChange(50, 80)).toBe(-37.5);
    expect(percentChange(5, 0)).toBeNull();
  });

  it('shows threshold and value strings as the spec says', () => {
    expect(formatFigure('threshold_15')).toBe('< 15');
    expect(formatFigure('value_12345')).toBe('12,345');
    expect(formatFigure(1234567)).toBe('1,234,567');
    expect(formatFigure(undefined)).toBe('0');
    expect(formatFigure('n/a')).toBe('n/a');
  });
});
