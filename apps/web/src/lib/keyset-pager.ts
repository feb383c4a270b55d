/**
 * Keyset paging in the pagers (issue 26, ADR 0098): a list's answer carries `next_cursor` and
 * `prev_cursor`; moving to the page next to the one shown sends that cursor (`after` / `before`),
 * so the server seeks instead of skipping rows and page 1,200 of an agency's 12,000 stores comes
 * as fast as page 1. A jump to another page number sends `page`, as the spec's calls do.
 */

/** Where a list is: its page number and, when reached from the page next to it, the cursor. */
export type PagePosition = { page: number; after?: string; before?: string };

/** What a shown page says of its neighbours (absent from an answer without cursors). */
export type CursorPage = {
  current_page: number;
  next_cursor?: string | null;
  prev_cursor?: string | null;
};

export const FIRST_PAGE: PagePosition = { page: 1 };

/** How to ask for page `target` from the page `shown`: by its cursor when next to it. */
export const positionOf = (target: number, shown: CursorPage | undefined): PagePosition => {
  if (shown?.next_cursor && target === shown.current_page + 1)
    return { page: target, after: shown.next_cursor };
  if (shown?.prev_cursor && target === shown.current_page - 1)
    return { page: target, before: shown.prev_cursor };
  return { page: target };
};

/** The query fields of a position (a cursor wins over the page on the server). */
export const positionQuery = (p: PagePosition) => ({
  page: p.page,
  after: p.after,
  before: p.before,
});
