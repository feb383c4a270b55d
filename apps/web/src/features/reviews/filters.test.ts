import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REVIEW_FILTERS,
  isFiltered,
  readReviewFilters,
  writeReviewFilters,
} from './filters';

const read = (s: string) => readReviewFilters(new URLSearchParams(s));

describe('the reviews filters in the URL', () => {
  it('reads every filter, and defaults for an empty URL', () => {
    expect(read('')).toEqual(DEFAULT_REVIEW_FILTERS);
    expect(
      read(
        'stars=5,1,1&replied=replied&date_from=2026-01-01&date_to=2026-01-31&q=a&page=3&limit=50',
      ),
    ).toEqual({
      stars: [1, 5],
      replied: 'replied',
      from: '2026-01-01',
      to: '2026-01-31',
      q: 'a',
      page: 3,
      perPage: 50,
    });
  });

  it('leaves what it cannot read at its default rather than send it to a 422', () => {
    expect(read('stars=0,6,x,3&replied=maybe&date_from=1/2/2026&page=-1&limit=7')).toEqual({
      ...DEFAULT_REVIEW_FILTERS,
      stars: [3],
    });
  });

  it('writes only what differs from the defaults and keeps other parameters', () => {
    const base = new URLSearchParams('other=1&page=4');
    const out = writeReviewFilters({ ...DEFAULT_REVIEW_FILTERS, stars: [1, 2], q: ' 駅 ' }, base);
    expect(out.toString()).toBe(new URLSearchParams('other=1&stars=1,2&q=駅').toString());
    expect(read(out.toString())).toMatchObject({ stars: [1, 2], q: '駅', page: 1 });
  });

  it('knows when the list is narrowed', () => {
    expect(isFiltered(DEFAULT_REVIEW_FILTERS)).toBe(false);
    expect(isFiltered({ ...DEFAULT_REVIEW_FILTERS, perPage: 50, page: 3 })).toBe(false);
    expect(isFiltered({ ...DEFAULT_REVIEW_FILTERS, replied: 'unreplied' })).toBe(true);
  });
});
