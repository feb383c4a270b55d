import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  dayInMonth,
  daysBetween,
  formatTokyo,
  fromTokyoParts,
  isDay,
  lastDayOf,
  nextMinuteMark,
  nextTokyoTimeOfDay,
  parseTokyoDateTime,
  TOKYO_TIME_ZONE,
  tokyoDay,
  tokyoInstant,
  tokyoMonth,
  tokyoParts,
} from './tokyo';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('the Tokyo day of an instant', () => {
  it('turns at 15:00 UTC', () => {
    expect(tokyoDay(at('2026-11-27T14:59:59.999Z'))).toBe('2026-11-27');
    expect(tokyoDay(at('2026-11-27T15:00:00Z'))).toBe('2026-11-28');
    expect(tokyoDay(new Date('2026-11-27T15:00:00Z'))).toBe('2026-11-28');
  });

  it('crosses month and year ends and the leap day', () => {
    expect(tokyoDay(at('2026-04-30T15:00:00Z'))).toBe('2026-05-01');
    expect(tokyoMonth(at('2026-04-30T15:00:00Z'))).toBe('2026-05');
    expect(tokyoDay(at('2026-12-31T14:59:59Z'))).toBe('2026-12-31');
    expect(tokyoDay(at('2026-12-31T15:00:00Z'))).toBe('2027-01-01');
    expect(tokyoParts(at('2026-12-31T15:00:00Z')).year).toBe(2027);
    expect(tokyoDay(at('2028-02-28T15:00:00Z'))).toBe('2028-02-29');
    expect(tokyoDay(at('2028-02-29T15:00:00Z'))).toBe('2028-03-01');
    expect(tokyoDay(at('2027-02-28T15:00:00Z'))).toBe('2027-03-01');
  });

  it('reads the wall clock, weekday included', () => {
    // 2026-11-27 is a Friday; 23:59:30 UTC is 08:59:30 on Saturday the 28th in Tokyo.
    expect(tokyoParts(at('2026-11-27T23:59:30Z'))).toEqual({
      year: 2026,
      month: 11,
      day: 28,
      hour: 8,
      minute: 59,
      second: 30,
      weekday: 6,
    });
  });
});

describe('Tokyo wall-clock times as instants', () => {
  it('starts a Tokyo day at 15:00 UTC the day before', () => {
    expect(iso(tokyoInstant('2027-01-01'))).toBe('2026-12-31T15:00:00.000Z');
    expect(iso(tokyoInstant('2028-02-29', '00:05'))).toBe('2028-02-28T15:05:00.000Z');
    expect(iso(tokyoInstant('2026-03-01', '23:59:59'))).toBe('2026-03-01T14:59:59.000Z');
    expect(tokyoInstant('not a day')).toBeNaN();
    expect(iso(fromTokyoParts(2026, 1, 1))).toBe('2025-12-31T15:00:00.000Z');
    expect(iso(fromTokyoParts(2026, 12, 32, 9))).toBe('2027-01-01T00:00:00.000Z');
  });

  it('reads the post form strictly and writes it back', () => {
    expect(parseTokyoDateTime(' 2028-02-29 00:00:00 ')).toBe(at('2028-02-28T15:00:00Z'));
    expect(parseTokyoDateTime('2027-02-29 00:00:00')).toBeNull();
    expect(parseTokyoDateTime('2026-11-24 24:00:00')).toBeNull();
    expect(parseTokyoDateTime('2026-11-24 10:60:00')).toBeNull();
    expect(parseTokyoDateTime('2026-11-24T10:00:00')).toBeNull();
  });
});

describe('formats', () => {
  const t = at('2026-12-31T15:04:05.678Z'); // 2027-01-01 00:04:05.678 in Tokyo
  it.each([
    ['YYYY-MM-DD', '2027-01-01'],
    ['YYYY-MM-DD HH:mm', '2027-01-01 00:04'],
    ['YYYY-MM-DD HH:mm:ss', '2027-01-01 00:04:05'],
    ['YYYY/MM/DD HH:mm:ss', '2027/01/01 00:04:05'],
    ['YYYYMMDDHHmmss', '20270101000405'],
  ] as const)('%s', (format, text) => expect(formatTokyo(t, format)).toBe(text));
});

describe('agreement with Intl (Asia/Tokyo time-zone data)', () => {
  const intl = new Intl.DateTimeFormat('ja-JP', {
    timeZone: TOKYO_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'short',
    hourCycle: 'h23',
  });
  const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'];
  const byIntl = (ms: number) => {
    const p = Object.fromEntries(intl.formatToParts(ms).map((x) => [x.type, x.value]));
    return {
      text: `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}:${p.second}`,
      weekday: WEEKDAYS.indexOf(p.weekday!),
    };
  };

  it('from 1952 to 2100, every day boundary and odd hours between', () => {
    // A prime step of a little over 17 hours walks through every hour of the day and both
    // sides of 15:00 UTC; the edges of every year's first and last Tokyo day are added.
    const instants: number[] = [];
    for (let t = at('1952-01-01T00:00:00Z'); t < at('2100-12-31T00:00:00Z'); t += 61_200_007)
      instants.push(t);
    for (let y = 1952; y <= 2100; y++) {
      const start = fromTokyoParts(y, 1, 1);
      instants.push(start - 1000, start, fromTokyoParts(y, 3, 1) - 1, fromTokyoParts(y, 3, 1));
    }
    // Compared in plain code and reported at once: 225,000 `expect` calls took about 5 s alone.
    const wrong: string[] = [];
    for (const ms of instants) {
      const want = byIntl(ms);
      const text = formatTokyo(ms, 'YYYY/MM/DD HH:mm:ss');
      const day = formatTokyo(ms, 'YYYY-MM-DD');
      const weekday = tokyoParts(ms).weekday;
      if (
        text !== want.text ||
        weekday !== want.weekday ||
        day !== want.text.slice(0, 10).replaceAll('/', '-')
      )
        wrong.push(
          `${new Date(ms).toISOString()}: ${text} (${weekday}), Intl ${want.text} (${want.weekday})`,
        );
    }
    expect(wrong).toEqual([]);
    expect(instants.length).toBeGreaterThan(75_000);
  }, 30_000);
});

describe('schedules', () => {
  it('the next daily Tokyo time, across a Tokyo midnight and a month end', () => {
    // 03:30 Tokyo is 18:30 UTC the day before; strictly after: at the time itself, tomorrow.
    expect(iso(nextTokyoTimeOfDay(at('2026-11-23T00:00:00Z'), 3, 30))).toBe(
      '2026-11-23T18:30:00.000Z',
    );
    expect(iso(nextTokyoTimeOfDay(at('2026-11-23T18:30:00Z'), 3, 30))).toBe(
      '2026-11-24T18:30:00.000Z',
    );
    expect(iso(nextTokyoTimeOfDay(at('2026-11-23T18:29:59.999Z'), 3, 30))).toBe(
      '2026-11-23T18:30:00.000Z',
    );
    // 00:00 Tokyo from 23:59 on 30 November (Tokyo): 1 December, 15:00 UTC on the 30th.
    expect(iso(nextTokyoTimeOfDay(at('2026-11-30T14:59:00Z'), 0, 0))).toBe(
      '2026-11-30T15:00:00.000Z',
    );
    // 06:00 Tokyo, asked at 07:00 Tokyo on 31 December: 1 January.
    expect(iso(nextTokyoTimeOfDay(at('2026-12-30T22:00:00Z'), 6))).toBe('2026-12-31T21:00:00.000Z');
    // Leap day: 10:00 Tokyo after 28 February 2028, 11:00 Tokyo.
    expect(iso(nextTokyoTimeOfDay(at('2028-02-28T02:00:00Z'), 10))).toBe(
      '2028-02-29T01:00:00.000Z',
    );
  });

  it('the next minute mark', () => {
    expect(iso(nextMinuteMark(at('2026-11-23T00:07:59Z'), 15))).toBe('2026-11-23T00:15:00.000Z');
    expect(iso(nextMinuteMark(at('2026-11-23T00:15:00Z'), 15))).toBe('2026-11-23T00:30:00.000Z');
    expect(iso(nextMinuteMark(at('2026-11-30T14:59:30Z'), 1))).toBe('2026-11-30T15:00:00.000Z');
    expect(() => nextMinuteMark(0, 7)).toThrow(RangeError);
    expect(() => nextMinuteMark(0, 0)).toThrow(RangeError);
  });
});

describe('calendar days and months', () => {
  it('adds days and months across month and year ends and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
    expect(daysBetween('2028-02-01', '2028-03-01')).toBe(29);
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-11', -24)).toBe('2024-11');
    expect(lastDayOf('2028-02')).toBe('2028-02-29');
    expect(lastDayOf('2100-02')).toBe('2100-02-28');
  });

  it('clamps a day of month to a shorter month', () => {
    expect(dayInMonth('2026-04', 31)).toBe('2026-04-30');
    expect(dayInMonth('2028-02', 30)).toBe('2028-02-29');
    expect(dayInMonth('2027-02', 29)).toBe('2027-02-28');
    expect(dayInMonth('2026-05', 5)).toBe('2026-05-05');
  });

  it('knows a real day', () => {
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2027-02-29')).toBe(false);
    expect(isDay('2026-13-01')).toBe(false);
    expect(isDay(20260101)).toBe(false);
  });
});

describe("the wall clock's arithmetic (issue 26 P2) against Date#toISOString", () => {
  const byIso = (ms: number) =>
    new Date(ms + 9 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
  it('agrees from 1600 to 2500 (a step prime to seconds, hours and days) and at the edges of days', () => {
    const from = Date.UTC(1600, 0, 1);
    const to = Date.UTC(2500, 0, 1);
    const differ: number[] = [];
    for (let ms = from; ms < to; ms += 3_600_000 * 29 + 1_000_003)
      if (formatTokyo(ms, 'YYYY-MM-DD HH:mm:ss') !== byIso(ms)) differ.push(ms);
    expect(differ).toEqual([]);
    for (const ms of [
      Date.UTC(2000, 1, 28, 15),
      Date.UTC(2000, 1, 29, 14, 59, 59, 999),
      Date.UTC(2000, 1, 29, 15),
      Date.UTC(1900, 1, 28, 15),
      Date.UTC(2100, 1, 28, 15),
      Date.UTC(2026, 11, 31, 14, 59, 59, 999),
      Date.UTC(2026, 11, 31, 15),
      0,
      -1,
    ])
      expect(formatTokyo(ms, 'YYYY-MM-DD HH:mm:ss')).toBe(byIso(ms));
  });

  it('keeps Date’s forms outside 0000–9999 and its error for an invalid date', () => {
    expect(tokyoDay(Date.UTC(9999, 11, 31, 15))).toBe('+010000-01-01'.slice(0, 10));
    expect(tokyoDay(Date.UTC(9999, 11, 31, 14))).toBe('9999-12-31');
    expect(tokyoDay(new Date('0005-06-07T00:00:00Z'))).toBe('0005-06-07');
    expect(() => tokyoDay(new Date('x'))).toThrow(RangeError);
  });
});
