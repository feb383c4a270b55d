import { describe, expect, it } from 'vitest';
import {
  medianOf,
  replyHours,
  reviewFigures,
  reviewFiguresOfSums,
  reviewMetricsOf,
  type ReviewMetricRow,
} from './review-metrics';

const row = (
  created_at: string,
  star_rating: number,
  reply_updated_at: string | null = null,
): ReviewMetricRow => ({
  star_rating,
  created_at,
  has_reply: reply_updated_at !== null,
  reply_updated_at,
});

describe('medianOf', () => {
  it.each([
    [[], null],
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[10, 0], 5],
  ])('%j → %j', (xs, expected) => {
    expect(medianOf(xs)).toBe(expected);
  });
});

describe('replyHours', () => {
  it.each([
    ['2026-03-01T00:00:00Z', '2026-03-01T06:30:00Z', 6.5],
    ['2026-03-01T00:00:00.123456Z', '2026-03-03T00:00:00.123456Z', 48],
    // a reply time before the review (clock skew at Google): 0, not negative
    ['2026-03-01T10:00:00Z', '2026-03-01T09:00:00Z', 0],
    ['2026-03-01T00:00:00Z', null, null],
    ['2026-03-01T00:00:00Z', 'not a time', null],
  ])('%s → %s: %s h', (created, reply, expected) => {
    expect(replyHours(row(created, 5, reply))).toBe(expected);
  });
});

describe('reviewFigures', () => {
  it('works a period by hand', () => {
    // held before: 3 reviews, 12 stars (4.00); written: 5, 2, 3 → 10 stars
    // cumulative (12 + 10) / 6 = 3.666… → 3.67; own 10 / 3 = 3.33; replied 2 of 3 → 66.7 %
    // reply hours 2 and 10 → median 6
    const f = reviewFigures({ count: 3, stars: 12 }, [
      row('2026-03-01T00:00:00Z', 5, '2026-03-01T02:00:00Z'),
      row('2026-03-02T00:00:00Z', 2, '2026-03-02T10:00:00Z'),
      row('2026-03-03T00:00:00Z', 3),
    ]);
    expect(f).toEqual({
      review_count: 3,
      total_review_count: 6,
      average_rating: 3.67,
      period_average_rating: 3.33,
      replied_count: 2,
      reply_rate: 66.7,
      median_reply_hours: 6,
    });
  });

  it.each([
    [
      'nothing at all',
      { count: 0, stars: 0 },
      { average_rating: null, period_average_rating: null, reply_rate: null },
    ],
    [
      'nothing new, some held',
      { count: 2, stars: 9 },
      { average_rating: 4.5, period_average_rating: null, reply_rate: null },
    ],
  ])('%s: no rate and no average of nothing', (_, before, expected) => {
    expect(reviewFigures(before, [])).toMatchObject({
      review_count: 0,
      replied_count: 0,
      median_reply_hours: null,
      ...expected,
    });
  });
});

describe('reviewFiguresOfSums (the multi-store report sums in the database)', () => {
  // The same reviews as rows and as sums: the figures must be the same, whoever summed them.
  it.each([
    ['none held, none written', { count: 0, stars: 0 }, []],
    ['some held, none written', { count: 3, stars: 11 }, []],
    [
      'an odd count of replies',
      { count: 2, stars: 8 },
      [
        row('2026-03-01T00:00:00Z', 5, '2026-03-01T02:00:00Z'),
        row('2026-03-02T00:00:00Z', 1),
        row('2026-03-03T00:00:00Z', 4, '2026-03-04T00:00:00Z'),
        row('2026-03-04T00:00:00Z', 2, '2026-03-04T00:30:00Z'),
      ],
    ],
    [
      'an even count of replies, one before its review (counted as 0 h)',
      { count: 0, stars: 0 },
      [
        row('2026-03-01T10:00:00Z', 3, '2026-03-01T09:00:00Z'),
        row('2026-03-02T00:00:00Z', 4, '2026-03-02T05:15:00Z'),
        row('2026-03-03T00:00:00Z', 5),
      ],
    ],
  ])('%s', (_, before, rows) => {
    const replied = rows.filter((r) => r.has_reply);
    const hours = replied.map(replyHours).filter((h): h is number => h !== null);
    expect(
      reviewFiguresOfSums({
        before,
        count: rows.length,
        stars: rows.reduce((n, r) => n + r.star_rating, 0),
        replied: replied.length,
        median_reply_hours: medianOf(hours),
      }),
    ).toEqual(reviewFigures(before, rows));
  });

  it('rounds as the report does: averages to 2 places, the rate and the hours to 1', () => {
    expect(
      reviewFiguresOfSums({
        before: { count: 1, stars: 5 },
        count: 3,
        stars: 8,
        replied: 2,
        median_reply_hours: 7.25,
      }),
    ).toEqual({
      review_count: 3,
      total_review_count: 4,
      average_rating: 3.25,
      period_average_rating: 2.67,
      replied_count: 2,
      reply_rate: 66.7,
      median_reply_hours: 7.3,
    });
  });
});

describe('reviewMetricsOf', () => {
  it('buckets by Tokyo day: 15:00 UTC starts the next day', () => {
    const m = reviewMetricsOf({
      before: { count: 1, stars: 1 },
      rows: [
        row('2026-03-01T14:59:59Z', 5), // 2026-03-01 23:59:59 JST
        row('2026-03-01T15:00:00Z', 3), // 2026-03-02 00:00 JST
        row('2026-03-02T15:00:00Z', 4), // 2026-03-03: after the period, left out
        row('2026-02-28T14:59:59Z', 4), // 2026-02-28: before it, left out
      ],
      start: '2026-03-01',
      end: '2026-03-02',
      unit: 'day',
    });
    expect(Object.keys(m.series)).toEqual(['2026/03/01', '2026/03/02']);
    expect(m.series['2026/03/01']).toMatchObject({
      review_count: 1,
      total_review_count: 2,
      average_rating: 3,
    });
    expect(m.series['2026/03/02']).toMatchObject({
      review_count: 1,
      total_review_count: 3,
      average_rating: 3,
      period_average_rating: 3,
    });
    expect(m.starting_average_rating).toBe(1);
    expect(m.period).toMatchObject({ review_count: 2, average_rating: 3, reply_rate: 0 });
  });

  it('buckets by month, every month of the range, the empty ones carrying the average on', () => {
    const m = reviewMetricsOf({
      before: { count: 0, stars: 0 },
      rows: [
        row('2026-01-10T00:00:00Z', 4, '2026-01-10T12:00:00Z'),
        row('2026-03-31T14:00:00Z', 2),
      ],
      start: '2026-01-15',
      end: '2026-03-31',
      unit: 'month',
    });
    // 2026-01-10 is before the range's first day: left out
    expect(m.series).toEqual({
      '2026/01': expect.objectContaining({ review_count: 0, average_rating: null }),
      '2026/02': expect.objectContaining({ review_count: 0, average_rating: null }),
      '2026/03': expect.objectContaining({ review_count: 1, average_rating: 2, reply_rate: 0 }),
    });
    expect(m.starting_average_rating).toBeNull();
    expect(m.period).toMatchObject({ review_count: 1, total_review_count: 1, average_rating: 2 });
  });
});
