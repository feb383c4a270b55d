import { describe, expect, it } from 'vitest';
import { pageOf } from './paging';

describe('pageOf', () => {
  it.each([
    { rows: 5, total: 12, page: 1, per: 5, last: 3, from: 1, to: 5 },
    { rows: 2, total: 12, page: 3, per: 5, last: 3, from: 11, to: 12 },
    { rows: 0, total: 0, page: 1, per: 5, last: 1, from: null, to: null },
    { rows: 0, total: 12, page: 9, per: 5, last: 3, from: null, to: null },
  ])('$total rows, page $page of $per', ({ rows, total, page, per, last, from, to }) => {
    const p = pageOf(
      Array.from({ length: rows }, (_, i) => i),
      total,
      page,
      per,
    );
    expect(p).toMatchObject({
      current_page: page,
      last_page: last,
      total,
      per_page: per,
      from,
      to,
    });
  });
});
