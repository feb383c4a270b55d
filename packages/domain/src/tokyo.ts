/**
 * One clock and calendar (ADR 0078): every date the product reads, writes, shows or schedules is
 * Asia/Tokyo's. Japan has kept no daylight saving time since 1951, so Tokyo is UTC+9 for every
 * date the product handles and its wall clock is the UTC clock of the instant nine hours on: a
 * fixed offset, exact, with no time-zone data to load (no `Intl` here: building an
 * `Intl.DateTimeFormat` with a zone cost a phone ~95 ms of first render, issue 23 item 5).
 *
 * Instants are `Date`s or epoch milliseconds; instants returned are epoch milliseconds. Days are
 * `YYYY-MM-DD` and months `YYYY-MM` calendar strings; their arithmetic needs no zone.
 */

/** The zone's name, for what takes one (pg-boss's cron, a browser's emulation). */
export const TOKYO_TIME_ZONE = 'Asia/Tokyo';

const OFFSET_MS = 9 * 3_600_000;
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export type Instant = Date | number;
const msOf = (at: Instant): number => (typeof at === 'number' ? at : at.getTime());
const two = (n: number): string => String(n).padStart(2, '0');

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * Tokyo's wall clock of an instant as `YYYY-MM-DDTHH:mm:ss.sss` (ISO without a zone). Worked out
 * by arithmetic (the proleptic Gregorian day count of H. Hinnant's `civil_from_days`), a third of
 * what `Date#toISOString` cost: a list of 50 posts writes some 300 dates (issue 26 P2). Years
 * outside 0000–9999 and invalid instants take `toISOString` (its `+010000` form, its RangeError).
 */
const wall = (at: Instant): string => {
  const t = msOf(at) + OFFSET_MS;
  if (!(t >= -62_167_219_200_000 && t < 253_402_300_800_000))
    return new Date(t).toISOString().slice(0, 23);
  const days = Math.floor(t / DAY_MS);
  let rest = t - days * DAY_MS;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / MINUTE_MS);
  rest -= minute * MINUTE_MS;
  const second = Math.floor(rest / 1000);
  const milli = rest - second * 1000;
  // Days since 0000-03-01, in 400-year eras of 146,097 days; the year starts in March.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const y = year < 1000 ? String(year).padStart(4, '0') : String(year);
  return `${y}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}.${pad3(milli)}`;
};

// ——— Instants → Tokyo ———

/** Tokyo's wall-clock fields of an instant: month 1–12, weekday 0 (Sunday) – 6. */
export type TokyoParts = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
};

export const tokyoParts = (at: Instant): TokyoParts => {
  const t = new Date(msOf(at) + OFFSET_MS);
  return {
    year: t.getUTCFullYear(),
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    second: t.getUTCSeconds(),
    weekday: t.getUTCDay(),
  };
};

/** The Tokyo calendar day of an instant, `YYYY-MM-DD` (a new day at 15:00 UTC). */
export const tokyoDay = (at: Instant): string => wall(at).slice(0, 10);

/** The Tokyo month of an instant, `YYYY-MM`. */
export const tokyoMonth = (at: Instant): string => wall(at).slice(0, 7);

/** The ways the product writes a Tokyo date and time. */
export type TokyoFormat =
  /** a calendar day */
  | 'YYYY-MM-DD'
  /** log lines and mails */
  | 'YYYY-MM-DD HH:mm'
  /** the post form (spec 2 §5) */
  | 'YYYY-MM-DD HH:mm:ss'
  /** the screens (spec 2 §9) */
  | 'YYYY/MM/DD HH:mm:ss'
  /** SBPS's request dates */
  | 'YYYYMMDDHHmmss';

export const formatTokyo = (at: Instant, format: TokyoFormat): string => {
  const w = wall(at);
  switch (format) {
    case 'YYYY-MM-DD':
      return w.slice(0, 10);
    case 'YYYY-MM-DD HH:mm':
      return `${w.slice(0, 10)} ${w.slice(11, 16)}`;
    case 'YYYY-MM-DD HH:mm:ss':
      return `${w.slice(0, 10)} ${w.slice(11, 19)}`;
    case 'YYYY/MM/DD HH:mm:ss':
      return `${w.slice(0, 10).replaceAll('-', '/')} ${w.slice(11, 19)}`;
    case 'YYYYMMDDHHmmss':
      return w.slice(0, 19).replace(/\D/g, '');
  }
};

// ——— Tokyo → instants ———

/** The instant of a Tokyo wall-clock time (month 1–12; fields overflow as `Date.UTC`'s do). */
export const fromTokyoParts = (
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): number => Date.UTC(year, month - 1, day, hour, minute, second) - OFFSET_MS;

/**
 * The instant of a time (`HH:mm` or `HH:mm:ss`, default 00:00, the day's start) on a Tokyo day
 * (`YYYY-MM-DD`, a real one: see `isDay`); NaN when either cannot be read.
 */
export const tokyoInstant = (day: string, time = '00:00'): number =>
  Date.parse(`${day}T${time}Z`) - OFFSET_MS;

const DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * The post form's `yyyy-MM-dd HH:mm:ss`, read as Tokyo time, as epoch milliseconds; null when
 * it is not a real date and time (2026-02-30, 25:00).
 */
export function parseTokyoDateTime(s: string): number | null {
  const text = s.trim();
  const m = DATE_TIME_RE.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = fromTokyoParts(y, mo, d, h, mi, se);
  // Rejects 2026-02-30 and 25:00: the parts must come back unchanged.
  return formatTokyoDateTime(ms) === text ? ms : null;
}

/** An instant as the post form writes it: `yyyy-MM-dd HH:mm:ss` in Tokyo. */
export const formatTokyoDateTime = (at: Instant): string => formatTokyo(at, 'YYYY-MM-DD HH:mm:ss');

// ——— Schedules ———

/** The first instant strictly after `after` that reads `hour:minute` on Tokyo's clock. */
export const nextTokyoTimeOfDay = (after: Instant, hour: number, minute = 0): number => {
  const p = tokyoParts(after);
  const today = fromTokyoParts(p.year, p.month, p.day, hour, minute);
  // No daylight saving: every Tokyo day is 24 hours long.
  return today > msOf(after) ? today : today + DAY_MS;
};

/**
 * The first instant strictly after `after` on a whole multiple of `minutes` (a divisor of 60) of
 * Tokyo's hour: 15 → :00, :15, :30, :45. Tokyo's offset is whole hours, so these are UTC's marks.
 */
export const nextMinuteMark = (after: Instant, minutes: number): number => {
  if (!Number.isInteger(minutes) || minutes < 1 || 60 % minutes !== 0)
    throw new RangeError(`every ${minutes} minutes: a divisor of 60 expected`);
  const step = minutes * MINUTE_MS;
  return (Math.floor(msOf(after) / step) + 1) * step;
};

// ——— Calendar days and months (no zone) ———

const dayMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A real `YYYY-MM-DD` day, or false. */
export const isDay = (s: unknown): s is string => {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const ms = dayMs(s);
  return !Number.isNaN(ms) && dayOf(ms) === s;
};

export const addDays = (day: string, n: number): string => dayOf(dayMs(day) + n * DAY_MS);

/** Whole days from `a` to `b` (b − a). */
export const daysBetween = (a: string, b: string): number =>
  Math.round((dayMs(b) - dayMs(a)) / DAY_MS);

/** `YYYY-MM` of a day, and month arithmetic. */
export const monthOfDay = (day: string): string => day.slice(0, 7);
export const addMonths = (month: string, n: number): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const i = y * 12 + (m - 1) + n;
  return `${String(Math.floor(i / 12)).padStart(4, '0')}-${two((i % 12) + 1)}`;
};
export const firstDayOf = (month: string): string => `${month}-01`;
export const lastDayOf = (month: string): string => addDays(firstDayOf(addMonths(month, 1)), -1);

/** Day `dayOfMonth` of a month, or its last day when the month is shorter (31 → 30 April). */
export const dayInMonth = (month: string, dayOfMonth: number): string =>
  `${month}-${two(Math.min(dayOfMonth, Number(lastDayOf(month).slice(8, 10))))}`;

/** Every day from start to end, both included. */
export const daysIn = (start: string, end: string): string[] => {
  const out: string[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) out.push(d);
  return out;
};

/** Every month from start to end, both included. */
export const monthsIn = (start: string, end: string): string[] => {
  const out: string[] = [];
  for (let m = start; m <= end; m = addMonths(m, 1)) out.push(m);
  return out;
};
