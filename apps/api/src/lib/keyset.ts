import { z } from 'zod';
import { pagingJa, type Cursors } from '@tenpo/domain';
import { validationError } from './errors';

/**
 * Keyset paging (issue 26, ADR 0098). A list is read either by number (`page`, the spec's) or
 * next to a page already shown (`after` / `before`, the cursors that page answered). By number,
 * a page in the list's first half skips rows from the start and a page in its second half from
 * the end, read backwards: the last page is a seek with nothing skipped. Next to a page, the
 * query seeks the index by the sort keys (keyset.repo.ts) and skips nothing, on page 1 as on
 * page 1,200. A cursor carries only sort keys, the order it was made for and its place in the
 * list; the query's tenant filter is the route's, whatever the cursor says.
 */

export type KeyValue = string | number;
export type KeyType = 'string' | 'number';

/** What a cursor holds: the order it was made for, a row's sort keys, the rows before it. */
type Cursor = { o: string; k: KeyValue[]; n: number };

const cursorShape = z.object({
  o: z.string().max(64),
  k: z
    .array(z.union([z.string().max(1000), z.number().int()]))
    .min(1)
    .max(2),
  n: z.number().int().min(0).max(1_000_000_000),
});

const encode = (c: Cursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

const decode = (text: string): Cursor | null => {
  try {
    const parsed = cursorShape.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/**
 * Where a page is read: skipping `offset` rows from the start or (backwards) from the end, or
 * next to a row's keys. `limit` rows at most; the rows come back in the list's order.
 */
export type Seek =
  | { from: 'start'; offset: number; limit: number }
  | { from: 'end'; offset: number; limit: number }
  | { from: 'after'; key: KeyValue[]; limit: number }
  | { from: 'before'; key: KeyValue[]; limit: number };

export type KeysetList<R> = Cursors & {
  rows: R[];
  current_page: number;
  last_page: number;
  from: number | null;
  to: number | null;
};

export type KeysetRequest = {
  page: number;
  perPage: number;
  after?: string | undefined;
  before?: string | undefined;
};

/**
 * One page of a list of `total` rows, by number or next to a cursor. `order` names the sort
 * (`name,asc`): a cursor made for another order is refused, as is one that is not ours (422).
 * `read` runs the seek on the list's own query (keyset.repo.ts `seekRows`).
 */
export async function keysetPage<R>(
  req: KeysetRequest,
  list: {
    total: number;
    order: string;
    keyTypes: readonly KeyType[];
    keyOf: (row: R) => KeyValue[];
    read: (seek: Seek) => Promise<R[]>;
  },
): Promise<KeysetList<R>> {
  const { perPage, page } = req;
  const { total } = list;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const cursor = cursorOf(req, list.order, list.keyTypes);

  let rows: R[] = [];
  let before = (page - 1) * perPage;
  let done = false;
  if (cursor?.dir === 'after') {
    rows = await list.read({ from: 'after', key: cursor.k, limit: perPage });
    before = cursor.n;
    // Rows went since the cursor was made, and none is left after it: the last page.
    done = rows.length > 0 || total === 0;
    if (!done) before = (lastPage - 1) * perPage;
  } else if (cursor?.dir === 'before') {
    rows = await list.read({ from: 'before', key: cursor.k, limit: perPage });
    before = cursor.n - rows.length;
    // A full page, not the first: kept. Short of a page (rows went, or came, before it): page 1.
    done = rows.length === perPage && before > 0;
    if (!done) before = 0;
  }
  if (!done) {
    const left = total - before;
    if (left <= 0) rows = [];
    else if (left - perPage < before)
      // Nearer the end: skip from the end, backwards (the last page skips nothing).
      rows = await list.read({
        from: 'end',
        offset: Math.max(0, left - perPage),
        limit: Math.min(perPage, left),
      });
    else rows = await list.read({ from: 'start', offset: before, limit: perPage });
  }

  const from = rows.length === 0 ? null : before + 1;
  const to = from === null ? null : from + rows.length - 1;
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    rows,
    current_page: Math.min(Math.floor(before / perPage) + 1, Math.max(lastPage, page)),
    last_page: lastPage,
    from,
    to,
    next_cursor:
      last !== undefined && to !== null && to < total
        ? encode({ o: list.order, k: list.keyOf(last), n: to })
        : null,
    prev_cursor:
      first !== undefined && before > 0
        ? encode({ o: list.order, k: list.keyOf(first), n: before })
        : null,
  };
}

/** The request's cursor, checked against the list's order and keys; none without one. */
function cursorOf(
  req: KeysetRequest,
  order: string,
  keyTypes: readonly KeyType[],
): (Cursor & { dir: 'after' | 'before' }) | null {
  if (req.after && req.before) throw validationError({ before: [pagingJa.cursorBoth] });
  const dir = req.after ? 'after' : req.before ? 'before' : null;
  const text = req.after || req.before;
  if (!dir || !text) return null;
  const c = decode(text);
  const fits =
    c !== null &&
    c.o === order &&
    c.k.length === keyTypes.length &&
    c.k.every((v, i) => typeof v === keyTypes[i]);
  if (!fits) throw validationError({ [dir]: [pagingJa.cursorInvalid] });
  return { ...c, dir };
}
