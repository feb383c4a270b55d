import { describe, expect, it } from 'vitest';
import { tokyoDateTime } from './format';

/** The browser's own answer, for comparison: what the screens showed before (Intl, Asia/Tokyo). */
const viaIntl = (d: Date) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('ja-JP', {
      timeZone: 'Asia/Tokyo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}:${p.second}`;
};

describe('tokyoDateTime', () => {
  it('writes the Tokyo wall clock across a day, a month and a year boundary', () => {
    expect(tokyoDateTime(new Date('2026-12-31T14:59:59Z'))).toBe('2026/12/31 23:59:59');
    expect(tokyoDateTime(new Date('2026-12-31T15:00:00Z'))).toBe('2027/01/01 00:00:00');
    expect(tokyoDateTime(new Date('2028-02-28T15:00:00Z'))).toBe('2028/02/29 00:00:00');
  });

  it('agrees with the time-zone database on dates over many years', () => {
    for (let t = Date.UTC(1990, 0, 1); t < Date.UTC(2060, 0, 1); t += 7_919_999_999) {
      expect(tokyoDateTime(new Date(t))).toBe(viaIntl(new Date(t)));
    }
  });
});
