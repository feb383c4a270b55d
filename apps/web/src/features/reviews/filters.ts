import {
  PAGE_SIZE_OPTIONS,
  REVIEW_REPLIED_FILTERS,
  REVIEW_SEARCH_MAX,
  REVIEWS_DEFAULT_PER_PAGE,
  type ReviewRepliedFilter,
} from '@tenpo/domain';
import type { ReviewFilters } from './api/reviews-api';

/**
 * The list's filters live in the screen's URL (`/reviews?stars=1,2&replied=unreplied&…`), so a
 * reload or a shared link shows the same list. The names are those of `GET /reviews`; a value
 * that cannot be read is left at its default rather than sent on to a 422.
 */

export const STAR_VALUES = [1, 2, 3, 4, 5] as const;

export const DEFAULT_REVIEW_FILTERS: ReviewFilters = {
  stars: [],
  replied: 'all',
  from: '',
  to: '',
  q: '',
  page: 1,
  perPage: REVIEWS_DEFAULT_PER_PAGE,
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const readStars = (v: string | null): number[] =>
  [
    ...new Set(
      (v ?? '')
        .split(',')
        .map((s) => Number(s.trim()))
        .filter((n) => Number.isInteger(n) && n >= 1 && n <= 5),
    ),
  ].sort((a, b) => a - b);

const readReplied = (v: string | null): ReviewRepliedFilter =>
  (REVIEW_REPLIED_FILTERS as readonly string[]).includes(v ?? '')
    ? (v as ReviewRepliedFilter)
    : 'all';

const readDay = (v: string | null): string => (v && DAY.test(v) ? v : '');

const readPage = (v: string | null): number => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : 1;
};

const readPerPage = (v: string | null): number => {
  const n = Number(v);
  return (PAGE_SIZE_OPTIONS as readonly number[]).includes(n) ? n : REVIEWS_DEFAULT_PER_PAGE;
};

export const readReviewFilters = (params: URLSearchParams): ReviewFilters => ({
  stars: readStars(params.get('stars')),
  replied: readReplied(params.get('replied')),
  from: readDay(params.get('date_from')),
  to: readDay(params.get('date_to')),
  q: (params.get('q') ?? '').slice(0, REVIEW_SEARCH_MAX),
  page: readPage(params.get('page')),
  perPage: readPerPage(params.get('limit')),
});

/** The URL's parameters for `f`: defaults are left out, other parameters of the URL kept. */
export const writeReviewFilters = (f: ReviewFilters, base?: URLSearchParams): URLSearchParams => {
  const out = new URLSearchParams(base);
  const put = (key: string, value: string, unset: string) => {
    if (value === unset) out.delete(key);
    else out.set(key, value);
  };
  put('stars', f.stars.join(','), '');
  put('replied', f.replied, DEFAULT_REVIEW_FILTERS.replied);
  put('date_from', f.from, '');
  put('date_to', f.to, '');
  put('q', f.q.trim(), '');
  put('page', String(f.page), '1');
  put('limit', String(f.perPage), String(DEFAULT_REVIEW_FILTERS.perPage));
  return out;
};

/** Whether any filter narrows the list (the 'clear' button is offered then). */
export const isFiltered = (f: ReviewFilters): boolean =>
  f.stars.length > 0 || f.replied !== 'all' || f.from !== '' || f.to !== '' || f.q.trim() !== '';
