import { z } from 'zod';
import { pagingJa } from '../messages/paging';
import { adminList, paged, type Page } from './paging';

/**
 * Keyset paging (issue 26, ADR 0098) beside the spec's `page`: a page's answer carries
 * `next_cursor` and `prev_cursor`, opaque texts the server made from the sort keys of its last
 * and first rows; sending one back as `after` or `before` reads the next or previous page by
 * seeking the index, as fast on page 1,200 as on page 1. The spec's fields stay as they are.
 */
export const CURSOR_MAX_LENGTH = 2048;

const cursor = z
  .string()
  .max(CURSOR_MAX_LENGTH, pagingJa.cursorInvalid)
  .regex(/^[A-Za-z0-9_-]+$/, pagingJa.cursorInvalid);

/** An empty value counts as absent (a pager may send `after=`). */
const cursorParam = (description: string) =>
  z
    .union([z.literal(''), cursor])
    .optional()
    .meta({ description });

/** `after` and `before`: the query fields of a list paged by keys as well as by number. */
export const keysetQuery = z.object({
  after: cursorParam(
    'The page after the one that answered this `next_cursor` (same order_by); wins over `page`. Not with `before`.',
  ),
  before: cursorParam(
    'The page before the one that answered this `prev_cursor` (same order_by); wins over `page`. Not with `after`.',
  ),
});
export type KeysetQuery = z.input<typeof keysetQuery>;

const cursors = {
  next_cursor: z
    .string()
    .nullable()
    .meta({ description: 'Send as `after` for the next page; null on the last page.' }),
  prev_cursor: z
    .string()
    .nullable()
    .meta({ description: 'Send as `before` for the previous page; null on the first page.' }),
};
export type Cursors = { next_cursor: string | null; prev_cursor: string | null };

/** The spec's paged list (`current_page`, `last_page`, `total`, …) with the two cursors. */
export const keysetPaged = <T extends z.ZodTypeAny>(item: T) => paged(item).extend(cursors);
export type KeysetPage<T> = Page<T> & Cursors;

/** The admin list (`data` and the spec's `meta` paging, unchanged) with the two cursors beside. */
export const keysetAdminList = <T extends z.ZodTypeAny>(item: T) => adminList(item).extend(cursors);
